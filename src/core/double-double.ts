/**
 * Exact results at the cost of doubles (issue 40): a value the engine defines as an exact decimal, converted once to
 * the nearest double, is computed here as a double-double (hi + lo, about 106 bits) whose distance from the exact
 * value is provably below {@link APPROXIMATION_BOUND} × the value. Where that is close enough to decide the rounding
 * ({@link decidedDouble}), the answer is the double the exact decimals give; where it is not (about one value in 10^8,
 * and any input outside the ranges below), the caller takes the exact decimal path. Nothing here reads big.js or
 * BigInt, and nothing allocates: each operation leaves its result in {@link dd}.
 *
 * The bound: every operation below is exact (two-product, two-sum) or rounds once at 2^-104 relative or less, a chain
 * of ten of them stays below 2^-99; a quotient the exact path rounds (`div`: at least 25 significant digits) is
 * 5 × 10^-26 from the true one, and a formula with two such quotients 10^-25. 2^-80 (8.3 × 10^-25) covers both with a
 * margin; the operands are positive (no cancellation), so relative bounds add up through sums and products.
 */

/** Relative distance from the exact value that every approximation here stays below. */
export const APPROXIMATION_BOUND = 2 ** -80;

/** The result of the last operation: `hi + lo`, with `hi` the double nearest the sum. */
export const dd = { hi: 0, lo: 0 };

/** Veltkamp's splitter for halves of 26 bits: 2^27 + 1. */
const SPLITTER = 134_217_729;
/** Exact powers of ten as doubles: 10^22 is the largest that a double holds exactly. */
export const EXACT_POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, power) =>
  Number(`1e${power}`),
);
/** The range of doubles the fast paths take (far from overflow in a split and from subnormal results). */
const SMALLEST = 2 ** -900;
const LARGEST = 2 ** 900;

/** Bits of a double, to read its exponent and mantissa (where the platform stores them little-endian). */
const DOUBLE = new Float64Array(1);
const WORDS = new Uint32Array(DOUBLE.buffer);
/** Whether the platform stores doubles little-endian: the fast paths need it to read the exponent. */
export const LITTLE_ENDIAN = /* @__PURE__ */ (() => {
  DOUBLE[0] = 1;
  return WORDS[1] === 0x3ff0_0000;
})();

/** `a × b` exactly, as dd (Dekker's product of Veltkamp halves). */
export function twoProduct(a: number, b: number): void {
  const product = a * b;
  let split = SPLITTER * a;
  const aHigh = split - (split - a);
  const aLow = a - aHigh;
  split = SPLITTER * b;
  const bHigh = split - (split - b);
  const bLow = b - bHigh;
  dd.hi = product;
  dd.lo = aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/** `(ah + al) × (bh + bl)`, as dd (relative error below 2^-104 for normal operands). */
export function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProduct(ah, bh);
  const hi = dd.hi;
  const lo = dd.lo + (ah * bl + al * bh);
  const sum = hi + lo;
  dd.lo = lo - (sum - hi);
  dd.hi = sum;
}

/** `(ah + al) + (bh + bl)` for nonnegative operands, as dd. */
export function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  const sum = ah + bh;
  const bVirtual = sum - ah;
  const error = ah - (sum - bVirtual) + (bh - bVirtual);
  const lo = error + al + bl;
  const hi = sum + lo;
  dd.lo = lo - (hi - sum);
  dd.hi = hi;
}

/** `(ah + al) / divisor` for a positive double divisor, as dd. */
export function ddDivide(ah: number, al: number, divisor: number): void {
  const quotient = ah / divisor;
  twoProduct(quotient, divisor);
  // ah − quotient × divisor exactly (ah − dd.hi is exact by Sterbenz's lemma), plus al.
  const lo = (ah - dd.hi - dd.lo + al) / divisor;
  const hi = quotient + lo;
  dd.lo = lo - (hi - quotient);
  dd.hi = hi;
}

/**
 * The double nearest the exact value x, given `hi + lo` (normalised: hi is the double nearest hi + lo) with
 * |x − (hi + lo)| ≤ {@link APPROXIMATION_BOUND} × (hi + lo), where that decides it: every value within the bound of
 * hi + lo rounds to hi ({@link decides}). Undefined where it does not (x may round to hi's neighbour), for a value
 * outside the fast paths' range, and for a non-positive hi: the caller then takes the exact path.
 *
 * @example
 * ```ts
 * ddDivide(1, 0, 10); // dd: 0.1 as a double-double
 * decidedDouble(dd.hi, dd.lo); // 0.1
 * ```
 */
