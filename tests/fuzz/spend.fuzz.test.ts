import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateSpend } from '../../src/index';
import { defaultDatasets, useeioDatasets } from '../../src/embedded/index';
import { anyValue, FUZZ_SEED, runs, spendRequest } from './arbitraries';
import { checkCall } from './check';

describe.each([
  ['default (EXIOBASE) datasets', defaultDatasets],
  ['USEEIO datasets', useeioDatasets],
] as const)('spend calculator under fuzzing, %s', (_name, datasets) => {
  it('requests built from its field names, right and wrong values mixed: an EmissionsError or a sound result', () => {
    let results = 0;
    fc.assert(
      fc.property(spendRequest, (request) => {
        if (checkCall(() => calculateSpend(request as never, datasets), request).kind === 'result') results++;
      }),
      { seed: FUZZ_SEED, numRuns: runs(800) },
    );
    // The generator must reach the arithmetic too, not only the validation.
    if (datasets === defaultDatasets) expect(results).toBeGreaterThan(runs(800) / 50);
  });

  it('arbitrary JSON as the request', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (request) => {
        expect(checkCall(() => calculateSpend(request as never, datasets), request).kind).toBe('error');
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });

  it('arbitrary JS values as the request', () => {
    fc.assert(
      fc.property(anyValue, (request) => {
        checkCall(() => calculateSpend(request as never, datasets), request);
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });
});
