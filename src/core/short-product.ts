/**
 * Short products (issue 40 item 2): a request's activity, a product of its quantities (each read as its shortest
 * decimal) and unit ratios, is mostly itself a short decimal: 12.5 GB for 36 h is 450 GB-hours. Held exactly as a
 * whole coefficient × 10^-places in doubles, its nearest double is one correctly rounded division, the same double
 * the exact decimal path gives, and its shortest decimal is known without reading the double back (see
 * {@link rememberShortest}). Where a step would leave whole doubles (2^53) or the decimals, the caller takes the
 * double-double path (fast-activity.ts), then the exact one.
 */
import {
  EXACT_POWERS_OF_TEN,
  dd,
  ddDivide,
  rememberShortest,
  shortest,
  shortestPlaces,
} from './double-double';
import { SAME_UNIT, type UnitRatio } from './units';

/** 2^53: whole doubles below it are exact, and so are their products that stay below it. */
const WHOLE_LIMIT = 9_007_199_254_740_992;
/**
 * Below 2^50, a quotient by a whole residue that is not whole cannot round to a whole number: it is at least
 * 1 / residue from one, and half its unit in the last place is below that.
 */
const QUOTIENT_LIMIT = 2 ** 50;
/**
 * A quotient C / D of whole numbers that is not a double's rounding boundary is at least 2^-53 / D of itself from
 * one: with D up to 10^9, over 10^-25, twice the exact path's rounding of quotients.
 */
const QUOTIENT_DIVISOR_LIMIT = 1e9;
/** The most places a quantity's shortest decimal is looked for at: request quantities have few. */
const MAX_QUANTITY_PLACES = 9;
/** Fifteen digits: a decimal with no more is the shortest decimal of its nearest double (15 digits round-trip). */
const SHORT_LIMIT = 1e15;

/** The product so far: coefficient × 10^-places exactly, to be divided by `residue` at the end. */
const product = { coefficient: 1, places: 0, residue: 1 };

/** Multiplies the product by a whole double; false where it would leave the whole doubles. */
function timesWhole(factor: number): boolean {
  const coefficient = product.coefficient * factor;
  if (!(coefficient < WHOLE_LIMIT)) return false;
  product.coefficient = coefficient;
  return true;
}

/** Multiplies the product by 1 / ratio.per: × scale, `shift` places further, the residue kept for the end. */
function dividedBy({ residue, scale, shift }: UnitRatio): boolean {
  if (scale !== 1 && !timesWhole(scale)) return false;
  product.places += shift;
  product.residue *= residue;
  return true;
}

/**
 * Multiplies the product by a positive quantity's shortest decimal (at most {@link MAX_QUANTITY_PLACES} places) and
 * its unit's ratio; false where that leaves the short products.
 */
function timesQuantity(value: number, ratio: UnitRatio): boolean {
  const places = shortestPlaces(value, MAX_QUANTITY_PLACES);
  if (places < 0 || !timesWhole(shortest.coefficient)) return false;
  product.places += places;
  if (ratio.times !== 1 && !timesWhole(ratio.times)) return false;
  return ratio.per === 1 || dividedBy(ratio);
}

/**
 * The double nearest the exact product `a × aRatio × b × bRatio × c / per` of positive request quantities (each read
 * as its shortest decimal; whole ratios), where it is a quotient of whole numbers the doubles hold exactly (a decimal,
 * or one divided by the 3 or 9 of minutes and seconds): one correctly rounded division gives it. NaN where it is not
 * (the caller's double-double path then).
 * Where the decimal has at most 15 digits it is also the double's shortest decimal, and is remembered as such, so the
 * estimate's product with its factor does not read it back.
 *
 * @example
 * ```ts
 * shortProduct(90, hoursRatio('min'), 4, unitRatio(1), 1, unitRatio(1)); // 6 (CPU-hours: 4 CPUs for 90 minutes)
 * ```
 */
export function shortProduct(
  a: number,
  aRatio: UnitRatio,
  b: number,
  bRatio: UnitRatio,
  c: number,
  per: UnitRatio,
): number {
  product.coefficient = 1;
  product.places = 0;
  product.residue = 1;
  if (
    !(a > 0 && b > 0 && c > 0) ||
    !timesQuantity(a, aRatio) ||
    !timesQuantity(b, bRatio) ||
    (c !== 1 && !timesQuantity(c, SAME_UNIT)) ||
    (per.per !== 1 && !dividedBy(per))
  ) {
    return Number.NaN;
  }
  let { coefficient } = product;
  const { places, residue } = product;
  if (places > 22) return Number.NaN;
  const power = EXACT_POWERS_OF_TEN[places] as number;
  if (residue !== 1) {
    const quotient = coefficient / residue;
    if (!(coefficient < QUOTIENT_LIMIT)) return Number.NaN;
    if (Math.floor(quotient) !== quotient) {
      // Not a decimal (90.1 min in hours): the quotient of two whole doubles, rounded once. The exact path rounds it
      // to 25 digits first (5 × 10^-26 of it); below QUOTIENT_DIVISOR_LIMIT it is further than that from every
      // boundary between doubles, so both round it to the same double.
      const divisor = power * residue;
      return divisor <= QUOTIENT_DIVISOR_LIMIT ? coefficient / divisor : Number.NaN;
    }
    coefficient = quotient;
  }
  const value = coefficient / power;
  if (coefficient < SHORT_LIMIT) {
    if (places === 0) {
      dd.hi = coefficient;
      dd.lo = 0;
    } else ddDivide(coefficient, 0, power);
    rememberShortest(value);
  }
  return value;
}
