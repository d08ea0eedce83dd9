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

/** A big.js value from its parts, built as big.js builds its own (same fields, same order). */
function fromParts(sign: number, exponent: number, digits: number[]): BigJs.Big {
  const value = Object.create(Big.prototype) as { s: number; e: number; c: number[]; constructor: unknown };
  value.s = sign;
  value.e = exponent;
  value.c = digits;
  value.constructor = Big;
  return value as unknown as BigJs.Big;
}

/**
 * The decimal of a finite number as big.js reads `String(number)` (its shortest round-trip form, so `0.1` is
 * exactly 0.1), without big.js's regular expressions: the digits of `String(number)` without leading and trailing
 * zeros, and the exponent of the first. Zero keeps its sign, as big.js keeps `-0`'s.
 */
function fromNumber(value: number): BigJs.Big {
  const text = String(value);
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
  if (typeof value === 'number') return wrap(fromNumber(value));
  try {
    return wrap(new Big(value));
  } catch {
    throw new RangeError(`not a decimal number: ${String(value)}`);
  }
}

export const ZERO = decimal(0);
export const ONE = decimal(1);

/** Divisors with at most this many significant digits take the short division: remainder × 10 + 9 < 10^10. */
const SHORT_DIVISOR_DIGITS = 9;

/**
 * `a / b` by short division when b has at most 9 significant digits (60, 3600, 3600000, a vCPU count × 35040):
 * the same digits big.js's long division gives (exact where the quotient terminates within `places` places, else
 * rounded half up there, trailing zeros dropped), in one pass of double arithmetic per quotient digit. Returns
 * undefined for what it leaves to big.js: a divisor of more digits, a zero dividend or divisor, or a quotient that
 * rounds to zero.
 */
function shortDivision(a: BigJs.Big, b: BigJs.Big, places: number): BigJs.Big | undefined {
  const divisorDigits = b.c;
  const dividendDigits = a.c;
  if (divisorDigits.length > SHORT_DIVISOR_DIGITS || divisorDigits[0] === 0 || dividendDigits[0] === 0) {
    return undefined;
  }
  let divisor = 0;
  for (const digit of divisorDigits) divisor = divisor * 10 + digit;
  // b = divisor × 10^shift, so a / b = (a / 10^shift) / divisor: the dividend's first digit is at 10^first.
  const first = a.e - (b.e - divisorDigits.length + 1);
  // The quotient's digits at 10^first … 10^-DP, and one guard digit at 10^-(DP + 1) for the rounding.
  const last = -places - 1;
  if (first < last) return undefined;
  // quotient[0] is a spare leading digit (10^(first + 1)) for a carry out of the rounding.
  const quotient: number[] = [0];
  let remainder = 0;
  let position = first;
  for (let index = 0; ; index++, position--) {
    const current = remainder * 10 + (index < dividendDigits.length ? (dividendDigits[index] as number) : 0);
    const digit = Math.floor(current / divisor);
    remainder = current - digit * divisor;
    quotient.push(digit);
    if (position === last) {
      // Round half up on the guard digit, as big.js's ROUND_HALF_UP does.
      quotient.pop();
      if (digit >= 5) {
        let carry = quotient.length - 1;
        while (quotient[carry] === 9) quotient[carry--] = 0;
        quotient[carry] = (quotient[carry] as number) + 1;
      }
      break;
    }
    // Exact: no dividend digits left and nothing remains.
    if (remainder === 0 && index >= dividendDigits.length - 1) break;
  }
  let start = 0;
  while (start < quotient.length && quotient[start] === 0) start++;
  if (start === quotient.length) return undefined;
  let end = quotient.length;
  while (quotient[end - 1] === 0) end--;
  return fromParts(
    a.s === b.s ? 1 : -1,
    first + 1 - start,
    start === 0 && end === quotient.length ? quotient : quotient.slice(start, end),
  );
}

const HAS_BIGINT = typeof BigInt === 'function';
/** 10^k as BigInts, built on first use. */
const BIG_POWERS_OF_TEN: bigint[] = [];
const bigPowerOfTen = (power: number): bigint => {
  let value = BIG_POWERS_OF_TEN[power];
  if (value === undefined) {
    value = BigInt(`1${'0'.repeat(power)}`);
    BIG_POWERS_OF_TEN[power] = value;
  }
  return value;
};

/**
 * `a / b` for divisors of more than 9 significant digits (a price level compounded over a dozen years has about
 * 100), with the digits big.js's long division gives at the engine's settings: the exact quotient rounded half up at
 * `places` places, trailing zeros dropped. One whole-number division of the coefficients scaled to that place,
 * rounded by comparing twice the remainder with the divisor: exact, and far cheaper than big.js's digit-by-digit
 * division with a 100-digit divisor. Returns undefined for what it leaves to big.js: no BigInt (an older embedded
 * engine), a zero dividend or divisor, or a quotient that rounds to zero.
 */
