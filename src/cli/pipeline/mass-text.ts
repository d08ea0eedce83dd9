import { compare, type Decimal, decimal, div, roundSignificant, toPlainString } from '../../core/decimal';

/**
 * Masses as a reader takes them in: four significant digits (integer digits never dropped), thousands grouped
 * with commas, in tonnes from 1,000 kg up and in kg below. The exact figures are in the `--summary` JSON.
 */

/** Significant digits shown. */
export const SHOWN_DIGITS = 4;

/** `1234567.891` → `1,235,000`; `0.000123456` → `0.0001235`; a decimal's text, rounded and grouped. */
export function roundedText(value: Decimal | number | string, digits = SHOWN_DIGITS): string {
  const text = toPlainString(roundSignificant(decimal(value as never), digits));
  const [whole = '0', fraction] = text.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digitsOnly = sign === '' ? whole : whole.slice(1);
  const grouped = digitsOnly.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Whether a total in kg is shown in tonnes (1,000 kg or more). */
export const inTonnes = (kg: Decimal | number | string): boolean =>
  compare(decimal(kg as never), decimal(1000)) >= 0;

/**
 * A mass in kg, shown in the unit `tonnes` says (default: tonnes from 1,000 kg).
 *
 * @example
 * ```ts
 * massText('13109927.4666890335481455'); // '13,110 t'
 * massText('85.418'); // '85.42 kg'
 * massText('85.418', true); // '0.08542 t'
 * ```
 */
export function massText(kg: Decimal | number | string, tonnes = inTonnes(kg)): string {
  return tonnes ? `${roundedText(div(decimal(kg as never), decimal(1000)))} t` : `${roundedText(kg)} kg`;
}
