import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculateCpuBatch,
  calculateEmbodiedBatch,
  calculateInstanceBatch,
  calculateMemoryBatch,
  calculateNetworkingBatch,
  calculateSpendBatch,
  calculateStorageBatch,
  isErrorBody,
  type CloudProviderSpelling,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import {
  anyValue,
  CLOUD_PROVIDER_IDS,
  cloudRequests,
  FUZZ_SEED,
  nastyValue,
  runs,
  spendRequest,
} from './arbitraries';
import { checkCall, expectSoundErrorBody, expectSoundResult } from './check';

type Batch = (requests: unknown) => unknown;

const provider = 'aws';
const requestsOf = cloudRequests(provider);
const BATCHES: ReadonlyArray<[string, Batch, fc.Arbitrary<unknown>]> = [
  ['cpu', (r) => calculateCpuBatch(provider, r as never[], defaultDatasets), requestsOf.cpu],
  ['memory', (r) => calculateMemoryBatch(provider, r as never[], defaultDatasets), requestsOf.memory],
  ['storage', (r) => calculateStorageBatch(provider, r as never[], defaultDatasets), requestsOf.storage],
  [
    'networking',
    (r) => calculateNetworkingBatch(provider, r as never[], defaultDatasets),
    requestsOf.networking,
  ],
  ['embodied', (r) => calculateEmbodiedBatch(provider, r as never[], defaultDatasets), requestsOf.embodied],
  ['instance', (r) => calculateInstanceBatch(provider, r as never[], defaultDatasets), requestsOf.instance],
  ['spend', (r) => calculateSpendBatch(r as never[], defaultDatasets), spendRequest],
];

describe.each(BATCHES)('%s batch under fuzzing', (_kind, batch, element) => {
  it('never throws for bad elements: one sound result or error body per element, in order, with its index in the path', () => {
    const elements = fc.array(
      fc.oneof({ arbitrary: element, weight: 3 }, { arbitrary: nastyValue, weight: 1 }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(elements, (requests) => {
        const outcome = checkCall(() => batch(requests), requests);
        expect(outcome.kind).toBe('result');
        const results = (outcome as { value: unknown[] }).value;
        expect(results).toHaveLength(requests.length);
        results.forEach((result, index) => {
          if (isErrorBody(result)) {
            expectSoundErrorBody(result);
            expect(result.path?.startsWith(`requests[${index}]`)).toBe(true);
          } else expectSoundResult(result);
        });
      }),
      { seed: FUZZ_SEED, numRuns: runs(150) },
    );
  });

  it('a batch that is not an array is one invalid_request error', () => {
    fc.assert(
      fc.property(anyValue, (requests) => {
        fc.pre(!Array.isArray(requests));
        expect(checkCall(() => batch(requests), requests)).toMatchObject({
          kind: 'error',
          body: { error_code: 'invalid_request', path: 'requests' },
        });
      }),
      { seed: FUZZ_SEED, numRuns: runs(150) },
    );
  });
});

it('a cloud batch with an arbitrary provider is one unsupported_provider error, checked once for the batch', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...CLOUD_PROVIDER_IDS)), (id) => {
      const requests = [{ cpu_count: 1, region: 'us_east_1', duration: 1 }];
      const outcome = checkCall(
        () => calculateCpuBatch(id as CloudProviderSpelling, requests, defaultDatasets),
        id,
      );
      const known = typeof id === 'string' && (CLOUD_PROVIDER_IDS as readonly string[]).includes(id);
      if (known) expect(outcome.kind).toBe('result');
      else
        expect(outcome).toMatchObject({
          kind: 'error',
          body: { error_code: 'unsupported_provider', path: 'provider_id' },
        });
    }),
    { seed: FUZZ_SEED, numRuns: runs(200) },
  );
});
