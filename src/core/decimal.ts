import BigJs from 'big.js';
import {
  approximateProduct,
  dd,
  EXACT_POWERS_OF_TEN,
  LITTLE_ENDIAN,
  shortest,
  shortestPlaces,
  twoProduct,
} from './double-double';
import { numberText } from './number-text';

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

/** Coefficients of at most this many digits are below 2^53, so exact as doubles. */
const EXACT_COEFFICIENT_DIGITS = 15;

declare const decimalBrand: unique symbol;

/**
 * An exact decimal value. Opaque: create it with {@link decimal}, read it with {@link toNumber}. Its declared type
 * names no big.js type, so the package's declaration files need no big.js types (a big.js value underneath).
 */
export interface Decimal {
  readonly [decimalBrand]: true;
}

const wrap = (value: BigJs.Big) => value as unknown as Decimal;
/** The big.js value underneath a decimal. */
const big = (value: Decimal) => value as unknown as BigJs.Big;

/** A big.js value from its parts, built as big.js builds its own (same fields, same order). */
function fromParts(sign: number, exponent: number, digits: number[]): BigJs.Big {
  const value = Object.create(Big.prototype as object) as {
    s: number;
    e: number;
    c: number[];
    constructor: unknown;
  };
  value.s = sign;
  value.e = exponent;
  value.c = digits;
  value.constructor = Big;
  return value as unknown as BigJs.Big;
}

/**
 * Decimals the engine computes itself carry their coefficient as one whole number (a BigInt, `n`, with `d` digits,
 * possibly with trailing zeros) instead of big.js's array of digits: a product is then one BigInt multiplication,
 * a quotient one BigInt division and a conversion to a double a few BigInt operations, without building the digit
 * array of each intermediate (a 40-place hour figure times a factor has about 55 digits). They are big.js values all
 * the same (`instanceof`, the same `s` and `e`, every big.js method): their digit array `c` is made from `n` the first
 * time something reads it. The value is what matters; the operations below give the same values as big.js.
 */
interface Whole {
  s: number;
  e: number;
  /** The coefficient: the value is ±n × 10^(e − d + 1). */
  n: bigint;
  /** Decimal digits of n. */
  d: number;
  /** The digit array, once made. */
  k: number[] | undefined;
}

/** `10^power` as a BigInt, built on first use. */
const BIG_POWERS_OF_TEN: bigint[] = [];
const bigPowerOfTen = (power: number): bigint => {
  let value = BIG_POWERS_OF_TEN[power];
  if (value === undefined) {
    value = BigInt(`1${'0'.repeat(power)}`);
    BIG_POWERS_OF_TEN[power] = value;
  }
  return value;
};

/** The digit array of a whole coefficient, trailing zeros dropped (as big.js keeps it). */
function digitsOfWhole(n: bigint): number[] {
  if (n === 0n) return [0];
  const text = n.toString();
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  const digits = new Array<number>(end);
  for (let index = 0; index < end; index++) digits[index] = text.charCodeAt(index) - 48;
  return digits;
}

// Decimals with a whole coefficient: big.js values whose `c` is made on first read.
const WholeDecimal = function (this: Whole, s: number, e: number, n: bigint, d: number) {
  this.s = s;
  this.e = e;
  this.n = n;
  this.d = d;
  this.k = undefined;
} as unknown as new (s: number, e: number, n: bigint, d: number) => Whole;
WholeDecimal.prototype = <object>Object.create(Big.prototype as object, {
  constructor: { value: Big, writable: true, configurable: true },
  c: {
    get(this: Whole): number[] {
      let digits = this.k;
      if (digits === undefined) {
        digits = digitsOfWhole(this.n);
        this.k = digits;
      }
      return digits;
    },
    // big.js writes `c` only on values it has just made, never on its operands; should anything write it, the
    // digits written are the value from then on (the coefficient is dropped, so no operation reads a stale one).
    set(this: Whole, digits: number[]) {
      this.k = digits;
      (this as { n: bigint | undefined }).n = undefined;
    },
    configurable: true,
  },
});

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** Decimal digits of a positive safe integer. */
function safeDigitCount(value: number): number {
  let count = 1;
  while (count < 16 && value >= (EXACT_POWERS_OF_TEN[count] as number)) count++;
  return count;
}

