import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Decimal,
  decimal,
  div,
  mul,
  roundSignificant,
  toNumber,
  toPlainString,
} from '../../src/core/decimal';
import { asBig, decimalText, parts, Reference, referenceQuotient } from './big-reference';

/**
 * The fast paths of src/core/decimal.ts (issue 13 item 4) against the big.js code they stand in for: reading a
 * number, multiplying and the short division must give the very digits, exponent and sign of big.js at the engine's
 * settings (40 places, half up), and the number conversion the very double of `Number(decimal string)`, for every
 * input, not just typical ones.
 */

/** The divisors the engine divides by, and arbitrary ones of up to 12 digits (past the 9 of the short path). */
const divisorText = fc.oneof(
  fc.constantFrom('60', '3600', '3600000', '35040', '1', '3', '7', '0.5', '1e-9', '999999999', '1000000000'),
  decimalText(9),
  decimalText(12),
);

describe('reading numbers', () => {
  it('gives big.js’s value of String(number) for any double, including -0 and exponent forms', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100),
          fc.maxSafeInteger(),
          fc.constantFrom(0, -0, 1e-7, 1.5e21, 123.45, 0.1, 5e-324, Number.MAX_VALUE, -1e-300),
        ),
        (value) => {
          expect(parts(decimal(value))).toEqual(parts(new Reference(value)));
        },
      ),
      { numRuns: 30_000 },
    );
  });
});

describe('multiplication', () => {
  it('gives the digits, exponent and sign of big.js, for short (one double) and long (limbs) products', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(7), decimalText(20), decimalText(60)),
        fc.oneof(decimalText(8), decimalText(45)),
        (a, b) => {
          expect(parts(mul(decimal(a), decimal(b)))).toEqual(parts(new Reference(a).times(b)));
        },
      ),
      { numRuns: 30_000 },
    );
  });

  it('carries across limbs and drops the trailing zeros of a product', () => {
    const product = (a: string, b: string) => toPlainString(mul(decimal(a), decimal(b)));
    expect(product('9'.repeat(30), '9'.repeat(30))).toBe(`${'9'.repeat(29)}8${'0'.repeat(29)}1`);
    expect(product('1.25', '0.8')).toBe('1');
    expect(product('12500000000000000000', '0.000000000000000008')).toBe('100');
    expect(product('-0.5', '0.5')).toBe('-0.25');
    expect(toPlainString(mul(decimal(0), decimal('-3')))).toBe('0');
  });
});

describe('short division (divisors of at most 9 significant digits)', () => {
  it('gives the digits, exponent and sign of big.js long division, for any dividend and divisor', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText(60), decimalText(8)), divisorText, (dividend, divisor) => {
        expect(parts(div(decimal(dividend), decimal(divisor)))).toEqual(
          parts(referenceQuotient(dividend, divisor)),
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it('converts durations to hours exactly as before: terminating quotients exact, others at 40 places', () => {
    const hours = (value: string, per: number) => toPlainString(div(decimal(value), decimal(per)));
    expect(hours('90', 60)).toBe('1.5');
    expect(hours('1', 60)).toBe(`0.01${'6'.repeat(37)}7`);
    expect(hours('7200', 3_600)).toBe('2');
    expect(hours('1', 3_600_000)).toBe(`0.000000${'2'}${'7'.repeat(32)}8`);
    // Rounding carries through a run of nines into a new leading digit.
    expect(hours(`0.${'9'.repeat(45)}`, 1)).toBe('1');
    expect(hours(`9.${'9'.repeat(45)}`, 1)).toBe('10');
  });

  it('leaves zero dividends and zero divisors to big.js; a tiny quotient keeps 25 digits, never rounds to zero', () => {
    expect(toPlainString(div(decimal(0), decimal(60)))).toBe('0');
    expect(() => div(decimal(1), decimal(0))).toThrow(/Division by zero/);
    expect(asBig(div(decimal('1e-42'), decimal(3))).toExponential()).toBe(`3.${'3'.repeat(25)}e-43`);
    expect(asBig(div(decimal('1.5e-40'), decimal(3))).toExponential()).toBe('5e-41');
    // The guard digit decides the last kept place.
    expect(asBig(div(decimal('2e-20'), decimal(3))).toExponential()).toBe(`6.${'6'.repeat(24)}7e-21`);
  });
});

describe('long division (divisors of more than 9 significant digits, in whole numbers)', () => {
  it('gives the digits, exponent and sign of big.js long division, for any dividend and divisor', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(1), decimalText(8), decimalText(60), decimalText(120)),
        fc.oneof(decimalText(12), decimalText(40), decimalText(110)),
        (dividend, divisor) => {
          expect(parts(div(decimal(dividend), decimal(divisor)))).toEqual(
            parts(referenceQuotient(dividend, divisor)),
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('divides 1 by compounded price levels as big.js does, halfway cases and carries included', () => {
    // 1 / a 100-digit product of (1 + rate/100) factors: the spend deflator.
    let level = new Reference(1);
    for (const rate of [
      '2.3',
      '1.7',
      '-0.4',
      '3.1',
      '8.9',
      '5.4',
      '2.2',
      '1.1',
      '0.9',
      '6.5',
      '4.4',
      '3.3',
    ]) {
      level = level.times(new Reference(1).plus(new Reference(rate).div(100)));
    }
    const text = level.toFixed();
    expect(parts(div(decimal(1), decimal(text)))).toEqual(parts(new Reference(1).div(level)));
    // Exactly halfway at the 41st place rounds up (a quotient this large keeps 40 places).
    expect(toPlainString(div(decimal('1.5'), decimal('1.00000000000e40')))).toBe(
      toPlainString(decimal('1.5e-40')),
    );
    expect(toPlainString(div(decimal('3'), decimal('2.00000000000')))).toBe('1.5');
    expect(toPlainString(div(decimal('1'), decimal('6.0000000000')))).toBe(`0.1${'6'.repeat(38)}7`);
    expect(toPlainString(div(decimal('1'), decimal('3.0000000000')))).toBe(`0.${'3'.repeat(40)}`);
    expect(toPlainString(div(decimal('2'), decimal('3.0000000000')))).toBe(`0.${'6'.repeat(39)}7`);
    expect(toPlainString(div(decimal('-2'), decimal('3.0000000000')))).toBe(`-0.${'6'.repeat(39)}7`);
    // A tiny quotient keeps 25 significant digits instead of rounding to 0.
    expect(asBig(div(decimal('1e-60'), decimal('3.0000000000'))).toExponential()).toBe(
      `3.${'3'.repeat(25)}e-61`,
    );
  });
});

describe('roundSignificant on the digits', () => {
  // The big.js formulation it replaces, kept here as the reference.
  const viaBigJs = (text: string, digits: number) => {
    const a = new Reference(text);
    if (a.eq(0)) return a;
    const integerDigits = a.abs().round(0, 0).toFixed().replace(/^0$/, '').length;
    return integerDigits >= digits ? a.round(0, 1) : a.prec(digits, 1);
  };

  it('gives the digits, exponent and sign of big.js’s round/prec, for any value and precision', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText(5), decimalText(40), decimalText(90)),
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(34)),
        (text, digits) => {
          expect(parts(roundSignificant(decimal(text), digits))).toEqual(parts(viaBigJs(text, digits)));
        },
      ),
      { numRuns: 30_000 },
    );
  });

  it('carries through nines into a new leading digit and keeps integer digits', () => {
    const round = (text: string, digits: number) => toPlainString(roundSignificant(decimal(text), digits));
    expect(round('9.99996', 5)).toBe('10');
    expect(round('-99.995', 4)).toBe('-100');
    expect(round('12345.6', 4)).toBe('12346');
    expect(round('0.000123449', 4)).toBe('0.0001234');
    expect(round('0.000123450', 4)).toBe('0.0001235');
    expect(round('0', 3)).toBe('0');
  });
});