function longDivision(a: BigJs.Big, b: BigJs.Big, places: number): BigJs.Big | undefined {
  const x = a.c;
  const y = b.c;
  if (!HAS_BIGINT || x[0] === 0 || y[0] === 0) return undefined;
  // a = X × 10^sa and b = Y × 10^sb with whole X and Y, so a / b × 10^places = X × 10^(sa − sb + places) / Y.
  const shift = a.e - x.length + 1 - (b.e - y.length + 1) + places;
  let numerator = BigInt(x.join(''));
  let denominator = BigInt(y.join(''));
  if (shift >= 0) numerator *= bigPowerOfTen(shift);
  else denominator *= bigPowerOfTen(-shift);
  let quotient = numerator / denominator;
  const remainder = numerator - quotient * denominator;
  if (remainder * 2n >= denominator) quotient += 1n;
  if (quotient === 0n) return undefined;
  const text = quotient.toString();
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  const digits = new Array<number>(end);
  for (let index = 0; index < end; index++) digits[index] = text.charCodeAt(index) - 48;
  return fromParts(a.s === b.s ? 1 : -1, text.length - 1 - places, digits);
}

/** Digits per limb of the long multiplication: a limb product plus carries stays below 2^53. */
const LIMB_DIGITS = 7;
const LIMB = 10 ** LIMB_DIGITS;

/** The limbs (base 10^7, least significant first) of a coefficient's digits. */
function limbsOf(digits: readonly number[]): number[] {
  const limbs: number[] = [];
  for (let end = digits.length; end > 0; end -= LIMB_DIGITS) {
    let limb = 0;
    for (let index = Math.max(0, end - LIMB_DIGITS); index < end; index++)
      limb = limb * 10 + (digits[index] as number);
    limbs.push(limb);
  }
  return limbs;
}

/**
 * `a × b`, exact like big.js's `times` and with the same digits (a product has one exact form), but from whole
 * numbers: both coefficients as doubles when the product has at most 15 digits, else in limbs of 7 digits instead
 * of big.js's digit by digit. Returns undefined for a zero factor, whose signed zero big.js makes.
 */
function product(a: BigJs.Big, b: BigJs.Big): BigJs.Big | undefined {
  const x = a.c;
  const y = b.c;
  if (x[0] === 0 || y[0] === 0) return undefined;
  const sign = a.s === b.s ? 1 : -1;
  // a × b = X·Y × 10^(a.e − |X| + 1 + b.e − |Y| + 1), with X and Y the coefficients as whole numbers.
  const scale = a.e - x.length + 1 + b.e - y.length + 1;
  let digits: number[];
  if (x.length + y.length <= EXACT_COEFFICIENT_DIGITS) {
    let coefficient = 0;
    for (const digit of x) coefficient = coefficient * 10 + digit;
    let other = 0;
    for (const digit of y) other = other * 10 + digit;
    digits = digitsOf(coefficient * other); // below 10^15, so exact
  } else {
    const xl = limbsOf(x);
    const yl = limbsOf(y);
    const limbs = new Array<number>(xl.length + yl.length).fill(0);
    for (let i = 0; i < xl.length; i++) {
      let carry = 0;
      const xi = xl[i] as number;
      for (let j = 0; j < yl.length; j++) {
        // Below 10^7 + (10^7 − 1)² + 10^7 ≈ 10^14: exact, and far enough below 2^53 that the floor is exact too.
        const sum = (limbs[i + j] as number) + xi * (yl[j] as number) + carry;
        carry = Math.floor(sum / LIMB);
        limbs[i + j] = sum - carry * LIMB;
      }
      limbs[i + yl.length] = carry;
    }
    let top = limbs.length - 1;
    while (limbs[top] === 0) top--;
    let topDigits = 1;
    while (topDigits < LIMB_DIGITS && (limbs[top] as number) >= 10 ** topDigits) topDigits++;
    // Filled from the least significant digit up, 7 per limb and only the significant ones of the top limb.
    digits = new Array<number>(topDigits + top * LIMB_DIGITS);
    let position = digits.length - 1;
    for (let index = 0; index <= top; index++) {
      let limb = limbs[index] as number;
      for (let place = index === top ? topDigits : LIMB_DIGITS; place > 0; place--) {
        const digit = limb % 10;
        digits[position--] = digit;
        limb = (limb - digit) / 10;
      }
    }
  }
  let end = digits.length;
  while (digits[end - 1] === 0) end--;
  const exponent = scale + digits.length - 1;
  if (end < digits.length) digits.length = end;
  return fromParts(sign, exponent, digits);
}

/** The decimal digits of a positive safe integer, most significant first. */
function digitsOf(value: number): number[] {
  const digits: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 10)) digits.push(rest % 10);
  return digits.reverse();
}

