import { type Decimal, decimal, div, ONE } from '../core/decimal';
import { EmissionsError, shownInput } from '../core/errors';
import type { FxProvider } from '../datasets/types';
import { notice, type Notice } from './notices';
import { currencySuggestion } from './suggestions';

export interface ExchangeRate {
  /** Units of the factor currency per unit of the spend currency. */
  rate: Decimal;
  /** Year of the annual average rates used (null when no conversion was needed). */
  rateYear: number | null;
  notices: Notice[];
}

/** The year with rates for both currencies: `year` itself, else the nearest earlier one, else the nearest later one. */
function rateYear(fx: FxProvider, from: string, to: string, year: number): number | undefined {
  const common = fx.years(from).filter((candidate) => fx.rate(to, candidate) !== undefined);
  if (common.includes(year)) return year;
  const earlier = common.filter((candidate) => candidate < year);
  if (earlier.length > 0) return earlier[earlier.length - 1];
  return common.find((candidate) => candidate > year);
}

/**
 * The rate that converts money from the spend currency to the factor currency: the annual averages of the spend
 * year (rates are units per USD, so the cross rate is `rate(to) / rate(from)`). A missing year falls back to the
 * nearest earlier year with rates, with a notice.
 *
 * @throws {@link EmissionsError} `unsupported_currency`.
 */
export function exchangeRate(from: string, to: string, year: number, fx: FxProvider): ExchangeRate {
  if (from === to) return { rate: ONE, rateYear: null, notices: [] };
  for (const [currency, path] of [
    [from, 'money_unit'],
    [to, 'money_unit'],
  ] as const) {
    if (fx.years(currency).length === 0) {
      throw new EmissionsError(
        'unsupported_currency',
        currency === from
          ? `Currency '${shownInput(currency)}' is not supported by the exchange rates (${fx.info.id}).${currencySuggestion(currency, fx.currencies)}`
          : `The factor currency '${currency}' has no exchange rates in ${fx.info.id}.`,
        { path, valid_values: [...fx.currencies] },
      );
    }
  }
  const used = rateYear(fx, from, to, year);
  if (used === undefined) {
    throw new EmissionsError(
      'unsupported_currency',
      `No year has exchange rates for both '${from}' and '${to}'.`,
      {
        path: 'money_unit',
      },
    );
  }
  const rate = div(decimal(fx.rate(to, used) as number), decimal(fx.rate(from, used) as number));
  const notices =
    used === year
      ? []
      : [
          notice(
            'fx_year_fallback',
            'warning',
            `No ${year} exchange rate between ${from} and ${to} in ${fx.info.source_dataset}; the ${used} annual average was used.`,
          ),
        ];
  for (const currency of [from, to]) {
    const months = fx.partialYear?.(currency, used);
    if (months !== undefined)
      notices.push(
        notice(
          'fx_partial_year',
          'warning',
          `The ${used} rate of ${currency} averages only ${months}, not the whole year: no full-year ${used} average of ${currency} is available.`,
        ),
      );
  }
  return { rate, rateYear: used, notices };
}