describe('toNumber without a string round trip', () => {
  const viaString = (value: Decimal) => Number(value.toString());

  it('is the double Number() reads from the decimal string, for short and long coefficients alike', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText(15), decimalText(17), decimalText(60)), (text) => {
        const value = decimal(text);
        expect(Object.is(toNumber(value), viaString(value))).toBe(true);
      }),
      { numRuns: 50_000 },
    );
  });

  it('is exact for products, the engine’s usual outputs', () => {
    fc.assert(
      fc.property(decimalText(12), decimalText(12), (a, b) => {
        const product = mul(decimal(a), decimal(b));
        expect(Object.is(toNumber(product), viaString(product))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('keeps the zeros inside and at the start of each 15-digit group of a long coefficient', () => {
    for (const text of [
      `1${'0'.repeat(14)}${'0'.repeat(14)}1`,
      `-9${'0'.repeat(29)}7e-55`,
      `123456789012345${'000000000000001'}${'0001'}`,
      `1${'0'.repeat(44)}5e300`,
    ]) {
      const value = decimal(text);
      expect(Object.is(toNumber(value), Number(value.toString()))).toBe(true);
    }
  });

  it('rounds halfway cases to even, as Number() does, on both paths', () => {
    // 2^53 + 1 has 16 digits (string path); 9007199254740993e-16 too. Both halfway: round to the even neighbour.
    expect(toNumber(decimal('9007199254740993'))).toBe(9_007_199_254_740_992);
    expect(toNumber(decimal('0.9007199254740993'))).toBe(0.9007199254740993);
    expect(toNumber(decimal('123456789012345'))).toBe(123_456_789_012_345);
    expect(toNumber(decimal('1.23456789012345e-22'))).toBe(1.23456789012345e-22);
    expect(toNumber(decimal('1.5e300'))).toBe(1.5e300);
  });

  it('reads zero as +0 and keeps the sign of negatives', () => {
    expect(Object.is(toNumber(decimal(-0)), 0)).toBe(true);
    expect(Object.is(toNumber(mul(decimal(-1), decimal(0))), 0)).toBe(true);
    expect(toNumber(decimal('-0.25'))).toBe(-0.25);
    expect(toNumber(decimal('-1234567890123456789'))).toBe(-1_234_567_890_123_456_800);
  });

  it('gives ±Infinity and 0 past the double range, for the caller to reject', () => {
    expect(toNumber(decimal('1e400'))).toBe(Infinity);
    expect(toNumber(decimal('-2e309'))).toBe(-Infinity);
    expect(toNumber(decimal('1e-400'))).toBe(0);
  });
});
