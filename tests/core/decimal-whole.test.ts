import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  type Decimal,
  decimal,
  div,
  isNegative,
  isPositive,
  isZero,
  mul,
  ONE,
  roundSignificant,
  sub,
  sum,
  toNumber,
  toPlainString,
} from '../../src/core/decimal';
import { asBig, decimalText, parts, Reference, referenceQuotient } from './big-reference';

/**
 * The whole-coefficient fast paths of src/core/decimal.ts (issue 24 item 2): decimals the engine computes carry their
 * coefficient as one BigInt, so products, quotients, sums, roundings and number conversions are whole-number
 * operations instead of digit-array ones. Each must give exactly big.js's value at the engine's settings (40 places,
 * half up), and the number conversion the very double of `Number(decimal string)`, so a wrong fast path fails here.
 */

/** The same value as a whole-coefficient decimal (the form the engine's own results take). */
const whole = (text: string): Decimal => mul(decimal(text), ONE);
const isWhole = (value: Decimal) => (value as unknown as { n?: bigint }).n !== undefined;

describe('whole-coefficient decimals', () => {
  it('are made for numbers and products, and read as big.js values (digits, exponent, sign, methods)', () => {
    const value = whole('12.5e3');
    expect(isWhole(value)).toBe(true);
    expect(isWhole(decimal(0.25))).toBe(true);
    expect(parts(value)).toEqual(parts(new Reference('12500')));
    expect(asBig(value).toFixed(2)).toBe('12500.00');
    expect(value instanceof Object.getPrototypeOf(decimal('1')).constructor).toBe(true);
    expect(toPlainString(asBig(value).plus(asBig(decimal('0.5'))) as unknown as Decimal)).toBe('12500.5');
    // Trailing zeros of the coefficient are not digits of the value.
    expect(parts(mul(decimal(2.5), decimal(4)))).toEqual(parts(new Reference(10)));
  });

  it('read numbers as String(number) does: short decimals of any scale', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
          fc
            .tuple(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.integer({ min: 0, max: 22 }))
            .map(([m, places]) => m / 10 ** places),
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        ),
        (value) => {
          expect(parts(decimal(value))).toEqual(parts(new Reference(value)));
        },
      ),
      { numRuns: 30_000 },
    );
  });

  it('multiply to big.js’s product', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(7), decimalText(20), decimalText(60)),
        fc.oneof(decimalText(8), decimalText(45)),
        (a, b) => {
          const product = mul(whole(a), whole(b));
          expect(isWhole(product)).toBe(true);
          expect(parts(product)).toEqual(parts(new Reference(a).times(b)));
          // A big.js operand on either side gives the same.
          expect(parts(mul(decimal(a), whole(b)))).toEqual(parts(product));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('divide to big.js’s quotient at the engine’s places (half up, 25 digits of a tiny quotient)', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(1), decimalText(8), decimalText(60)),
        fc.oneof(
          fc.constantFrom('60', '3600', '3600000', '35040', '3', '7', '0.5', '1e-9', '2', '8', '80'),
          decimalText(9),
          decimalText(40),
        ),
        (dividend, divisor) => {
          const quotient = div(whole(dividend), whole(divisor));
          expect(isWhole(quotient)).toBe(true);
          expect(parts(quotient)).toEqual(parts(referenceQuotient(dividend, divisor)));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('round halfway quotients up and carry into a new leading digit', () => {
    expect(toPlainString(div(whole('1'), whole('60')))).toBe(`0.01${'6'.repeat(37)}7`);
    // Exactly halfway at the 41st place: up, as big.js's ROUND_HALF_UP (and away from zero for negatives).
    const halfway = `1.${'0'.repeat(39)}1`;
    expect(toPlainString(div(whole(halfway), whole('2')))).toBe(`0.5${'0'.repeat(38)}1`);
    expect(toPlainString(div(whole(`-${halfway}`), whole('2')))).toBe(`-0.5${'0'.repeat(38)}1`);
    expect(parts(div(whole(halfway), whole('2')))).toEqual(parts(referenceQuotient(halfway, '2')));
    expect(toPlainString(div(whole('2'), whole('3')))).toBe(`0.${'6'.repeat(39)}7`);
    expect(toPlainString(div(whole('-2'), whole('3')))).toBe(`-0.${'6'.repeat(39)}7`);
    expect(toPlainString(div(whole('1.5'), whole('1e40')))).toBe(toPlainString(decimal('1.5e-40')));
    expect(toPlainString(div(whole(`9.${'9'.repeat(45)}`), whole('1')))).toBe('10');
    expect(asBig(div(whole('1e-42'), whole('3'))).toExponential()).toBe(`3.${'3'.repeat(25)}e-43`);
    expect(toPlainString(div(decimal(0), decimal(60)))).toBe('0');
    expect(() => div(whole('1'), decimal(0))).toThrow(/Division by zero/);
  });

  it('add and subtract to big.js’s sum and difference, zero results included', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(5), decimalText(30)),
        fc.oneof(decimalText(5), decimalText(30)),
        (a, b) => {
          expect(parts(add(whole(a), whole(b)))).toEqual(parts(new Reference(a).plus(b)));
          expect(parts(sub(whole(a), whole(b)))).toEqual(parts(new Reference(a).minus(b)));
          expect(parts(sub(whole(a), whole(a)))).toEqual(parts(new Reference(a).minus(a)));
          expect(parts(sum([whole(a), decimal(b), whole(a)]))).toEqual(
            parts(new Reference(a).plus(b).plus(a)),
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('know their sign and zero without their digits', () => {
    expect(isZero(sub(decimal(0.1), decimal(0.1)))).toBe(true);
    expect(isPositive(decimal(0.1))).toBe(true);
    expect(isNegative(decimal(-0.1))).toBe(true);
    expect(isNegative(decimal(-0))).toBe(false);
    expect(isPositive(decimal(0))).toBe(false);
  });

  it('round to significant digits as big.js’s round/prec does', () => {
    const viaBigJs = (text: string, digits: number) => {
      const a = new Reference(text);
      const integerDigits = a.abs().round(0, 0).toFixed().replace(/^0$/, '').length;
      return integerDigits >= digits ? a.round(0, 1) : a.prec(digits, 1);
    };
    fc.assert(
      fc.property(
        fc.oneof(decimalText(5), decimalText(40), decimalText(90)),
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(34)),
        (text, digits) => {
          expect(parts(roundSignificant(whole(text), digits))).toEqual(parts(viaBigJs(text, digits)));
        },
      ),
      { numRuns: 20_000 },
    );
    expect(toPlainString(roundSignificant(whole('9.99996'), 5))).toBe('10');
    expect(toPlainString(roundSignificant(whole('-99.995'), 4))).toBe('-100');
    expect(toPlainString(roundSignificant(whole('12345.6'), 4))).toBe('12346');
  });

  it('convert to the double Number() reads from their decimal string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimalText(15, -330, 310),
          decimalText(17, -330, 310),
          decimalText(60, -400, 300),
          decimalText(120, -200, 200),
        ),
        (text) => {
          const value = whole(text);
          expect(Object.is(toNumber(value), Number(value.toString()))).toBe(true);
        },
      ),
      { numRuns: 50_000 },
    );
  });

  it('convert products of short decimals, the engine’s outputs, exactly', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom(1, 60, 3600, 3_600_000),
        decimalText(14, -20, 0),
        (duration, count, per, factor) => {
          const hours = div(decimal(duration), decimal(per));
          const co2e = mul(mul(decimal(count), hours), decimal(factor));
          expect(Object.is(toNumber(co2e), Number(co2e.toString()))).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('round halfway cases to even and give ±Infinity and 0 past the double range', () => {
    // 2^53 + 1 is halfway between two doubles, at every scale.
    expect(toNumber(whole('9007199254740993'))).toBe(9_007_199_254_740_992);
    expect(toNumber(whole('90071992547409930e-1'))).toBe(9_007_199_254_740_992);
    expect(toNumber(whole('9007199254740995e-40'))).toBe(Number('9007199254740995e-40'));
    expect(toNumber(whole('9007199254740993e-330'))).toBe(Number('9007199254740993e-330'));
    expect(toNumber(whole(`1${'0'.repeat(52)}1e-30`))).toBe(Number(`1${'0'.repeat(52)}1e-30`));
    expect(toNumber(whole('1e400'))).toBe(Infinity);
    expect(toNumber(whole('-2e309'))).toBe(-Infinity);
    expect(toNumber(whole('1e-400'))).toBe(0);
    expect(toNumber(whole('4.9e-324'))).toBe(5e-324);
    expect(toNumber(whole('2.2250738585072011e-308'))).toBe(2.2250738585072011e-308);
  });
});
