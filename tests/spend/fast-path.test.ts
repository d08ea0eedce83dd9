/**
 * The spend calculator's double-double path (issue 40 item 2) gives the very results of its exact decimal path: the
 * same request through calculateSpend and through the exact parts (spendResult(exactSpendParts(...))) must be deep-equal,
 * over codes, regions, currencies, years, money of every length and margins supplied, partly supplied or not at
 * all. The fast path's pieces are checked against big.js on their own.
 */
import BigJs from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dd } from '../../src/core/double-double';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateSpend, exactSpendParts, spendParts, spendResult } from '../../src/spend/spend';
import { decidedActivity, decidedMoney, decidedShare } from '../../src/spend/fast-spend';
import type { SpendRequest } from '../../src/spend/spend.schema';
import { CODES } from './expected';

const Big = BigJs();
Big.DP = 60;

/** A double's exact binary value (m·2^e = m·5^−e·10^e for e < 0), where `new Big(x)` reads its shortest decimal. */
function exact(x: number): BigJs.Big {
  if (x === 0) return new Big(0);
  let e = 0;
  let m = Math.abs(x);
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return new Big(`${x < 0 ? '-' : ''}${(BigInt(m) * 5n ** BigInt(-e)).toString()}e${e}`);
}

const REGIONS = ['DE', 'BR', 'US', 'NO', 'GB', 'JP', 'VN', 'IN'] as const;
const CURRENCIES = ['eur', 'usd', 'gbp', 'nok', 'brl', 'jpy', 'chf', 'sek', 'cny', 'inr', 'EUR'] as const;

/** Margins as ledgers give them (whole tenths of a percent) and as any double. */
const marginOf = (min: number, max: number) =>
  fc.oneof(
    fc.integer({ min: min * 1000, max: max * 1000 }).map((permille) => permille / 1000),
    fc.double({ min, max, noNaN: true }),
  );
const money = fc.oneof(
  fc.integer({ min: 0, max: 100_000_000_000 }).map((cents) => cents / 100),
  fc.double({ min: 1e-6, max: 1e12, noNaN: true }),
  fc.constantFrom(0, 1, 1 / 3, 123456789.123, 2 ** -10, 1e15),
);

const request = fc.record(
  {
    activity: fc
      .constantFrom(...CODES)
      .map((code) => ({ classification_type: 'isic4', classification_code: code })),
    spend_year: fc.integer({ min: 1990, max: 2030 }),
    spend_region: fc.constantFrom(...REGIONS),
    money,
    money_unit: fc.constantFrom(...CURRENCIES),
    tax_margin: marginOf(-0.3, 0.3),
    trade_margin: marginOf(0, 0.3),
    transport_margin: marginOf(0, 0.1),
    audit_trail: fc.constantFrom('enabled', 'disabled') as fc.Arbitrary<'enabled' | 'disabled'>,
  },
  { requiredKeys: ['activity', 'spend_year', 'spend_region', 'money', 'money_unit'] },
) as fc.Arbitrary<SpendRequest>;

