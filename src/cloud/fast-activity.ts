/**
 * The use-phase activities in double-double arithmetic (issue 40 item 2): a request's quantities multiplied as exact
 * decimals would be, decided to the double the exact path gives, without big.js, BigInt or allocation.
 */
import { dd, ddDivide, ddMul, decidedDouble, scaledDecimal } from '../core/double-double';
import { shortProduct } from '../core/short-product';
import { SAME_UNIT, type UnitRatio } from '../core/units';
import type { Quantity } from './use-phase-calculator';

/**
 * dd × the quantity's shortest decimal × times / per, in double-double arithmetic (core/double-double.ts); false
 * where that declines or the quantity is an exact decimal (the exact path then).
 */
function timesQuantity(value: Quantity, { times, per }: UnitRatio): boolean {
  if (value === 1 && times === 1 && per === 1) return true;
  if (typeof value !== 'number') return false;
  const hi = dd.hi;
  const lo = dd.lo;
  if (!scaledDecimal(value, times, per)) return false;
  ddMul(hi, lo, dd.hi, dd.lo);
  return true;
}

/**
 * The double nearest the exact product `a × aRatio × b × bRatio × c / per` of a request's quantities (each read as
 * its shortest decimal): a short product (core/short-product.ts) where it is a decimal the doubles hold, else in
 * double-double arithmetic; undefined where neither decides it or a quantity is an exact decimal (the exact decimal
 * path then). A use-phase spec's {@link UsePhaseSpec.fastActivity}.
 *
 * @example
 * ```ts
 * decidedProduct(90, hoursRatio('min'), 4); // 6 (CPU-hours: 4 CPUs for 90 minutes)
 * decidedProduct(16, gigabytesRatio('GiB'), 24, hoursRatio('hour'), 2); // 824.633720832 (GB-hours)
 * ```
 */
export function decidedProduct(
  a: Quantity,
  aRatio: UnitRatio,
  b: Quantity = 1,
  bRatio: UnitRatio = SAME_UNIT,
  c: Quantity = 1,
  per: UnitRatio = SAME_UNIT,
): number | undefined {
  if (typeof a === 'number' && typeof b === 'number' && typeof c === 'number') {
    const short = shortProduct(a, aRatio, b, bRatio, c, per);
    if (short === short) return short;
  }
  dd.hi = 1;
  dd.lo = 0;
  if (!timesQuantity(a, aRatio) || !timesQuantity(b, bRatio) || !timesQuantity(c, SAME_UNIT))
    return undefined;
  if (per.per !== 1) ddDivide(dd.hi, dd.lo, per.per);
  return decidedDouble(dd.hi, dd.lo);
}
