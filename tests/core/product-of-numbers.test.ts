import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, mul, productOfNumbers, toNumber } from '../../src/core/decimal';
import { Reference } from './big-reference';

/**
 * productOfNumbers (issue 40 item 2): the double nearest the exact product of two numbers' shortest decimals, in
 * doubles where it can decide, must be the very double that big.js's exact product gives through Number(), for every
 * input: short decimals (the fast path), long ones and exponent forms (the exact path), ties and signs.
 */
const viaBig = (a: number, b: number): number => {
  const product = new Reference(a).times(new Reference(b));
  // A zero product is +0, as toNumber reads any zero decimal; a tiny nonzero one keeps Number()'s signed zero.
  return product.eq(0) ? 0 : Number(product.toString());
};

/** A number with few decimals, as activities and factors have them: `digits` digits at 0–`places` places. */
const shortNumber = (digits: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: 10 ** digits - 1 }), fc.integer({ min: 0, max: places }), fc.boolean())
    .map(([coefficient, scale, negative]) => (negative ? -1 : 1) * (coefficient / 10 ** scale));

const anyNumber = fc.oneof(
  shortNumber(6, 4),
  shortNumber(9, 12),
  shortNumber(15, 20),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e200, max: 1e200 }),
  fc.constantFrom(0, -0, 1, 0.1, 0.2, 1 / 3, 2 / 3, 1e-7, 5e-324, 1.7976931348623157e308, 123.45),
);

describe('productOfNumbers', () => {
  it('gives the double of big.js’s exact product of the two shortest decimals, for any two numbers', () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, (a, b) => {
        expect(Object.is(productOfNumbers(a, b), viaBig(a, b))).toBe(true);
      }),
      { numRuns: 60_000 },
    );
  });

  it('agrees with the exact decimal path on activity × factor pairs (hours and kWh factors)', () => {
    fc.assert(
      fc.property(shortNumber(8, 4), shortNumber(12, 16), (activity, factor) => {
        expect(productOfNumbers(activity, factor)).toBe(toNumber(mul(decimal(activity), decimal(factor))));
      }),
      { numRuns: 60_000 },
    );
  });

  it('is exact where doubles are not: 0.1 × 0.2 is 0.02', () => {
    expect(0.1 * 0.2).toBe(0.020000000000000004);
    expect(productOfNumbers(0.1, 0.2)).toBe(0.02);
    expect(productOfNumbers(-0.1, 0.2)).toBe(-0.02);
    // 170597.26211294835 has 17 digits: the exact path.
    expect(productOfNumbers(170597.26211294835, 0.0469)).toBe(8001.011593097278);
  });

  it('rounds exact ties half to even, with and without places', () => {
    // 321 × 28059810762433 = 2^53 + 1, halfway between 2^53 and 2^53 + 2: to the even 2^53.
    expect(productOfNumbers(321, 28_059_810_762_433)).toBe(2 ** 53);
    // 160.5 × 28059810762433 = 2^52 + 0.5, halfway between 2^52 and 2^52 + 1: to the even 2^52.
    expect(productOfNumbers(160.5, 28_059_810_762_433)).toBe(2 ** 52);
    expect(productOfNumbers(-160.5, 28_059_810_762_433)).toBe(-(2 ** 52));
    // 1605 × 28059810762433 / 10^3 = 2^52/100 + 0.0005: not a tie, the nearest double.
    expect(productOfNumbers(1.605, 28_059_810_762_433)).toBe(viaBig(1.605, 28_059_810_762_433));
  });

  it('keeps zero as 0 and rejects what is not a finite number', () => {
    expect(Object.is(productOfNumbers(0, 5), 0)).toBe(true);
    expect(Object.is(productOfNumbers(-0, 5), 0)).toBe(true);
    expect(() => productOfNumbers(Number.NaN, 1)).toThrow(RangeError);
    expect(() => productOfNumbers(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
