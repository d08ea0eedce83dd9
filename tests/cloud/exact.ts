import BigJs from 'big.js';

/**
 * Test-side decimal arithmetic, independent of src/core/decimal.ts: a private big.js with 40 decimal places for
 * divisions and half-up rounding (the precision DESIGN.md promises), used to work out expected values from the
 * formulas where a division is involved (minutes → hours, embodied ÷ 35040).
 */
export const Big = BigJs();
Big.DP = 40;
Big.RM = 1;

export type BigValue = BigJs.Big;

/** The nearest JS number to an exact decimal (what the engine returns). */
export const toNumber = (value: BigValue): number => Number(value.toString());

/**
 * The co2e an estimate publishes (issue 39): the exact decimal product of the activity value and factor as they are
 * published (their shortest decimal text), rounded once to a number.
 */
export const publishedProduct = (activityValue: number | BigValue, factor: number | BigValue): number =>
  toNumber(new Big(numberOf(activityValue)).times(numberOf(factor)));

const numberOf = (value: number | BigValue): number => (typeof value === 'number' ? value : toNumber(value));

/** |a − b| / max(|a|, |b|), in decimal; 0 when both are 0. */
export function relativeDifference(a: number | BigValue, b: number | BigValue): number {
  const x = new Big(a);
  const y = new Big(b);
  const scale = x.abs().gt(y.abs()) ? x.abs() : y.abs();
  if (scale.eq(0)) return 0;
  return toNumber(x.minus(y).abs().div(scale));
}