/** Decimal digits of `n > 0`. */
function digitCount(n: bigint): number {
  if (n <= MAX_SAFE_BIG) return safeDigitCount(Number(n));
  const approximate = Number(n);
  if (approximate === Infinity) return n.toString().length;
  let count = Math.floor(Math.log10(approximate)) + 1;
  // log10 of the rounded double may be one off next to a power of ten.
  if (n >= bigPowerOfTen(count)) count++;
  else if (n < bigPowerOfTen(count - 1)) count--;
  return count;
}

/** A decimal ±n × 10^scale (`n > 0`, d its digits). */
const whole = (sign: number, n: bigint, d: number, scale: number): Decimal =>
  new WholeDecimal(sign, d - 1 + scale, n, d) as unknown as Decimal;

/** The whole coefficient of a nonzero decimal, from its digits when it has none yet. */
function coefficientOf(value: BigJs.Big): bigint {
  const n = (value as unknown as Partial<Whole>).n;
  if (n !== undefined) return n;
  const digits = value.c;
  if (digits.length <= EXACT_COEFFICIENT_DIGITS) {
    let number = 0;
    for (const digit of digits) number = number * 10 + digit;
    return BigInt(number);
  }
  return BigInt(digits.join(''));
}

/** Digits of the coefficient `coefficientOf` gives. */
const coefficientDigits = (value: BigJs.Big): number => {
  const d = (value as unknown as Partial<Whole>).d;
  return d !== undefined && (value as unknown as Partial<Whole>).n !== undefined ? d : value.c.length;
};

/** The power of ten of the coefficient's last digit: the value is ±coefficient × 10^scale. */
const scaleOf = (value: BigJs.Big): number => value.e - coefficientDigits(value) + 1;

/** Whether a decimal is nonzero, without making its digits. */
function nonzero(value: BigJs.Big): boolean {
  const n = (value as unknown as Partial<Whole>).n;
  return n !== undefined ? n !== 0n : value.c[0] !== 0;
}

/**
 * The decimal of a finite nonzero number as `String(number)` reads it, without the string: the fewest decimal places
 * k ≤ 22 at which a whole `m < 2^50` gives the number back (m / 10^k, one correctly rounded division of exact doubles,
 * is the number). That is the shortest decimal of the number, the one `String` prints: a decimal with fewer digits
 * that gives the number back would have fewer places, and at k places only one whole number below 2^52 lies within
 * the number's rounding interval. Undefined when there is none (more digits, or very small or large numbers).
 */
function readNumber(value: number): Decimal | undefined {
  const places = shortestPlaces(value < 0 ? -value : value);
  if (places < 0) return undefined;
  const coefficient = shortest.coefficient;
  return whole(value < 0 ? -1 : 1, BigInt(coefficient), safeDigitCount(coefficient), -places);
}

/**
 * The decimal of a finite number as big.js reads `String(number)` (its shortest round-trip form, so `0.1` is
 * exactly 0.1), without big.js's regular expressions: the digits of `String(number)` without leading and trailing
 * zeros, and the exponent of the first. Zero keeps its sign, as big.js keeps `-0`'s.
 */
function fromNumber(value: number): BigJs.Big {
  const text = numberText(value);
  const sign = value < 0 || Object.is(value, -0) ? -1 : 1;
  const digits: number[] = [];
  let pointAt = -1; // mantissa digits before the decimal point, once it is seen
  let mantissaDigits = 0;
  let leadingZeros = 0;
  let exponent = 0;
  for (let index = text.charCodeAt(0) === 45 /* - */ ? 1 : 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 46 /* . */) pointAt = mantissaDigits;
    else if (code === 101 /* e */) {
      exponent = Number(text.slice(index + 1));
      break;
    } else {
      mantissaDigits++;
      if (code === 48 /* 0 */ && digits.length === 0) leadingZeros++;
      else digits.push(code - 48);
    }
  }
  if (digits.length === 0) return fromParts(sign, 0, [0]);
  while (digits[digits.length - 1] === 0) digits.pop();
  return fromParts(sign, (pointAt === -1 ? mantissaDigits : pointAt) - leadingZeros - 1 + exponent, digits);
}

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
  if (typeof value === 'number') return readNumber(value) ?? wrap(fromNumber(value));
  try {
    return wrap(new Big(value));
  } catch {
    throw new RangeError(`not a decimal number: ${String(value)}`);
  }
}