export function decidedDouble(hi: number, lo: number): number | undefined {
  return decides(hi, lo) ? hi : undefined;
}

/**
 * Whether `hi` is the double nearest the exact value `hi + lo` (within the approximation bound) stands for: the test
 * of {@link decidedDouble} as a boolean, for a hot path whose callees V8 may not inline (a double returned from a
 * call that is not inlined is boxed anew; a boolean is not).
 *
 * The test is the rounding itself. Let y = hi + lo and x the exact value, |x − y| ≤ B·y (B the bound). With m = 2B·hi,
 * `lo + m` as a double is at least lo + B·y (its rounding error, 2^-53·|lo + m| ≤ 2^-106·hi + 2^-52·m, is far below
 * the B·hi that m has to spare), so x ≤ hi + (lo + m); likewise x ≥ hi + (lo − m). Rounding to nearest is monotone:
 * when both ends round to hi, so does x, whatever the spacing of doubles around hi (a power of two included).
 *
 * @example
 * ```ts
 * ddDivide(1, 0, 3);
 * decides(dd.hi, dd.lo); // true: dd.hi is 1/3's nearest double
 * ```
 */
export function decides(hi: number, lo: number): boolean {
  if (!(hi > SMALLEST && hi < LARGEST)) return false;
  const margin = APPROXIMATION_BOUND * 2 * hi;
  return hi + (lo + margin) === hi && hi + (lo - margin) === hi;
}

/**
 * The coefficient {@link shortestPlaces} found, and its places where {@link stripTrailingZeros} set them (a module
 * slot, so the hot path allocates nothing).
 */
export const shortest = { coefficient: 0, places: 0 };

/** The zeros {@link stripTrailingZeros} tries to drop at each step: up to 15 in four steps. */
const ZERO_STEPS: readonly number[] = [8, 4, 2, 1];

/**
 * `coefficient` × 10^-places with the coefficient's trailing zeros dropped (as far as places allow), into
 * {@link shortest}: halving steps of 8, 4, 2 and 1 zeros.
 */
function stripTrailingZeros(coefficient: number, places: number): void {
  let m = coefficient;
  let k = places;
  for (let step = 0; step < ZERO_STEPS.length; step++) {
    const zeros = ZERO_STEPS[step] as number;
    // A quotient, not `%` (a slow fmod on doubles): below 10^15, m / 10^j rounds to a whole number only when it is
    // one, as a true fraction of at least 10^-j is wider than the doubles' spacing at that size.
    if (k < zeros) continue;
    const quotient = m / (EXACT_POWERS_OF_TEN[zeros] as number);
    if (Math.floor(quotient) === quotient) {
      m = quotient;
      k -= zeros;
    }
  }
  shortest.coefficient = m;
  shortest.places = k;
}

/**
 * 10^3: {@link shortestDecimal} first asks whether the value has three places or fewer, in one test. Below
 * {@link MAX_READ_COEFFICIENT}, value × 1000 is within 0.25 of a decimal m·10^(3−k) with k ≤ 3 places that gives the
 * value back, so the rounding finds that decimal's thousandths exactly.
 */
const THOUSAND = 1_000;

/** Largest coefficient the number reading takes in doubles: far enough below 2^53 that the search below is exact. */
const MAX_READ_COEFFICIENT = 2 ** 50;

/**
 * The places k ≤ maxPlaces (at most 22) of a positive number's shortest decimal (`String(number)`'s digits) when its coefficient m is
 * below 2^50 (left in `shortest.coefficient`), or −1 when there is none: the fewest places at which a whole m gives the
 * number back (m / 10^k, one correctly rounded division of exact doubles, is the number). A decimal with fewer digits
 * that gives the number back would have fewer places, and at k places only one whole number below 2^52 lies within
 * the number's rounding interval. A caller that knows the number has no decimal with fewer than `minPlaces` places
 * (it is not whole) starts there.
 */
