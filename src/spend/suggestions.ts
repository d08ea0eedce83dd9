import { didYouMean } from '../core/errors';
import { closestSpellings } from '../core/spelling';
import type { ClassificationsProvider } from '../datasets/types';

/**
 * "Did you mean" for the spend request's codes, currencies and regions, and the currency aliases. Kept apart from
 * the calculator: only error paths (and the one alias lookup) reach it.
 */

/** Currency names in use that are not ISO 4217 codes, with the code they mean (`rmb`, renminbi → `cny`). */
export const CURRENCY_ALIASES: Readonly<Record<string, string>> = Object.freeze({ rmb: 'cny' });

/**
 * A request's `money_unit` as the exchange-rate tables key it: lower case, an alias replaced by its ISO code.
 *
 * @example
 * ```ts
 * canonicalCurrency('RMB'); // 'cny'
 * ```
 */
export const canonicalCurrency = (currency: string): string => {
  const lower = currency.toLowerCase();
  return Object.prototype.hasOwnProperty.call(CURRENCY_ALIASES, lower)
    ? (CURRENCY_ALIASES[lower] as string)
    : lower;
};

/** ` Did you mean: …?` with the currencies closest to an unsupported one (`eru` → `eur`), or nothing. */
export const currencySuggestion = (currency: string, currencies: readonly string[]): string =>
  didYouMean(closestSpellings(currencies, currency));

/** ` Did you mean: …?` with the spend regions closest to one without factors, or nothing. */
export const regionSuggestion = (region: string, regions: readonly string[]): string =>
  didYouMean(closestSpellings(regions, region));

/** The names of classification types in messages. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  isic4: 'an ISIC Rev. 4 code',
  nace2: 'a NACE Rev. 2 code',
  naics2017: 'a NAICS 2017 code',
};

/**
 * What to add to `unknown_classification_code` for a code unknown in its type: the type(s) that do know it (an
 * ISIC request with the NACE-only code `8621` is told that `nace2` takes it), then the closest codes of its own type.
 * `normalise` gives a code's canonical spelling in a type (NACE dotted).
 *
 * @example
 * ```ts
 * codeSuggestion('isic4', '8621', classifications, normaliseCode);
 * // " It is a NACE Rev. 2 code: send classification_type 'nace2'. Did you mean: 8620?"
 * ```
 */
export function codeSuggestion(
  type: string,
  code: string,
  classifications: ClassificationsProvider,
  normalise: (type: string, code: string) => string,
): { hint: string; otherTypes: string[]; suggestions: string[] } {
  const otherTypes = classifications.types.filter(
    (other) => other !== type && classifications.products(other, normalise(other, code)) !== undefined,
  );
  const hint =
    otherTypes.length === 0
      ? ''
      : ` It is ${otherTypes.map((other) => TYPE_NAMES[other] ?? `a ${other} code`).join(' and ')}: send classification_type ${otherTypes.map((other) => `'${other}'`).join(' or ')}.`;
  const codes = classifications.codes?.(type) ?? [];
  const suggestions = closestSpellings(codes, normalise(type, code));
  return { hint: hint + didYouMean(suggestions), otherTypes, suggestions };
}