export const ZERO = decimal(0);
export const ONE = decimal(1);

/**
 * `a / b` rounded half up at `places` places, with the digits big.js's long division gives at the engine's settings
 * (the exact quotient rounded half up there), in one whole-number division of the coefficients scaled to that place,
 * rounded by comparing twice the remainder with the divisor. Undefined for what it leaves to big.js: a zero dividend
 * or divisor (big.js's signed zero, its error) and a quotient that rounds to zero.
 */
function wholeQuotient(a: BigJs.Big, b: BigJs.Big, places: number): Decimal | undefined {
  if (!nonzero(a) || !nonzero(b)) return undefined;
  const shift = scaleOf(a) - scaleOf(b) + places;
  let numerator = coefficientOf(a);
  let denominator = coefficientOf(b);
  if (shift >= 0) numerator *= bigPowerOfTen(shift);
  else denominator *= bigPowerOfTen(-shift);
  let quotient = numerator / denominator;
  const remainder = numerator - quotient * denominator;
  if (remainder + remainder >= denominator) quotient += 1n;
  if (quotient === 0n) return undefined;
  return whole(a.s === b.s ? 1 : -1, quotient, digitCount(quotient), -places);
}

export const add = (a: Decimal, b: Decimal): Decimal =>
  wholeSum(big(a), big(b), 1) ?? wrap(big(a).plus(big(b)));
export const sub = (a: Decimal, b: Decimal): Decimal =>
  wholeSum(big(a), big(b), -1) ?? wrap(big(a).minus(big(b)));
/** `a × b`, exact (a product has one exact form: big.js's digits). */
export const mul = (a: Decimal, b: Decimal): Decimal =>
  wholeProduct(big(a), big(b)) ?? wrap(big(a).times(big(b)));

/** `a × b` in one BigInt multiplication; undefined for a zero factor (big.js makes its signed zero). */
function wholeProduct(a: BigJs.Big, b: BigJs.Big): Decimal | undefined {
  if (!nonzero(a) || !nonzero(b)) return undefined;
  const x = coefficientOf(a);
  const y = coefficientOf(b);
  const n = x * y;
  // The product of a p-digit and a q-digit whole number has p + q − 1 or p + q digits.
  const most = coefficientDigits(a) + coefficientDigits(b);
  const d = n >= bigPowerOfTen(most - 1) ? most : most - 1;
  return whole(a.s === b.s ? 1 : -1, n, d, scaleOf(a) + scaleOf(b));
}

/**
 * `a ± b` (`sign` 1 or −1) on the whole coefficients, scaled to the smaller scale; the other operand itself (or its
 * negation) when one is zero. Undefined where big.js decides the sign of a zero result (both zero, or a difference
 * of equals) and for scales far apart.
 */
function wholeSum(a: BigJs.Big, b: BigJs.Big, sign: number): Decimal | undefined {
  if (!nonzero(b)) return nonzero(a) ? wrap(a) : undefined;
  if (!nonzero(a)) {
    if (sign > 0) return wrap(b);
    const n = (b as unknown as Partial<Whole>).n;
    return n === undefined ? undefined : whole(-b.s, n, (b as unknown as Whole).d, scaleOf(b));
  }
  const scaleA = scaleOf(a);
  const scaleB = scaleOf(b);
  const scale = scaleA < scaleB ? scaleA : scaleB;
  if (scaleA - scale > 400 || scaleB - scale > 400) return undefined;
  let x = coefficientOf(a);
  let y = coefficientOf(b);
  if (scaleA > scale) x *= bigPowerOfTen(scaleA - scale);
  if (scaleB > scale) y *= bigPowerOfTen(scaleB - scale);
  if (a.s < 0) x = -x;
  if (b.s * sign < 0) y = -y;
  const total = x + y;
  if (total === 0n) return undefined;
  const magnitude = total < 0n ? -total : total;
  return whole(total < 0n ? -1 : 1, magnitude, digitCount(magnitude), scale);
}
/** Significant digits a division keeps at least, however small its quotient. */
const QUOTIENT_DIGITS = 25;
/** The most decimal places a division keeps (quotients of doubles and table figures need far fewer). */
const MAX_PLACES = 2_000;