export function shortestPlaces(magnitude: number, maxPlaces = 22, minPlaces = 0): number {
  for (let places = minPlaces; places <= maxPlaces; places++) {
    const power = EXACT_POWERS_OF_TEN[places] as number;
    const m = Math.round(magnitude * power);
    if (m > MAX_READ_COEFFICIENT) return -1;
    if (m !== 0 && m / power === magnitude) {
      shortest.coefficient = m;
      return places;
    }
  }
  return -1;
}

/** The last double whose shortest decimal a caller worked out another way, and that decimal as a double-double. */
const remembered = { value: Number.NaN, hi: 0, lo: 0 };

/**
 * Remembers that `value`'s shortest decimal is the double-double now in {@link dd} (within 2^-104 of it), so
 * {@link shortestDecimal} gives it at once: a short product (core/short-product.ts) knows the decimal its activity
 * double came from, and the estimate then multiplies that double's shortest decimal by its factor. One value: the
 * activity of the request being estimated.
 *
 * @example
 * ```ts
 * ddDivide(45, 0, 10);
 * rememberShortest(4.5);
 * ```
 */
export function rememberShortest(value: number): void {
  remembered.value = value;
  remembered.hi = dd.hi;
  remembered.lo = dd.lo;
}

/**
 * The shortest decimal of a positive double (the one `String` prints and the engine reads it as) as a double-double
 * in {@link dd}, within 2^-104 of it; false where it leaves the number to the exact path (a power of two, a decimal
 * needing more than 22 places or an exponent, a tie between two nearest coefficients).
 *
 * A whole number is its own. Up to 15 digits, the 15-digit coefficient without its trailing zeros
 * ({@link shortByCoefficient}; {@link shortestPlaces} where that cannot tell). Else the decimal has 16 or 17 digits (17 always give a double back): at
 * p places, p = 15 − ⌊log10 x⌋, the 16-digit coefficient nearest x·10^p (exact as a two-product) is the decimal when it
 * lies within half a unit of x's last place × 10^p (also exact), else the 17-digit one nearest x·10^(p+1), which
 * `String` picks as the closest of its length.
 *
 * @example
 * ```ts
 * shortestDecimal(0.1); // true; dd.hi + dd.lo is 0.1 to 2^-104, where the double 0.1 is 5.5e-18 above it
 * ```
 */
export function shortestDecimal(value: number): boolean {
  if (!(value > 0)) return false;
  if (value === remembered.value) {
    dd.hi = remembered.hi;
    dd.lo = remembered.lo;
    return true;
  }
  // A whole number below 2^53 is its own shortest decimal (counts, whole hours).
  if (value < 9_007_199_254_740_992 && Math.floor(value) === value) {
    dd.hi = value;
    dd.lo = 0;
    return true;
  }
  // Quantities as requests state them have a place or two: tried first for those. Thousandths / 1000 is the same real
  // number as the shortest decimal's m / 10^k, so the double-double is the same, to the bit, without stripping zeros
  // (each step of ddDivide rounds that one real number once).
  const thousandths = Math.round(value * THOUSAND);
  if (thousandths <= MAX_READ_COEFFICIENT && thousandths / THOUSAND === value) {
    ddDivide(thousandths, 0, THOUSAND);
    return true;
  }
  // Computed values mostly have 17 digits: where the 15-digit coefficient nearest the value does not give it back,
  // no shorter decimal does (one that did would be that coefficient with trailing zeros), so the search is skipped.
  const inRange = value > 1e-6 && value < 1e15;
  const magnitude = inRange ? decimalMagnitude(value) : 0;
  const verdict = inRange ? shortByCoefficient(value, 14 - magnitude) : UNDECIDED;
  if (verdict === SHORT) return true;
  if (verdict === UNDECIDED) {
    const short = shortestPlaces(value);
    if (short >= 0) {
      const coefficient = shortest.coefficient;
      if (short === 0) {
        dd.hi = coefficient;
        dd.lo = 0;
      } else ddDivide(coefficient, 0, EXACT_POWERS_OF_TEN[short] as number);
      return true;
    }
  }
  if (!inRange || !LITTLE_ENDIAN) return false;
  DOUBLE[0] = value;
  // A power of two: its rounding interval is narrower below, so the nearest coefficient may not be the one.
  if (((WORDS[1] as number) & 0xf_ffff) === 0 && (WORDS[0] as number) === 0) return false;
  let places = 15 - magnitude;
  if (verdict === UNDECIDED) {
    // The magnitude may be one off next to a power of ten: the scaled value must have 16 digits. (LONG has shown
    // that it has: the 15-digit coefficient lay strictly between 10^14 and 10^15.)
    twoProduct(value, EXACT_POWERS_OF_TEN[places] as number);
    if (dd.hi < 1e15) places++;
    else if (dd.hi >= 1e16) places--;
  }
  if (places < 0 || places > 21) return false;
  twoProduct(value, EXACT_POWERS_OF_TEN[places] as number);
  // Then its nearest whole number has 16 digits (|lo| ≤ 1 at this size).
  if (!(dd.hi > 1e15 && dd.hi <= 1e16 - 2)) return false;
  // Half a unit in the last place of the value, scaled: exact (a power of two times 10^places).
  const halfUnit = unitOf(value) * 0.5 * (EXACT_POWERS_OF_TEN[places] as number);
  if (nearestWhole(dd.hi, dd.lo)) {
    const distance = nearest.distance < 0 ? -nearest.distance : nearest.distance;
    if (distance < halfUnit) return scaledBack(places);
    if (distance === halfUnit) return false;
  } else return false;
  places++;
  twoProduct(value, EXACT_POWERS_OF_TEN[places] as number);
  return nearestWhole(dd.hi, dd.lo) && scaledBack(places);
}

