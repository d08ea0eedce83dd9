import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSummaryState, RunSummary, type SummaryState } from '../../src/cli/pipeline/summary';
import { add, compare, decimal, type Decimal } from '../../src/core/decimal';
import { numberText } from '../../src/core/number-text';

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

describe('RunSummary groups', () => {
  // Two groupings, and rows that name only one of them: each grouping keeps its own rows.
  const TWO = { region: 'by region', kind: 'by kind' };
  const grouped = fc.record({
    co2e: fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      // Digits below 10^-30, and past the limbs' 10^30: summed another way than the rest.
      fc.double({ min: 1e-40, max: 1e-20, noNaN: true }),
      fc.double({ min: 1e30, max: 1e40, noNaN: true }),
    ),
    region: fc.constantFrom('DE', 'FR', 'US', '__proto__', 'a|b'),
    kind: fc.option(fc.constantFrom('goods', 'services'), { nil: undefined }),
  });

  /** Each grouping's sums by key, in the order the keys first came, added up as decimals one by one. */
  function expected(rows: ReadonlyArray<{ co2e: number; region: string; kind?: string }>) {
    const sums = { region: new Map<string, [Decimal, number]>(), kind: new Map<string, [Decimal, number]>() };
    for (const { co2e, region, kind } of rows)
      for (const [name, key] of [
        ['region', region],
        ['kind', kind],
      ] as const) {
        if (key === undefined) continue;
        const [sum, count] = sums[name].get(key) ?? [decimal(0), 0];
        sums[name].set(key, [add(sum, decimal(numberText(co2e))), count + 1]);
      }
    return sums;
  }

  it('property: a chunk, and a run merged from chunks each way, hold each key first come first with its exact sum', () => {
    fc.assert(
      fc.property(fc.array(fc.array(grouped, { maxLength: 30 }), { maxLength: 5 }), (chunks) => {
        const summaries = () =>
          chunks.map((rows) => {
            const summary = new RunSummary(TWO);
            for (const { co2e, region, kind } of rows)
              summary.success(co2e, kind === undefined ? { region } : { region, kind });
            return summary;
          });
        const viaObject = new RunSummary(TWO);
        const viaParts = new RunSummary(TWO);
        for (const summary of summaries()) viaObject.merge(summary);
        for (const summary of summaries()) viaParts.merge(structuredClone(summary.toParts()));
        const oneChunk = summaries()[0] ?? new RunSummary(TWO);
        const cases: Array<[RunSummary, ReadonlyArray<{ co2e: number; region: string; kind?: string }>]> = [
          [viaObject, chunks.flat()],
          [viaParts, chunks.flat()],
          [oneChunk, chunks[0] ?? []],
        ];
        for (const [summary, rows] of cases) {
          const state = summary.toState();
          for (const [name, sums] of Object.entries(expected(rows))) {
            const groups = state.groups[name] ?? {};
            expect(Object.keys(groups)).toEqual([...sums.keys()]);
            for (const [key, [sum, count]] of sums) {
              expect(compare(decimal(groups[key]?.co2e ?? 'NaN'), sum)).toBe(0);
              expect(groups[key]?.rows).toBe(count);
            }
          }
        }
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
