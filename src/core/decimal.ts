import BigJs from 'big.js';

/**
 * The one seam to decimal arithmetic. Every calculation in the engine goes through these functions, so results
 * are exact decimals (`0.0024062`, never `0.0024062000000000003`) and the arithmetic library can be swapped here
 * alone.
 */

// A private constructor keeps our precision settings off the global `Big` that a host app may configure.
const Big = BigJs();
/** Decimal places kept by a division; far below anything a JS number can show. */
Big.DP = 40;
/** Round half up. */
Big.RM = 1;

/** An exact decimal value. Opaque: create it with {@link decimal}, read it with {@link toNumber}. */
export type Decimal = BigJs.Big & { readonly __decimal: unique symbol };

const wrap = (value: BigJs.Big) => value as Decimal;

/**
 * Makes a decimal from a finite number (read as its shortest decimal form, so `0.1` is exactly 0.1) or a
 * decimal string.
 *
 * @throws RangeError for NaN, ±Infinity or a string that is not a decimal number.
 */
export function decimal(value: number | string): Decimal {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`not a finite number: ${value}`);
  }
  try {
    return wrap(new Big(value));
  } catch {
    throw new RangeError(`not a decimal number: ${String(value)}`);
  }
}

export const ZERO = decimal(0);
export const ONE = decimal(1);

export const add = (a: Decimal, b: Decimal): Decimal => wrap(a.plus(b));
export const sub = (a: Decimal, b: Decimal): Decimal => wrap(a.minus(b));
export const mul = (a: Decimal, b: Decimal): Decimal => wrap(a.times(b));
/** Division, exact where the quotient terminates within 40 decimal places, else rounded half up there. */
export const div = (a: Decimal, b: Decimal): Decimal => wrap(a.div(b));
export const pow = (a: Decimal, exponent: number): Decimal => wrap(a.pow(exponent));

/** Sum of a list (0 for an empty list). */
export function sum(values: readonly Decimal[]): Decimal {
  let total: BigJs.Big = ZERO;
  for (const value of values) total = total.plus(value);
  return wrap(total);
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export const compare = (a: Decimal, b: Decimal): -1 | 0 | 1 => a.cmp(b) as -1 | 0 | 1;
export const isNegative = (a: Decimal): boolean => a.s === -1 && !a.eq(0);
export const isPositive = (a: Decimal): boolean => a.s === 1 && !a.eq(0);
export const isZero = (a: Decimal): boolean => a.eq(0);

/** The nearest JS number, converted once from the exact decimal string. */
export const toNumber = (a: Decimal): number => Number(a.toString());

/** The decimal rounded half-up to `places` decimal places, as a plain string (`12.3`). */
export const toFixed = (a: Decimal, places: number): string => a.toFixed(places, 1);

/** The exact decimal as a string, without exponent notation. */
export const toPlainString = (a: Decimal): string => a.toFixed();

/**
 * Rounds to `digits` significant digits without dropping integer digits (12345.6 at 4 digits is 12346), the
 * display rounding of the hosted API.
 *
 * @throws RangeError when `digits` is not a whole number of at least 1.
 */
export function roundSignificant(a: Decimal, digits: number): Decimal {
  // Checked here because big.js would throw its own untyped Error, and 0 would silently round to integers.
  if (!Number.isInteger(digits) || digits < 1) {
    throw new RangeError(`significant digits must be a whole number >= 1, got ${digits}`);
  }
  if (a.eq(0)) return a;
  const integerDigits = a.abs().round(0, 0).toFixed().replace(/^0$/, '').length;
  if (integerDigits >= digits) return wrap(a.round(0, 1));
  return wrap(a.prec(digits, 1));
}