/** log10(2), to estimate a double's decimal magnitude from its binary exponent. */
const LOG10_OF_2 = 0.3010299956639812;

/**
 * ⌊log10 value⌋ for a double between 10^-6 and 10^15, from its binary exponent and one comparison with the double
 * nearest the next power of ten (Math.log10 is a call into the runtime). One high for a double that is the nearest
 * to a negative power of ten and below it; {@link shortByCoefficient} tells such a case (UNDECIDED), and the
 * search then settles it.
 *
 * @example
 * ```ts
 * decimalMagnitude(0.0123); // -2
 * ```
 */
export function decimalMagnitude(value: number): number {
  if (!LITTLE_ENDIAN) return Math.floor(Math.log10(value));
  DOUBLE[0] = value;
  const estimate = Math.floor((((WORDS[1] as number) >>> 20) - 1023) * LOG10_OF_2);
  return value >= (DECIMAL_POWERS[estimate + 1 - MIN_DECIMAL_POWER] as number) ? estimate + 1 : estimate;
}
/** 10^k as the nearest doubles, k from {@link MIN_DECIMAL_POWER}: enough for {@link decimalMagnitude}'s range. */
const MIN_DECIMAL_POWER = -7;
const DECIMAL_POWERS = Array.from({ length: 24 }, (_, index) => Number(`1e${index + MIN_DECIMAL_POWER}`));

/** What {@link shortByCoefficient} found. */
const SHORT = 1;
const LONG = 0;
const UNDECIDED = -1;

/**
 * Where the 15-digit coefficient nearest value × 10^places (places = 14 − ⌊log10 value⌋) gives the value back, its
 * shortest decimal into {@link dd} and SHORT: that coefficient without its trailing zeros, as every shorter decimal
 * that gives it back is (at most one whole number per scale lies in the value's rounding interval). LONG where it
 * does not (then no decimal of 15 digits or fewer does), UNDECIDED where the places are out of the exact powers' range
 * or Math.log10 was one off next to a power of ten (the coefficient then has 14 or 16 digits), for the search.
 */
function shortByCoefficient(value: number, places: number): number {
  if (places < 0 || places > 22) return UNDECIDED;
  const power = EXACT_POWERS_OF_TEN[places] as number;
  const coefficient = Math.round(value * power);
  if (coefficient <= 1e14 || coefficient >= 1e15) return UNDECIDED;
  if (coefficient / power !== value) return LONG;
  stripTrailingZeros(coefficient, places);
  if (shortest.places === 0) {
    dd.hi = shortest.coefficient;
    dd.lo = 0;
  } else ddDivide(shortest.coefficient, 0, EXACT_POWERS_OF_TEN[shortest.places] as number);
  return SHORT;
}