/** The result, or the error's code and message. */
function outcome(compute: () => unknown): unknown {
  try {
    return compute();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('calculateSpend: double-double path = exact path', () => {
  it('gives deep-equal results (or the same error) for any request', () => {
    fc.assert(
      fc.property(request, (spend) => {
        const fast = outcome(() => calculateSpend(spend, defaultDatasets));
        const exact = outcome(() => spendResult(exactSpendParts(spend, defaultDatasets)));
        expect(fast).toStrictEqual(exact);
        // spendParts (the CLI's) takes the double-double path for its estimate too.
        expect(outcome(() => spendResult(spendParts(spend, defaultDatasets)))).toStrictEqual(exact);
      }),
      { numRuns: 1500 },
    );
  });

  it('also over the CEDA factors (purchaser price, US dollars, a basis region)', async () => {
    const { cedaSpendDatasets: cedaDatasets } = await import('../../src/embedded/index');
    fc.assert(
      fc.property(request, (spend) => {
        const fast = outcome(() => calculateSpend(spend, cedaDatasets));
        const exact = outcome(() => spendResult(exactSpendParts(spend, cedaDatasets)));
        expect(fast).toStrictEqual(exact);
      }),
      { numRuns: 300 },
    );
  });

  it('shows a supplied -0 margin as 0, as the exact path reads it', () => {
    const spend: SpendRequest = {
      activity: { classification_type: 'isic4', classification_code: '4711' },
      spend_year: 2022,
      spend_region: 'DE',
      money: 1000,
      money_unit: 'eur',
      tax_margin: -0,
      trade_margin: 0.2,
      transport_margin: 0.05,
    };
    const details = calculateSpend(spend, defaultDatasets).calculation_details;
    expect(Object.is(details.tax_margin, 0)).toBe(true);
    expect(details).toStrictEqual(spendResult(exactSpendParts(spend, defaultDatasets)).calculation_details);
  });
});

describe('decidedShare', () => {
  it('is 1 − the margins exactly, for short decimals and a negative tax (worked by hand)', () => {
    expect(decidedShare(0.1, 0.2, 0.05)).toBe(true);
    expect([dd.hi, exact(dd.hi).plus(exact(dd.lo)).minus('0.65').abs().lt('1e-30')]).toEqual([0.65, true]);
    expect(decidedShare(-0.125, 0.2, 0)).toBe(true);
    expect([dd.hi, exact(dd.hi).plus(exact(dd.lo)).minus('0.925').abs().lt('1e-30')]).toEqual([0.925, true]);
    expect(decidedShare(0, 0, 0)).toBe(true);
    expect([dd.hi, dd.lo]).toEqual([1, 0]);
  });

  it('declines margins summing to 1 or more and decimals longer than 15 places', () => {
    expect(decidedShare(0.5, 0.3, 0.2)).toBe(false);
    expect(decidedShare(0.6, 0.3, 0.2)).toBe(false);
    expect(decidedShare(1 / 3, 0, 0)).toBe(false);
    expect(decidedShare(0, 1e-16, 0)).toBe(false);
    expect(decidedShare(-1e15, 0, 0)).toBe(true); // 1 + 1e15: a whole number below 2^50
    expect(decidedShare(-1e15, 0.5, 0)).toBe(false); // 10 × 1e15 at one place: beyond 2^51
  });

  it('is within 2^-104 of 1 − the margins for any margins it takes', () => {
    fc.assert(
      fc.property(marginOf(-1, 1), marginOf(0, 1), marginOf(0, 1), (tax, trade, transport) => {
        const share = new Big(1).minus(String(tax)).minus(String(trade)).minus(String(transport));
        if (!decidedShare(tax, trade, transport)) return;
        expect(share.gt(0)).toBe(true);
        const error = exact(dd.hi).plus(exact(dd.lo)).minus(share).div(share).abs();
        expect(error.lt(2 ** -104)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('decidedActivity and decidedMoney', () => {
  it('give the double nearest the exact product, or decline', () => {
    const positive = fc.double({ min: 1e-3, max: 1e3, noNaN: true });
    fc.assert(
      fc.property(money, positive, positive, positive, (amount, share, rate, deflator) => {
        const activity = decidedActivity(amount, share, 0, [rate, 0], [deflator, 0]);
        const product = new Big(String(amount)).times(exact(share)).times(exact(rate)).times(exact(deflator));
        if (activity !== undefined) expect(activity).toBe(Number(product.toString()));
        const converted = activity === undefined ? undefined : decidedMoney([rate, 0]);
        if (converted !== undefined)
          expect(converted).toBe(Number(new Big(String(amount)).times(exact(rate)).toString()));
      }),
      { numRuns: 3000 },
    );
  });

  it('decline zero money (the exact path shows it as 0)', () => {
    expect(decidedActivity(0, 1, 0, [1, 0], [1, 0])).toBeUndefined();
  });
});