/**
 * Decimal places of a quotient: `Big.DP` (40), or more for a quotient so small that 40 places would keep fewer than
 * 25 of its digits (or none: a tiny nonzero result must never become 0).
 */
function quotientPlaces(a: BigJs.Big, b: BigJs.Big): number {
  // The quotient's leading digit is at 10^(a.e - b.e) or one below.
  const places = QUOTIENT_DIGITS - (a.e - b.e) + 1;
  return places <= Big.DP ? Big.DP : Math.min(places, MAX_PLACES);
}

/**
 * Division, exact where the quotient terminates within 40 decimal places (more for a quotient below 1e-15, so it
 * keeps 25 significant digits), else rounded half up there.
 */
export function div(dividend: Decimal, divisor: Decimal): Decimal {
  const a = big(dividend);
  const b = big(divisor);
  const places = quotientPlaces(a, b);
  const quotient = wholeQuotient(a, b, places);
  if (quotient !== undefined) return quotient;
  if (places === Big.DP) return wrap(a.div(b));
  Big.DP = places;
  try {
    return wrap(a.div(b));
  } finally {
    Big.DP = 40;
  }
}
export const pow = (a: Decimal, exponent: number): Decimal => wrap(big(a).pow(exponent));

/** Sum of a list (0 for an empty list). */
export function sum(values: readonly Decimal[]): Decimal {
  let total: Decimal = ZERO;
  for (const value of values) total = add(total, value);
  return total;
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export const compare = (a: Decimal, b: Decimal): -1 | 0 | 1 => big(a).cmp(big(b));
export const isNegative = (a: Decimal): boolean => big(a).s === -1 && nonzero(big(a));
export const isPositive = (a: Decimal): boolean => big(a).s === 1 && nonzero(big(a));
export const isZero = (a: Decimal): boolean => !nonzero(big(a));

/**
 * The nearest JS number (round half to even, as `Number(string)` reads a decimal), from the whole coefficient
 * (`numberOf`); where that leaves it (a subnormal or out-of-range result), read from the exponent form of the digits.
 *
 * @example
 * ```ts
 * toNumber(decimal('0.0024062')); // 0.0024062
 * ```
 */
export function toNumber(value: Decimal): number {
  const a = big(value);
  // Zero is +0 whatever big.js's sign says, as Number(a.toString()) reads it.
  if (!nonzero(a)) return 0;
  const number = numberOf(a.s, coefficientOf(a), scaleOf(a));
  if (number !== undefined) return number;
  // The exponent form, its digits gathered 15 at a time into whole numbers (half the cost of joining them one by
  // one); Number() reads it correctly rounded.
  const digits = a.c;
  let text = a.s < 0 ? '-' : '';
  let chunk = 0;
  let chunkDigits = 0;
  for (const digit of digits) {
    chunk = chunk * 10 + digit;
    if (++chunkDigits === EXACT_COEFFICIENT_DIGITS) {
      text += numberText(chunk).padStart(EXACT_COEFFICIENT_DIGITS, '0');
      chunk = 0;
      chunkDigits = 0;
    }
  }
  if (chunkDigits > 0) text += numberText(chunk).padStart(chunkDigits, '0');
  return Number(`${text}e${a.e - digits.length + 1}`);
}

/** 2^k as exact doubles for −1074 ≤ k ≤ 1023, at index k + 1074: halvings and doublings of 1, each exact. */
const POWERS_OF_TWO: readonly number[] = (() => {
  const powers = new Array<number>(2098);
  powers[1074] = 1;
  for (let k = 1; k <= 1023; k++) powers[1074 + k] = (powers[1073 + k] as number) * 2;
  for (let k = 1; k <= 1074; k++) powers[1074 - k] = (powers[1075 - k] as number) / 2;
  return powers;
})();
const powerOfTwo = (exponent: number): number => POWERS_OF_TWO[exponent + 1074] as number;
const TWO_TO_55 = 2n ** 55n;
const LOG2_10 = Math.log2(10);
const MIN_NORMAL = 2 ** -1022;

/**
 * The nearest double to ±n × 10^scale (`n > 0`; round half to even). Clinger's fast path when n and 10^|scale| are
 * exact doubles (one IEEE multiplication or division of exact operands is correctly rounded); `Number(bigint)` (correctly rounded) of n × 10^scale for scale ≥ 0; else the
 * integer quotient q = ⌊n · 2^k / 10^−scale⌋ with k chosen so that q has about 57 bits, its lowest bit set when the
 * division leaves a remainder (a sticky bit below the rounding position, so `Number(q)` rounds as the exact value
 * would), then scaled back by 2^−k, which is exact for a normal result. Undefined where the result would be
 * subnormal or the coefficient beyond the doubles, for the string path to handle.
 */
function numberOf(sign: number, n: bigint, scale: number): number | undefined {
  let magnitude: number;
  if (n <= MAX_SAFE_BIG && scale >= -22 && scale <= 22) {
    const coefficient = Number(n);
    magnitude =
      scale >= 0
        ? coefficient * (EXACT_POWERS_OF_TEN[scale] as number)
        : coefficient / (EXACT_POWERS_OF_TEN[-scale] as number);
  } else if (scale >= 0) {
    if (scale > 400) return undefined;
    magnitude = Number(n * bigPowerOfTen(scale));
  } else {
    if (-scale > 1_000) return undefined;
    const approximate = Number(n);
    if (approximate === Infinity) return undefined;
    // log2 of the quotient, to well within one: the shift that brings it to about 2^57.
    const shift = Math.ceil(57 - (Math.log2(approximate) + scale * LOG2_10));
    if (shift < -1000 || shift > 1_074) return undefined;
    const divisor = bigPowerOfTen(-scale);
    let quotient: bigint;
    let exact: boolean;
    if (shift >= 0) {
      const numerator = n << BigInt(shift);
      quotient = numerator / divisor;
      exact = quotient * divisor === numerator;
    } else {
      const scaled = divisor << BigInt(-shift);
      quotient = n / scaled;
      exact = quotient * scaled === n;
    }
    if (quotient < TWO_TO_55) return undefined;
    if (!exact) quotient |= 1n;
    magnitude = Number(quotient) * powerOfTwo(-shift);
    if (magnitude < MIN_NORMAL || magnitude === Infinity) return undefined;
  }
  return sign < 0 ? -magnitude : magnitude;
}

/** The decimal rounded half-up to `places` decimal places, as a plain string (`12.3`). */
export const toFixed = (a: Decimal, places: number): string => big(a).toFixed(places, 1);

/** The exact decimal as a string, without exponent notation. */
export const toPlainString = (a: Decimal): string => big(a).toFixed();

/** The most significant digits a rounding may ask for (big.js's own limit). */
const MAX_SIGNIFICANT_DIGITS = 1_000_000;

/**
 * Rounds to `digits` significant digits without dropping integer digits (12345.6 at 4 digits is 12346), the
 * display rounding of the hosted API.
 *
 * @throws RangeError when `digits` is not a whole number from 1 to 1,000,000.
 */
export function roundSignificant(value: Decimal, digits: number): Decimal {
  const a = big(value);
  // Checked here because big.js would throw its own untyped Error, and 0 would silently round to integers.
  if (!Number.isInteger(digits) || digits < 1 || digits > MAX_SIGNIFICANT_DIGITS) {
    throw new RangeError(
      `significant digits must be a whole number from 1 to ${MAX_SIGNIFICANT_DIGITS}, got ${digits}`,
    );
  }
  if (!nonzero(a)) return value;
  // The digits kept: the whole integer part when it has at least `digits` digits (a.e + 1 of them, as big.js's
  // round(0) keeps), else `digits` significant ones (its prec); half up on what is dropped, as big.js rounds.
  const keep = a.e + 1 >= digits ? a.e + 1 : digits;
  const drop = coefficientDigits(a) - keep;
  if (drop <= 0) return value;
  const n = coefficientOf(a);
  const power = bigPowerOfTen(drop);
  let kept = n / power;
  const remainder = n - kept * power;
  // Nothing but zeros dropped: the value is already that short.
  if (remainder === 0n) return value;
  if (remainder + remainder >= power) kept += 1n;
  return whole(a.s, kept, digitCount(kept), scaleOf(a) + drop);
}

/**
 * The nearest number (round half to even) to the exact product of the decimals of two numbers (each read as
 * {@link decimal} reads it, its shortest form): `toNumber(mul(decimal(a), decimal(b)))`, the same double, for any
 * finite `a` and `b`.
 *
 * @example
 * ```ts
 * productOfNumbers(0.1, 0.2); // 0.02 (where 0.1 * 0.2 is 0.020000000000000004)
 * ```
 * @throws RangeError for NaN or ±Infinity.
 */
export function productOfNumbers(a: number, b: number): number {
  const short = shortProduct(a, b);
  if (short !== undefined) return short;
  // Longer decimals (16 or 17 digits) in double-double arithmetic, where it decides the rounding.
  const approximate = a === 0 || b === 0 ? undefined : approximateProduct(a < 0 ? -a : a, b < 0 ? -b : b);
  if (approximate !== undefined) return a < 0 !== b < 0 ? -approximate : approximate;
  return toNumber(mul(decimal(a), decimal(b)));
}

/** Bits of a double, to read the exponent and mantissa of a quotient. */
const DOUBLE = new Float64Array(1);
const WORDS = new Uint32Array(DOUBLE.buffer);

/** The last factor read, as it usually repeats from one estimate to the next: its coefficient and places. */
// Fields of one object, not module variables: a double stored in a module variable is boxed anew on each store.
const lastFactor = { value: Number.NaN, coefficient: 0, places: -1 };

/**
 * {@link productOfNumbers} in doubles alone, where the decimals have coefficients below 2^50 and together at most 22
 * places (so 10^places is an exact double); undefined where it leaves the answer to the exact decimals (a zero, longer
 * decimals, a quotient too close to a rounding boundary to decide cheaply).
 *
 * The product P = ma × mb (below 2^100) of the coefficients is exact as hi + lo (Dekker's product of halves of at most
 * 25 bits). The answer is the double nearest P / D, D = 10^places, and lies less than 1.5 units in the last place (u)
 * from q = RN(hi / D): |hi/D − q| ≤ u/2, and |lo| / D ≤ ulp(hi) / (2D), which is below u (with 2^f ≤ 2^⌊log2 hi⌋ / D
 * and 2^⌊log2 hi⌋ / D below 2^(f+1), q ≥ 2^f, so u ≥ 2^(f−52), above 2^⌊log2 hi⌋ / (D·2^53)). The remainder
 * r = hi − q·D is a double (the remainder of a correctly rounded division is exact) and is computed exactly from Dekker's product q·D = ph + pl
 * (hi − ph is exact by Sterbenz's lemma). So P − q·D = r + lo exactly, and comparing it with ±(u/2)·D (exact: a power
 * of two times D) decides the rounding: above u/2 rounds up to q + u, below −u/2 down to q − u (in q's binade, as
 * q is not a power of two), else q. Each comparison is the sign of a sum of three doubles, read from its exact two-sum
 * expansion when the leading part dominates; a tie, a doubtful sign or a quotient that is a power of two (whose lower
 * neighbour is u/2 away) go to the exact path. tests/core/product-of-numbers.test.ts checks it against big.js.
 */
function shortProduct(a: number, b: number): number | undefined {
  if (!LITTLE_ENDIAN || a === 0 || b === 0) return undefined;
  let magnitude = a < 0 ? -a : a;
  const placesA = shortestPlaces(magnitude);
  if (placesA < 0) return undefined;
  const ma = shortest.coefficient;
  let mb: number;
  let placesB: number;
  if (b === lastFactor.value) {
    mb = lastFactor.coefficient;
    placesB = lastFactor.places;
  } else {
    placesB = shortestPlaces(b < 0 ? -b : b);
    mb = shortest.coefficient;
    lastFactor.value = b;
    lastFactor.coefficient = mb;
    lastFactor.places = placesB;
  }
  const places = placesA + placesB;
  if (placesB < 0 || places > 22) return undefined;
  // P = hi + lo exactly (Dekker's product).
  twoProduct(ma, mb);
  const hi = dd.hi;
  const lo = dd.lo;
  if (places === 0) magnitude = hi;
  else {
    const divisor = EXACT_POWERS_OF_TEN[places] as number;
    const q = hi / divisor;
    // q·D = ph + pl exactly (Dekker), so r = hi − q·D exactly.
    twoProduct(q, divisor);
    const ph = dd.hi;
    const pl = dd.lo;
    const r = hi - ph - pl;
    DOUBLE[0] = q;
    const high = WORDS[1] as number;
    // A power of two: the gap below is half the gap above.
    if ((high & 0xf_ffff) === 0 && WORDS[0] === 0) return undefined;
    const unit = powerOfTwo((high >>> 20) - 1075);
    const half = unit * 0.5 * divisor;
    const above = signOfSum(r, lo, -half);
    if (above === 0) return undefined;
    if (above > 0) magnitude = q + unit;
    else {
      const below = signOfSum(r, lo, half);
      if (below === 0) return undefined;
      magnitude = below < 0 ? q - unit : q;
    }
  }
  return a < 0 !== b < 0 ? -magnitude : magnitude;
}

/**
 * The sign of x + y + z, exactly, from two two-sums (s + e2 + e1 = x + y + z): the sign of s when e1 is below half
 * of |s| (|e2| is at most 2^−53·|s|), of e1 when s is 0 (then e2 is 0 too); 0 when it cannot tell cheaply or the
 * sum is 0.
 */
function signOfSum(x: number, y: number, z: number): number {
  const t = x + y;
  const tx = t - x;
  const e1 = x - (t - tx) + (y - tx);
  const s = t + z;
  if (s !== 0) {
    const magnitude = s < 0 ? -s : s;
    if ((e1 < 0 ? -e1 : e1) < magnitude * 0.5) return s < 0 ? -1 : 1;
    return 0;
  }
  const sz = s - t;
  const e2 = t - (s - sz) + (z - sz);
  if (e2 !== 0) return 0;
  return e1 < 0 ? -1 : e1 > 0 ? 1 : 0;
}

/**
 * A positive decimal as a double-double `[hi, lo]` (hi its nearest double, lo the nearest double to the rest), for
 * the double-double fast paths (src/core/double-double.ts): within 2^-104 of it. Undefined for a decimal that is not
 * positive or whose double is not finite and nonzero. Made once per cached factor, not per estimate.
 *
 * @example
 * ```ts
 * doubleDouble(decimal('0.1')); // [0.1, -5.551115123125783e-18]
 * ```
 */
export function doubleDouble(value: Decimal): readonly [number, number] | undefined {
  if (!isPositive(value)) return undefined;
  const hi = toNumber(value);
  if (!(hi > 0 && hi < Infinity)) return undefined;
  return [hi, toNumber(sub(value, exactBinary(hi)))];
}

const NO_DOUBLE_DOUBLE = [Number.NaN, Number.NaN] as const;

/**
 * {@link doubleDouble} with NaNs where it gives undefined: for a cached record that keeps the two as number fields,
 * so the fast paths fetch no array (NaN: the exact path).
 *
 * @example
 * ```ts
 * doubleDoubleOrNaN(decimal(0)); // [NaN, NaN]
 * ```
 */
export const doubleDoubleOrNaN = (value: Decimal): readonly [number, number] =>
  doubleDouble(value) ?? NO_DOUBLE_DOUBLE;

/** A positive double's exact value as a decimal: m·2^e, which is m·5^−e·10^e when e is negative. */
function exactBinary(value: number): Decimal {
  let exponent = 0;
  let mantissa = value;
  while (!Number.isInteger(mantissa)) {
    mantissa *= 2;
    exponent--;
  }
  const text =
    exponent === 0
      ? BigInt(mantissa).toString()
      : `${(BigInt(mantissa) * 5n ** BigInt(-exponent)).toString()}e${exponent}`;
  return wrap(new Big(text));
}