/** The unit in the last place of a positive normal double. */
function unitOf(value: number): number {
  DOUBLE[0] = value;
  const high = WORDS[1] as number;
  DOUBLE[0] = 0;
  WORDS[1] = ((high >>> 20) - 52) << 20;
  return DOUBLE[0];
}

/** The whole number nearest hi + lo, as nearest.high + nearest.low (exact), and (hi + lo) − it, rounded once. */
// Fields of one object, not module variables: a double stored in a module variable is boxed anew on each store.
const nearest = { high: 0, low: 0, distance: 0 };

/**
 * The whole number nearest `hi + lo` (hi below 2^57), for {@link shortestDecimal}; false for a tie (a fraction of
 * exactly one half), which `String` resolves by its own rule.
 */
function nearestWhole(hi: number, lo: number): boolean {
  const whole = Math.round(hi);
  // hi − whole is exact (a double minus its nearest integer); the fraction is that plus lo, as an exact two-sum.
  const part = hi - whole;
  const fraction = part + lo;
  const virtual = fraction - part;
  const error = part - (fraction - virtual) + (lo - virtual);
  let adjust = Math.round(fraction);
  if (fraction - adjust === 0.5 || fraction - adjust === -0.5) {
    if (error === 0) return false;
    if (fraction - adjust > 0 === error > 0) adjust += error > 0 ? 1 : -1;
  }
  nearest.high = whole;
  nearest.low = adjust;
  // (hi + lo) − (whole + adjust): rounded once, enough to compare with a half unit that is far from it or equal.
  nearest.distance = fraction - adjust + error;
  return true;
}

/** dd = (nearest.high + nearest.low) / 10^places. */
function scaledBack(places: number): boolean {
  const high = nearest.high + nearest.low;
  const low = nearest.low - (high - nearest.high);
  ddDivide(high, low, EXACT_POWERS_OF_TEN[places] as number);
  return true;
}

/**
 * The shortest decimal of a positive double × `times` / `per` (whole doubles: a unit's ratio) as a double-double in
 * {@link dd}; false where {@link shortestDecimal} declines. The division is the exact path's, which rounds at 25
 * significant digits or more (within the bound).
 *
 * @example
 * ```ts
 * scaledDecimal(90, 1, 60); // true; dd.hi is 1.5 (hours in 90 minutes)
 * ```
 */
export function scaledDecimal(value: number, times: number, per: number): boolean {
  if (!shortestDecimal(value)) return false;
  if (times !== 1) ddMul(dd.hi, dd.lo, times, 0);
  if (per !== 1) ddDivide(dd.hi, dd.lo, per);
  return true;
}

/**
 * The double nearest the exact product of the shortest decimals of two positive doubles, in doubles; undefined where
 * it cannot decide it (or takes neither operand), for the exact path.
 *
 * @example
 * ```ts
 * approximateProduct(170597.26211294835, 0.0469); // 8001.011593097278
 * ```
 */
export function approximateProduct(a: number, b: number): number | undefined {
  return shortestDecimal(b) ? approximateProductWith(a, dd.hi, dd.lo) : undefined;
}

/**
 * A positive double's shortest decimal as a double-double `[hi, lo]`, read once for a figure that is multiplied
 * again and again (a factor: see {@link approximateProductWith}); undefined where {@link shortestDecimal} declines.
 *
 * @example
 * ```ts
 * shortestPair(0.1); // [0.1, -5.551115123125783e-18]: the decimal 0.1 to 2^-104
 * ```
 */
export function shortestPair(value: number): readonly [number, number] | undefined {
  return shortestDecimal(value) ? [dd.hi, dd.lo] : undefined;
}

/**
 * {@link approximateProduct} with the second operand's shortest decimal already read ({@link shortestPair}): the
 * double nearest the exact product, or undefined where double-double arithmetic does not decide it.
 *
 * @example
 * ```ts
 * const [hi, lo] = shortestPair(0.0469)!;
 * approximateProductWith(170597.26211294835, hi, lo); // 8001.011593097278
 * ```
 */
export function approximateProductWith(a: number, bHi: number, bLo: number): number | undefined {
  if (!shortestDecimal(a)) return undefined;
  ddMul(dd.hi, dd.lo, bHi, bLo);
  return decidedDouble(dd.hi, dd.lo);
}
