import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunSummary } from '../../src/cli/pipeline/summary';

/**
 * A run's summary is the merge of its chunks' summaries: from a worker as its parts (`toParts`, structured-cloned),
 * from the main thread as the object itself, from a resumed run's saved state as plain data (`toState`). Every merge
 * must give the same summary, and the same as one summary of every row.
 */

const GROUPINGS = { region: 'by region' };
type Row = { co2e: number; region: string } | { failure: string };

const row: fc.Arbitrary<Row> = fc.oneof(
  fc.record({
    co2e: fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.double({ min: 1e-40, max: 1e-20, noNaN: true }),
    ),
    region: fc.constantFrom('DE', 'FR', 'US', '__proto__', 'a|b'),
  }),
  fc.record({ failure: fc.constantFrom('invalid_request', 'unknown_region') }),
);

function summarise(rows: readonly Row[], first = 0): RunSummary {
  const summary = new RunSummary(GROUPINGS);
  rows.forEach((each, index) => {
    if ('failure' in each) summary.failure(first + index + 2, each.failure, `row ${first + index}`);
    else summary.success(each.co2e, { region: each.region });
  });
  return summary;
}

describe('RunSummary.merge', () => {
  it('property: merging chunk summaries as objects, as their parts or as plain data gives the one-pass summary', () => {
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 20 }), { maxLength: 6 }), (chunks) => {
        const whole = summarise(chunks.flat());
        const viaState = new RunSummary(GROUPINGS);
        const viaParts = new RunSummary(GROUPINGS);
        const viaObject = new RunSummary(GROUPINGS);
        let first = 0;
        for (const chunk of chunks) {
          viaState.merge(summarise(chunk, first).toState());
          // As a worker's message arrives: cloned, so the parts share nothing with the summary they came from.
          viaParts.merge(structuredClone(summarise(chunk, first).toParts()));
          viaObject.merge(summarise(chunk, first));
          first += chunk.length;
        }
        expect(viaState.toState()).toEqual(whole.toState());
        expect(viaParts.toState()).toEqual(whole.toState());
        expect(viaObject.toState()).toEqual(whole.toState());
        expect(viaParts.format('spend', 1)).toBe(whole.format('spend', 1));
        expect(viaObject.format('spend', 1)).toBe(whole.format('spend', 1));
      }),
    );
  });
});
