import BigJs from 'big.js';
import fc from 'fast-check';

/**
 * big.js itself at the engine's settings (40 places, half up): the reference that src/core/decimal.ts's fast paths
 * must match digit for digit (tests/core/decimal-fast-paths.test.ts, tests/core/decimal-whole.test.ts).
 */
export const Reference = BigJs();
Reference.DP = 40;
Reference.RM = 1;

/** A decimal string `±digits e exponent`: up to `maxDigits` significant digits, from 1e-70 to 1e60 by default. */
export const decimalText = (maxDigits: number, minExponent = -70, maxExponent = 60) =>
  fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${maxDigits - 1}}$`)),
      fc.integer({ min: minExponent, max: maxExponent }),
    )
    .map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`);

/**
 * The big.js value underneath an engine decimal (the engine's `Decimal` type is opaque: it names no big.js type, so
 * the package's declarations need none; these tests read the value as big.js sees it).
 */
export const asBig = (value: unknown) => value as BigJs.Big;

/** A big.js value's (or an engine decimal's) sign, exponent and digits, for exact comparison. */
export const parts = (value: unknown) => {
  const big = asBig(value);
  return { s: big.s, e: big.e, c: [...big.c] };
};

/** big.js's own quotient at the engine's places: 40, or as many as keep 25 significant digits of a smaller one. */
export function referenceQuotient(dividend: string, divisor: string): BigJs.Big {
  const [a, b] = [new Reference(dividend), new Reference(divisor)];
  Reference.DP = Math.max(40, 25 - (a.e - b.e) + 1);
  try {
    return a.div(b);
  } finally {
    Reference.DP = 40;
  }
}