export const add = (a: Decimal, b: Decimal): Decimal => wrap(a.plus(b));
export const sub = (a: Decimal, b: Decimal): Decimal => wrap(a.minus(b));
export const mul = (a: Decimal, b: Decimal): Decimal => wrap(product(a, b) ?? a.times(b));
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
export function div(a: Decimal, b: Decimal): Decimal {
  const places = quotientPlaces(a, b);
  const quotient = shortDivision(a, b, places) ?? longDivision(a, b, places);
  if (quotient !== undefined) return wrap(quotient);
  if (places === Big.DP) return wrap(a.div(b));
  Big.DP = places;
  try {
    return wrap(a.div(b));
  } finally {
    Big.DP = 40;
  }
}
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

/** Exact powers of ten as doubles: 10^22 is the largest that a double holds exactly. */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));
/** Coefficients of at most this many digits are below 2^53, so exact as doubles. */
const EXACT_COEFFICIENT_DIGITS = 15;

/**
 * The nearest JS number (round half to even, as `Number(string)` reads a decimal).
 *
 * Fast path (Clinger's): a coefficient of at most 15 digits and a power of ten up to 10^22 are both exact doubles,
 * and one IEEE multiplication or division of exact operands is correctly rounded, so `coefficient × 10^scale`
 * is the same number `Number(string)` gives without building a string. Anything else is read from the exponent
 * form of its digits.
 *
 * @example
 * ```ts
 * toNumber(decimal('0.0024062')); // 0.0024062
 * ```
 */
export function toNumber(a: Decimal): number {
  const digits = a.c;
  const count = digits.length;
  const scale = a.e - count + 1; // a = ±coefficient × 10^scale
  if (count <= EXACT_COEFFICIENT_DIGITS && scale >= -22 && scale <= 22) {
    let coefficient = 0;
    for (let index = 0; index < count; index++) coefficient = coefficient * 10 + (digits[index] as number);
    // Zero is +0 whatever big.js's sign says, as Number(a.toString()) reads it.
    if (coefficient === 0) return 0;
    const magnitude =
      scale >= 0
        ? coefficient * (EXACT_POWERS_OF_TEN[scale] as number)
        : coefficient / (EXACT_POWERS_OF_TEN[-scale] as number);
    return a.s < 0 ? -magnitude : magnitude;
  }
  // The exponent form, its digits gathered 15 at a time into whole numbers (half the cost of joining them one by
  // one); Number() reads it correctly rounded.
  let text = a.s < 0 ? '-' : '';
  let chunk = 0;
  let chunkDigits = 0;
  for (let index = 0; index < count; index++) {
    chunk = chunk * 10 + (digits[index] as number);
    if (++chunkDigits === EXACT_COEFFICIENT_DIGITS) {
      text += String(chunk).padStart(EXACT_COEFFICIENT_DIGITS, '0');
      chunk = 0;
      chunkDigits = 0;
    }
  }
  if (chunkDigits > 0) text += String(chunk).padStart(chunkDigits, '0');
  return Number(`${text}e${scale}`);
}

/** The decimal rounded half-up to `places` decimal places, as a plain string (`12.3`). */
export const toFixed = (a: Decimal, places: number): string => a.toFixed(places, 1);

/** The exact decimal as a string, without exponent notation. */
export const toPlainString = (a: Decimal): string => a.toFixed();

/** The most significant digits a rounding may ask for (big.js's own limit). */
const MAX_SIGNIFICANT_DIGITS = 1_000_000;

/**
 * Rounds to `digits` significant digits without dropping integer digits (12345.6 at 4 digits is 12346), the
 * display rounding of the hosted API.
 *
 * @throws RangeError when `digits` is not a whole number from 1 to 1,000,000.
 */
export function roundSignificant(a: Decimal, digits: number): Decimal {
  // Checked here because big.js would throw its own untyped Error, and 0 would silently round to integers.
  if (!Number.isInteger(digits) || digits < 1 || digits > MAX_SIGNIFICANT_DIGITS) {
    throw new RangeError(
      `significant digits must be a whole number from 1 to ${MAX_SIGNIFICANT_DIGITS}, got ${digits}`,
    );
  }
  const coefficient = a.c;
  if (coefficient[0] === 0) return a;
  // The digits kept: the whole integer part when it has at least `digits` digits (a.e + 1 of them, as big.js's
  // round(0) keeps), else `digits` significant ones (its prec). Then half up on the first digit dropped, as big.js
  // rounds, on the coefficient's digits directly instead of through big.js's string conversions.
  const keep = a.e + 1 >= digits ? a.e + 1 : digits;
  if (coefficient.length <= keep) return a;
  let exponent = a.e;
  let end = keep;
  const kept = coefficient.slice(0, keep);
  if ((coefficient[keep] as number) >= 5) {
    let index = keep - 1;
    while (index >= 0 && kept[index] === 9) index--;
    if (index < 0) {
      kept.length = 1;
      kept[0] = 1;
      exponent++;
      end = 1;
    } else {
      kept[index] = (kept[index] as number) + 1;
      end = index + 1;
    }
  }
  while (end > 1 && kept[end - 1] === 0) end--;
  kept.length = end;
  return wrap(fromParts(a.s, exponent, kept));
}
