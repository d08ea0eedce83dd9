import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyValue, CLOUD_PROVIDER_IDS, cloudRequests, FUZZ_SEED, runs } from './arbitraries';
import { checkCall } from './check';
import {
  calculateCloud,
  CLOUD_CALCULATOR_NAMES,
  type CloudCalculatorName,
} from '../fixtures/cloud-calculators';

const call = (kind: CloudCalculatorName, provider: unknown, request: unknown) => () =>
  calculateCloud(kind, provider, request);

describe.each([...CLOUD_CALCULATOR_NAMES])('%s calculator under fuzzing', (kind) => {
  it('requests built from its field names, right and wrong values mixed: an EmissionsError or a sound result', () => {
    let results = 0;
    const requests = fc
      .constantFrom(...CLOUD_PROVIDER_IDS)
      .chain((provider) => fc.tuple(fc.constant(provider), cloudRequests(provider)[kind]));
    fc.assert(
      fc.property(requests, ([provider, request]) => {
        if (checkCall(call(kind, provider, request), request).kind === 'result') results++;
      }),
      { seed: FUZZ_SEED, numRuns: runs(600) },
    );
    // The generator must reach the arithmetic too, not only the validation.
    expect(results).toBeGreaterThan(runs(600) / 50);
  });

  it('arbitrary JSON as the request', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CLOUD_PROVIDER_IDS), fc.jsonValue(), (provider, request) => {
        expect(checkCall(call(kind, provider, request), request).kind).toBe('error');
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });

  it('arbitrary JS values (null prototypes, sparse arrays, boxed values, typed arrays, maps) as the request', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CLOUD_PROVIDER_IDS), anyValue, (provider, request) => {
        checkCall(call(kind, provider, request), request);
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });

  it('arbitrary JSON as the provider', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), (provider) => {
        expect(checkCall(call(kind, provider, {}), provider)).toMatchObject({ kind: 'error' });
      }),
      { seed: FUZZ_SEED, numRuns: runs(200) },
    );
  });
});
