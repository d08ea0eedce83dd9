import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSummaryState, RunSummary, type SummaryState } from '../../src/cli/pipeline/summary';

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
          // As a resumed run reads it: written to the state file as JSON, and read back.
          viaState.merge(JSON.parse(JSON.stringify(summarise(chunk, first).toState())) as SummaryState);
          // As a worker's message arrives: cloned, so the parts share nothing with the summary they came from.
          viaParts.merge(structuredClone(summarise(chunk, first).toParts()));
          viaObject.merge(summarise(chunk, first));
          first += chunk.length;
        }
        expect(viaState.toState()).toEqual(whole.toState());
        expect(viaParts.toState()).toEqual(whole.toState());
        expect(viaObject.toState()).toEqual(whole.toState());
        // format() shows every group from the summary's own maps, so a group lost on the way shows here, where
        // toState() of both sides would lose it alike.
        expect(viaState.format('spend', 1)).toBe(whole.format('spend', 1));
        expect(viaParts.format('spend', 1)).toBe(whole.format('spend', 1));
        expect(viaObject.format('spend', 1)).toBe(whole.format('spend', 1));
      }),
    );
  });
});

describe('RunSummary.toState', () => {
  it("keeps groups whose names are Object.prototype's (a resumed run lost a `__proto__` region)", () => {
    const summary = new RunSummary(GROUPINGS);
    for (const region of ['__proto__', 'constructor', 'toString', 'DE']) summary.success(2, { region });
    const saved = JSON.parse(JSON.stringify(summary.toState())) as SummaryState;
    expect(Object.keys(saved.groups.region ?? {})).toEqual(['__proto__', 'constructor', 'toString', 'DE']);
    const resumed = new RunSummary(GROUPINGS);
    resumed.merge(saved);
    expect(resumed.format('spend', 1)).toBe(summary.format('spend', 1));
  });
});

describe('isSummaryState', () => {
  it('property: takes every summary a run saves', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        expect(isSummaryState(JSON.parse(JSON.stringify(summarise(rows).toState())))).toBe(true);
      }),
    );
  });

  it('refuses one with a count that is not whole or is negative, a sum that is no decimal, or a wrong shape', () => {
    const state = summarise([{ co2e: 1.5, region: 'DE' }, { failure: 'invalid_request' }]).toState();
    expect(isSummaryState(state)).toBe(true);
    const damaged: unknown[] = [
      undefined,
      [],
      { ...state, rows: -1 },
      { ...state, rows: 1.5 },
      { ...state, failures: '1' },
      { ...state, total: 'lots' },
      { ...state, total: 1.5 },
      { ...state, groups: [] },
      { ...state, groups: { region: { DE: { co2e: '1,5', rows: 1 } } } },
      { ...state, groups: { region: { DE: { co2e: '1.5', rows: Number.NaN } } } },
      { ...state, groups: { region: null } },
      { ...state, errorCodes: { invalid_request: 'one' } },
      { ...state, firstFailures: [1] },
      { ...state, firstFailures: 'line 2' },
    ];
    for (const value of damaged) expect(isSummaryState(value)).toBe(false);
  });
});
