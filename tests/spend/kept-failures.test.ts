import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculateSpend,
  createTableDatasets,
  EmissionsError,
  type FxProvider,
  type SpendDatasets,
  type SpendRequest,
} from '../../src/index';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { MAX_KEPT_RATES } from '../../src/spend/spend';
import { caught } from '../fixtures/caught';
import { eur1000, isic4 } from '../fixtures/requests';

/**
 * A request part that fails to resolve (a code without a factor in the region, a currency without rates) is kept
 * under its key as a resolved part is (spend.ts, KeptFailure): later requests of the key fail without resolving it
 * again. What a caller sees must not change: the same code, message, path and valid values, a new error object each
 * time, and whatever the order requests come in, the outcome a cold cache gives.
 */

const thrown = (request: SpendRequest, datasets: SpendDatasets = defaultDatasets): EmissionsError =>
  caught(EmissionsError, () => calculateSpend(request, datasets));

/** The datasets with each table a new object: the engine's caches, kept per table, start empty. */
const coldDatasets = (): SpendDatasets =>
  Object.fromEntries(
    Object.entries(defaultDatasets).map(([name, table]) => [
      name,
      table !== null && typeof table === 'object' && !Array.isArray(table) ? { ...table } : table,
    ]),
  ) as unknown as SpendDatasets;

/** An activity of a classification type the datasets do not have (the types accept only known spellings). */
const unknownType = (type: string) =>
  ({ classification_type: type, classification_code: '4711' }) as unknown as SpendRequest['activity'];

/** What a request gives, as a caller compares it: the result, or the error's wire body. */
function outcome(request: SpendRequest, datasets: SpendDatasets): unknown {
  try {
    return { result: calculateSpend(request, datasets) };
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    return { error: error.toJSON() };
  }
}

describe('failures kept per key', () => {
  it('a region the factors lack fails the same way every time, with a new error object', () => {
    const datasets = coldDatasets();
    const first = thrown(eur1000(isic4('4711'), 'JP'), datasets);
    const again = thrown(eur1000(isic4('4711'), 'JP', { money: 5 }), datasets);
    expect(first.error_code).toBe('no_emission_factors_found');
    expect(again).not.toBe(first);
    expect(again.toJSON()).toEqual(first.toJSON());
    expect(again.valid_values).not.toBe(first.valid_values);
    // Its stack says where the failure was found, as the first one's does.
    expect(again.stack).toBe(first.stack);
  });

  it('a currency without rates fails the same way every time', () => {
    const datasets = coldDatasets();
    const first = thrown(eur1000(isic4('4711'), 'DE', { money_unit: 'xyz' }), datasets);
    const again = thrown(eur1000(isic4('4711'), 'DE', { money_unit: 'XYZ' }), datasets);
    expect(first.error_code).toBe('unsupported_currency');
    expect(again.toJSON()).toEqual(first.toJSON());
  });

  it('keeps no invalid_request: a type in another case is quoted as each request spells it', () => {
    const datasets = coldDatasets();
    const upper = thrown(eur1000(unknownType('ISIC9'), 'DE'), datasets);
    const lower = thrown(eur1000(unknownType('isic9'), 'DE'), datasets);
    expect(upper.error_code).toBe('invalid_request');
    expect(upper.message).toContain("'ISIC9'");
    expect(lower.message).toContain("'isic9'");
  });

  it('a request that fails validation fails on that, whatever its key kept', () => {
    const datasets = coldDatasets();
    thrown(eur1000(isic4('4711'), 'JP'), datasets);
    const invalid = thrown(eur1000(isic4('4711'), 'JP', { money: -1 }), datasets);
    expect(invalid.error_code).toBe('invalid_request');
    expect(invalid.path).toBe('money');
  });

  it('gives every request of a sequence the outcome a cold cache gives it, in any order', () => {
    const requests = fc.record({
      code: fc.constantFrom('4711', '62', '0130', '9999', '35'),
      region: fc.constantFrom('DE', 'JP', 'US', 'VN', 'XX'),
      currency: fc.constantFrom('eur', 'usd', 'xyz', 'jpy'),
      year: fc.constantFrom(1990, 2015, 2019, 2024),
    });
    fc.assert(
      fc.property(fc.array(requests, { minLength: 1, maxLength: 12 }), (drawn) => {
        const warm = coldDatasets();
        for (const { code, region, currency, year } of drawn) {
          const request = eur1000(isic4(code), region, { money_unit: currency, spend_year: year });
          expect(outcome(request, warm)).toEqual(outcome(request, coldDatasets()));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a bounded number of rates: a client sending every code for every year cannot grow them forever', () => {
    // A rates table of two currencies, so that each failure is cheap to make; its lookups counted.
    const small = createTableDatasets({
      fx: {
        dataset: { ...defaultTables.fx.dataset, id: 'test-fx' },
        rates: { eur: { '2019': 0.9 }, usd: { '2019': 1 } },
      },
    }).fx as FxProvider;
    let lookups = 0;
    const fx: FxProvider = {
      info: small.info,
      currencies: small.currencies,
      rate: (currency, year) => small.rate(currency, year),
      years: (currency) => {
        lookups++;
        return small.years(currency);
      },
    };
    const datasets: SpendDatasets = { ...coldDatasets(), fx };
    const request = (currency: string, year: number) =>
      eur1000(isic4('4711'), 'DE', { money_unit: currency, spend_year: year });
    thrown(request('qqq', 2000), datasets);
    // More distinct (currency, year) keys than are kept: three-letter codes, four years each.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const codes = Math.ceil(MAX_KEPT_RATES / 4) + 1;
    let last = '';
    // Stack traces are what these failures cost most under the test runner (its source maps), and not the subject.
    const { stackTraceLimit } = Error;
    Error.stackTraceLimit = 0;
    try {
      for (let index = 0; index < codes; index++) {
        last =
          letters[index % 26]! +
          letters[Math.floor(index / 26) % 26]! +
          letters[Math.floor(index / 676) % 26]!;
        if (last === 'qqq') continue;
        for (const year of [2000, 2001, 2002, 2003]) outcome(request(last, year), datasets); // eur, usd: answered
      }
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    lookups = 0;
    thrown(request(last, 2003), datasets);
    expect(lookups, 'a key just used is still kept').toBe(0);
    thrown(request('qqq', 2000), datasets);
    expect(lookups, 'the first key was let go, so it is looked up again').toBeGreaterThan(0);
  });
});
