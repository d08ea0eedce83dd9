import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import { toWireEstimate } from '../../src/http/wire';
import { calculateCpuBatch } from '../../src/index';

/**
 * A batch is computed in slices that grow while its turn has time left (16, 32, then 64 elements, back to 16 after
 * each turn it gives up); whatever the slices, the answer is that of one call on the whole batch, every error's
 * path naming its index in the whole batch.
 */
describe('batch answers computed in growing slices', () => {
  const handler = createHandler({ datasets: defaultDatasets, maxBatchSize: 1_000 });
  const post = async (body: unknown) => {
    const response = await handler(
      new Request('http://localhost/compute/aws/cpu/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, text: await response.text() };
  };
  const wholeBatch = (requests: unknown[]) =>
    JSON.stringify(
      calculateCpuBatch('aws', requests as never, defaultDatasets).map((result) =>
        'error_code' in result ? result : toWireEstimate(result as never),
      ),
    );

  it('errors at the edges of the slices (15, 16, 47, 48, 111, 112, 175, 176, 499) name their own index', async () => {
    const bad = new Set([15, 16, 47, 48, 111, 112, 175, 176, 499]);
    const requests = Array.from({ length: 500 }, (_, index) =>
      bad.has(index)
        ? { cpu_count: -1, region: 'us_east_1', duration: 1 }
        : { cpu_count: (index % 8) + 1, region: 'us_east_1', duration: 1 },
    );
    const answer = await post(requests);
    expect(answer.status).toBe(200);
    const paths = (JSON.parse(answer.text) as Array<{ path?: string }>).flatMap((result, index) =>
      result.path === undefined ? [] : [[index, result.path]],
    );
    expect(paths).toEqual([...bad].map((index) => [index, `requests[${index}].cpu_count`]));
    expect(answer.text).toBe(wholeBatch(requests));
  });

  it('any batch of valid and invalid elements answers as one call on the whole batch', async () => {
    const element = fc.oneof(
      fc.record({
        cpu_count: fc.integer({ min: 1, max: 64 }),
        region: fc.constantFrom('us_east_1', 'eu_west_1', 'nowhere'),
        duration: fc.double({ min: 0.001, max: 1e4, noNaN: true }),
      }),
      fc.record({ cpu_count: fc.constantFrom(-1, 'x', null), region: fc.constant('us_east_1') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(element, { minLength: 17, maxLength: 400 }), async (requests) => {
        const answer = await post(requests);
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(wholeBatch(requests));
      }),
      { numRuns: 40 },
    );
  });
});
