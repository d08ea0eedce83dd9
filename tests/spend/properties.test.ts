import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculateSpend,
  calculateSpendBatch,
  EmissionsError,
  type ErrorBody,
  type SpendEstimate,
  type SpendRequest,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { Big, CODES, fx, toNumber } from './expected';
import { spendRows } from '../../src/cli/adapters/spend';

/** Properties of calculateSpend over the embedded default data (≤ 200 runs each). */

const RUNS = { numRuns: 200 };
const REGIONS = ['DE', 'BR', 'US', 'NO', 'GB'] as const;
/** Currencies with rates 1990..2025 (jpy ends in 2024, so 2025 exercises the FX year fallback). */
const CURRENCIES = ['eur', 'usd', 'gbp', 'nok', 'brl', 'jpy', 'chf', 'sek', 'cny', 'inr'] as const;

const margin = {
  tax: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
  trade: fc.double({ min: 0, max: 0.3, noNaN: true }),
  transport: fc.double({ min: 0, max: 0.1, noNaN: true }),
};

/** A valid request: any code, region, currency, year 1990..2030, money up to 1e9, any subset of margins. */
const request = fc.record(
  {
    activity: fc
      .constantFrom(...CODES)
      .map((code) => ({ classification_type: 'isic4', classification_code: code })),
    spend_year: fc.integer({ min: 1990, max: 2030 }),
    spend_region: fc.constantFrom(...REGIONS),
    // Whole cents: amounts people spend (sub-cent doubles down to 5e-324 are covered by the last properties).
    money: fc.integer({ min: 0, max: 100_000_000_000 }).map((cents) => cents / 100),
    money_unit: fc.constantFrom(...CURRENCIES),
    tax_margin: margin.tax,
    trade_margin: margin.trade,
    transport_margin: margin.transport,
  },
  { requiredKeys: ['activity', 'spend_year', 'spend_region', 'money', 'money_unit'] },
) as fc.Arbitrary<SpendRequest>;

const relative = (a: number, b: number) => {
  const x = new Big(a);
  const y = new Big(b);
  const scale = x.abs().gt(y.abs()) ? x.abs() : y.abs();
  return scale.eq(0) ? 0 : toNumber(x.minus(y).abs().div(scale));
};

