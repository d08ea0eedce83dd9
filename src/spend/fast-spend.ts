/**
 * The spend activity in double-double arithmetic (issue 40 item 2): `money × basic share × rate × deflator` decided
 * to the double the exact decimals give (spend.ts's exact path rounds the multiplier and the activity at 34 significant
 * digits, 5 × 10^-34 each, far inside the bound of core/double-double.ts), without big.js, BigInt or allocation.
 */
import {
  dd,
  ddDivide,
  ddMul,
  decidedDouble,
  EXACT_POWERS_OF_TEN,
  shortest,
  shortestDecimal,
  shortestPlaces,
} from '../core/double-double';

/** A positive decimal as a double-double `[hi, lo]` (core/decimal.ts `doubleDouble`). */
export type DoubleDouble = readonly [number, number];

/** Largest whole number a term of the basic share may reach: four of them still sum exactly in doubles. */
const MAX_TERM = 2 ** 51;

/**
 * The coefficient and places of the margin last read by {@link readMargin}: fields of one object, as a double stored
 * in a module variable is boxed anew on each store.
 */
const margin = { coefficient: 0, places: 0 };

/** A margin's shortest decimal as a signed whole coefficient and places ≤ 15; false where it has none. */
function readMargin(value: number): boolean {
  if (value === 0) {
    margin.coefficient = 0;
    margin.places = 0;
    return true;
  }
  const places = shortestPlaces(value < 0 ? -value : value);
  if (places < 0 || places > 15) return false;
  margin.coefficient = value < 0 ? -shortest.coefficient : shortest.coefficient;
  margin.places = places;
  return true;
}

/**
 * `1 − tax − trade − transport` of margins given as numbers, each read as its shortest decimal, left in `dd` as a
 * double-double: exactly a whole number over 10^places, divided once. False where a margin's decimal is longer than
 * 15 places or 2^50, or the share is not positive (the exact path then, which reports margins summing to 1 or more).
 *
 * @example
 * ```ts
 * decidedShare(0.1, 0.2, 0.05); // true; dd.hi is 0.65
 * ```
 */
export function decidedShare(tax: number, trade: number, transport: number): boolean {
  if (!readMargin(tax)) return false;
  const taxCoefficient = margin.coefficient;
  const taxPlaces = margin.places;
  if (!readMargin(trade)) return false;
  const tradeCoefficient = margin.coefficient;
  const tradePlaces = margin.places;
  if (!readMargin(transport)) return false;
  const places = Math.max(taxPlaces, tradePlaces, margin.places);
  const whole = EXACT_POWERS_OF_TEN[places] as number;
  const taxTerm = taxCoefficient * (EXACT_POWERS_OF_TEN[places - taxPlaces] as number);
  const tradeTerm = tradeCoefficient * (EXACT_POWERS_OF_TEN[places - tradePlaces] as number);
  const transportTerm = margin.coefficient * (EXACT_POWERS_OF_TEN[places - margin.places] as number);
  // Each term below 2^51 is a whole double computed exactly, and so is the sum of four of them (below 2^53).
  if (Math.abs(taxTerm) > MAX_TERM || tradeTerm > MAX_TERM || transportTerm > MAX_TERM) return false;
  const share = whole - taxTerm - tradeTerm - transportTerm;
  if (!(share > 0)) return false;
  if (places === 0) {
    dd.hi = share;
    dd.lo = 0;
  } else ddDivide(share, 0, whole);
  return true;
}

/**
 * The double nearest `money × share × rate × deflator`, the spend activity in the factor currency at factor-year
 * prices (money read as its shortest decimal; share, rate and deflator double-doubles within 2^-104 of the exact
 * decimals), or undefined where double-double arithmetic does not decide it (the exact path then). The money's
 * double-double is left in {@link moneyPair} for {@link decidedMoney}.
 *
 * @example
 * ```ts
 * decidedActivity(1000, 0.65, 0, [1.25, 0], [0.5, 0]); // 406.25
 * ```
 */
export function decidedActivity(
  money: number,
  shareHi: number,
  shareLo: number,
  rate: DoubleDouble,
  deflator: DoubleDouble,
): number | undefined {
  return decidedActivityOf(money, shareHi, shareLo, rate[0], rate[1], deflator[0], deflator[1]);
}

/**
 * {@link decidedActivity} with the rate and deflator as the two numbers of each double-double: for a caller that
 * keeps them beside the other numbers a row reads (the CLI's kept parts), so no array is reached per row.
 *
 * @example
 * ```ts
 * decidedActivityOf(1000, 0.65, 0, 1.25, 0, 0.5, 0); // 406.25
 * ```
 */
export function decidedActivityOf(
  money: number,
  shareHi: number,
  shareLo: number,
  rateHi: number,
  rateLo: number,
  deflatorHi: number,
  deflatorLo: number,
): number | undefined {
  if (!shortestDecimal(money)) return undefined;
  moneyPair.hi = dd.hi;
  moneyPair.lo = dd.lo;
  ddMul(dd.hi, dd.lo, shareHi, shareLo);
  ddMul(dd.hi, dd.lo, rateHi, rateLo);
  ddMul(dd.hi, dd.lo, deflatorHi, deflatorLo);
  return decidedDouble(dd.hi, dd.lo);
}

/** The money of the last {@link decidedActivity} that read it, as a double-double. */
const moneyPair = { hi: 0, lo: 0 };

/**
 * The double nearest `money × rate` (`money_in_factor_currency`), for the money the last {@link decidedActivity}
 * read; undefined where that does not decide it.
 *
 * @example
 * ```ts
 * decidedActivity(1000, 1, 0, [1.25, 0], [1, 0]);
 * decidedMoney([1.25, 0]); // 1250
 * ```
 */
export function decidedMoney(rate: DoubleDouble): number | undefined {
  ddMul(moneyPair.hi, moneyPair.lo, rate[0], rate[1]);
  return decidedDouble(dd.hi, dd.lo);
}