/** Every number anywhere in a value. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(numbersIn);
  return [];
}

function singleOrError(value: unknown, index: number): SpendEstimate | ErrorBody {
  try {
    return calculateSpend(value as SpendRequest, defaultDatasets);
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    const body = error.toJSON();
    return { ...body, path: body.path ? `requests[${index}].${body.path}` : `requests[${index}]` };
  }
}

describe('spend properties', () => {
  it('is linear in money', () => {
    fc.assert(
      fc.property(request, fc.integer({ min: 2, max: 1000 }), (base, k) => {
        const one = calculateSpend(base, defaultDatasets);
        const many = calculateSpend({ ...base, money: base.money * k }, defaultDatasets);
        expect(
          relative(many.estimate.activity_data.activity_value, one.estimate.activity_data.activity_value * k),
        ).toBeLessThanOrEqual(1e-12);
        expect(relative(many.estimate.co2e, one.estimate.co2e * k)).toBeLessThanOrEqual(1e-12);
      }),
      RUNS,
    );
  });

  it('spending X USD equals spending X × rate EUR in the same year', () => {
    // Only years where both currencies have a rate of their own (1990..2025), so no fallback is involved.
    fc.assert(
      fc.property(request, fc.integer({ min: 1990, max: 2025 }), (base, year) => {
        const usd = calculateSpend({ ...base, spend_year: year, money_unit: 'usd' }, defaultDatasets);
        const inEuro = toNumber(new Big(base.money).times(fx('eur', year)).div(fx('usd', year)));
        const eur = calculateSpend(
          { ...base, spend_year: year, money: inEuro, money_unit: 'eur' },
          defaultDatasets,
        );
        expect(usd.calculation_details.exchange_rate_year).toBe(year);
        expect(
          relative(usd.estimate.activity_data.activity_value, eur.estimate.activity_data.activity_value),
        ).toBeLessThanOrEqual(1e-12);
        expect(relative(usd.estimate.co2e, eur.estimate.co2e)).toBeLessThanOrEqual(1e-12);
        expect(usd.estimate.emission_factor).toEqual(eur.estimate.emission_factor);
      }),
      RUNS,
    );
  });

  it('positive margins only ever reduce activity_value', () => {
    fc.assert(
      fc.property(
        request,
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        (base, tax, trade, transport) => {
          const none = calculateSpend(
            { ...base, tax_margin: 0, trade_margin: 0, transport_margin: 0 },
            defaultDatasets,
          );
          const some = calculateSpend(
            { ...base, tax_margin: tax, trade_margin: trade, transport_margin: transport },
            defaultDatasets,
          );
          const without = none.estimate.activity_data.activity_value;
          const withMargins = some.estimate.activity_data.activity_value;
          expect(withMargins).toBeLessThanOrEqual(without);
          // Strictly lower wherever the margins are large enough to show in a JS number.
          if (tax + trade + transport > 1e-9 && without > 0) expect(withMargins).toBeLessThan(without);
        },
      ),
      RUNS,
    );
  });

  it('raising one margin never raises activity_value', () => {
    fc.assert(
      fc.property(request, fc.double({ min: 0, max: 0.2, noNaN: true }), (base, extra) => {
        const lower = calculateSpend({ ...base, trade_margin: 0.1 }, defaultDatasets);
        const higher = calculateSpend({ ...base, trade_margin: 0.1 + extra }, defaultDatasets);
        expect(higher.estimate.activity_data.activity_value).toBeLessThanOrEqual(
          lower.estimate.activity_data.activity_value,
        );
      }),
      RUNS,
    );
  });

  it('the batch is the map of the singles, bad elements included', () => {
    const element = fc.oneof(
      request,
      request.map((valid) => ({ ...valid, spend_region: 'FR' })),
      request.map((valid) => ({ ...valid, money: -1 })),
      request.map((valid) => ({ ...valid, money_unit: 'xyz' })),
      fc.anything(),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 8 }), (requests) => {
        expect(calculateSpendBatch(requests as never[], defaultDatasets)).toEqual(
          requests.map(singleOrError),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('never returns NaN, Infinity or a negative co2e, and fails only with EmissionsError', () => {
    // Mostly in-range values (fast-check biases towards bounds, so out-of-range ones are added explicitly, rarely),
    // so that enough requests reach the arithmetic; a field is sometimes anything at all.
    const mostly = <T>(good: fc.Arbitrary<T>, ...bad: unknown[]) =>
      fc.oneof(
        { arbitrary: good as fc.Arbitrary<unknown>, weight: 9 },
        { arbitrary: fc.constantFrom(...bad), weight: 1 },
      );
    const wild = <T>(good: fc.Arbitrary<T>) =>
      fc.oneof(
        { arbitrary: good as fc.Arbitrary<unknown>, weight: 19 },
        { arbitrary: fc.anything(), weight: 1 },
      );
    const anyRequest = fc.record(
      {
        activity: wild(
          fc.oneof(
            fc
              .constantFrom(...CODES, 'Z', '9999', '47.11', '')
              .map((code) => ({ classification_type: 'isic4', classification_code: code })),
            fc
              .constantFrom('nace2', 'naics2017', 'sic')
              .map((type) => ({ classification_type: type, classification_code: '4711' })),
          ),
        ),
        spend_year: wild(mostly(fc.integer({ min: 1900, max: 2200 }), 1899, 2201, 2019.5)),
        spend_region: wild(fc.constantFrom(...REGIONS, 'FR', 'de', 'XX')),
        money: wild(mostly(fc.double({ min: 0, max: 1e15, noNaN: true }), -1, -0, 1e16, Number.NaN)),
        money_unit: wild(fc.constantFrom(...CURRENCIES, 'dem', 'itl', 'zwl', 'xyz', 'EUR')),
        tax_margin: wild(mostly(fc.double({ min: -1, max: 0.4, noNaN: true }), 0.9, 1.5)),
        trade_margin: wild(mostly(fc.double({ min: 0, max: 0.3, noNaN: true }), -0.01, 0.5)),
        transport_margin: wild(mostly(fc.double({ min: 0, max: 0.2, noNaN: true }), -0.01, 0.5)),
      },
      { requiredKeys: ['activity', 'spend_year', 'spend_region', 'money', 'money_unit'] },
    );
    let computed = 0;
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: anyRequest, weight: 9 }, { arbitrary: fc.anything(), weight: 1 }),
        (input) => {
          let result: SpendEstimate;
          try {
            result = calculateSpend(input as SpendRequest, defaultDatasets);
          } catch (error) {
            expect(error).toBeInstanceOf(EmissionsError);
            return;
          }
          computed++;
          for (const value of numbersIn(result)) expect(Number.isFinite(value)).toBe(true);
          expect(result.estimate.co2e).toBeGreaterThanOrEqual(0);
          expect(Object.is(result.estimate.co2e, -0)).toBe(false);
          expect(result.estimate.activity_data.activity_value).toBeGreaterThanOrEqual(0);
        },
      ),
      RUNS,
    );
    // The generator must reach the arithmetic often enough for the property to mean something.
    // About a fifth of the requests are valid (≈ 40 of 200); fewer than 10 would mean the generator has drifted.
    expect(computed).toBeGreaterThanOrEqual(10);
  });

  it("the CLI's result columns (built from spendParts) are calculateSpend's values, notices included", () => {
    const rows = spendRows(defaultDatasets);
    fc.assert(
      fc.property(request, (input) => {
        const { activity, ...fields } = input;
        let expected: SpendEstimate;
        try {
          expected = calculateSpend(input, defaultDatasets);
        } catch (error) {
          expect(() => rows.compute({ ...activity, ...fields }, 'jsonl')).toThrow((error as Error).message);
          return;
        }
        const { estimate, calculation_details: details, notices } = expected;
        const { outcome } = rows.compute({ ...activity, ...fields }, 'jsonl');
        expect(outcome).toEqual({
          co2e: estimate.co2e,
          co2e_unit: estimate.co2e_unit,
          activity_value: estimate.activity_data.activity_value,
          activity_unit: estimate.activity_data.activity_unit,
          factor_id: estimate.emission_factor?.id,
          factor_name: estimate.emission_factor?.name,
          factor_source: estimate.emission_factor?.source,
          factor_region: estimate.emission_factor?.region,
          factor_year: estimate.emission_factor?.year,
          exchange_rate: details.exchange_rate,
          exchange_rate_year: details.exchange_rate_year,
          tax_margin_applied: details.tax_margin,
          tax_margin_source: details.margin_sources.tax_margin,
          trade_margin_applied: details.trade_margin,
          trade_margin_source: details.margin_sources.trade_margin,
          transport_margin_applied: details.transport_margin,
          transport_margin_source: details.margin_sources.transport_margin,
          inflation_applied: details.inflation_applied,
          notices,
        });
      }),
      RUNS,
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(calculateSpend(input, defaultDatasets)).toEqual(
          calculateSpend(structuredClone(input), defaultDatasets),
        );
      }),
      RUNS,
    );
  });
});
