import { EmissionsError } from '../../core/errors';
import { withDatasetPreset } from '../../embedded/presets';
import type { SpendDatasets } from '../../datasets/types';
import { normaliseCode } from '../../spend/classification';
import { outputNumber, sharedNumber } from '../../core/estimate';
import { type SpendParts, spendNotices, spendParts } from '../../spend/spend';
import { SpendRequest } from '../../spend/spend.schema';
import { cellValue, pickFields } from './cells';
import type { FileFormat } from '../formats/records';
import type { ColumnSpec, RowAdapter, RowOutcome } from '../pipeline/row-adapter';
import { notice } from '../../spend/notices';

/** Flat columns that make up the request's `activity` object. */
export const SPEND_ACTIVITY_COLUMNS = ['classification_type', 'classification_code', 'activity_id'] as const;
/** The other request columns, as the spend request schema names them. */
export const SPEND_REQUEST_COLUMNS: readonly string[] = Object.keys(SpendRequest.shape).filter(
  (key) => key !== 'activity',
);

/**
 * The result columns of a spend row: {@link estimateOutcome}'s, then the money steps an auditor follows (exchange
 * rate and its year, each margin and its source, inflation) and the notices, with the numbers calculateSpend's
 * details give. Built from the calculator's parts (spendParts), as this runs once per ledger row: the details no
 * column shows are never computed, and the notices are read, not copied, since the row is written before the next.
 */
function spendOutcome(parts: SpendParts): RowOutcome {
  const { estimate, margins, exchange, prices } = parts;
  const factor = estimate.emission_factor;
  return {
    co2e: estimate.co2e,
    co2e_unit: estimate.co2e_unit,
    activity_value: estimate.activity_data.activity_value,
    activity_unit: estimate.activity_data.activity_unit,
    factor_id: factor?.id ?? null,
    factor_name: factor?.name ?? null,
    factor_source: factor?.source ?? null,
    factor_region: factor?.region ?? null,
    factor_year: factor?.year ?? null,
    exchange_rate: sharedNumber(exchange.rate, undefined),
    exchange_rate_year: exchange.rateYear,
    tax_margin_applied: outputNumber(margins.values.tax_margin, undefined),
    tax_margin_source: margins.origins.tax_margin,
    trade_margin_applied: outputNumber(margins.values.trade_margin, undefined),
    trade_margin_source: margins.origins.trade_margin,
    transport_margin_applied: outputNumber(margins.values.transport_margin, undefined),
    transport_margin_source: margins.origins.transport_margin,
    inflation_applied: sharedNumber(prices.applied, undefined),
    notices: spendNotices(parts),
  };
}

/**
 * The spend columns for the header check: the activity (classification type and code, or an activity id), the
 * year, region, amount and currency; the margins are optional. Aliases are names ledgers and ERP exports use.
 */
export const SPEND_COLUMNS: ColumnSpec = {
  required: [
    [['classification_type', 'classification_code'], ['activity_id']],
    [['spend_year']],
    [['spend_region']],
    [['money']],
    [['money_unit']],
  ],
  known: [...SPEND_ACTIVITY_COLUMNS, ...SPEND_REQUEST_COLUMNS],
  objects: ['activity'],
  aliases: {
    amount: 'money',
    net_amount: 'money',
    spend: 'money',
    currency: 'money_unit',
    currency_code: 'money_unit',
    year: 'spend_year',
    fiscal_year: 'spend_year',
    country: 'spend_region',
    country_code: 'spend_region',
    region: 'spend_region',
    classification: 'classification_type',
    classification_system: 'classification_type',
  },
};

/** A credit note estimated under `--credits net`: said in the row, as its emissions are negative. */
const CREDIT_NOTE = notice(
  'credit_note',
  'info',
  'A negative amount (a credit note): estimated for the amount without its sign, then negated (--credits net).',
);

/** `-x`, but 0 for 0 (never `-0`, which would print as such). */
const negated = (value: number) => 0 - value;

/** Characters of a factor's name shown beside its code in the end report. */
const NAME_CHARS = 40;

/** The summary group of a row: its classification, and the name of the factor it got, shortened. */
function categoryOf(activity: Record<string, unknown>, factorName: string | null): string {
  const name =
    factorName === null || factorName === ''
      ? ''
      : ` · ${factorName.length > NAME_CHARS ? `${factorName.slice(0, NAME_CHARS - 1)}…` : factorName}`;
  if (typeof activity.activity_id === 'string') return `activity_id ${activity.activity_id}${name}`;
  const type = String(activity.classification_type).toLowerCase();
  return `${type} ${normaliseCode(type, String(activity.classification_code))}${name}`;
}

/**
 * Spend rows: the columns of SPEND_ACTIVITY_COLUMNS and SPEND_REQUEST_COLUMNS make the request (a JSON Lines row
 * may give `activity` as an object instead); other columns pass through. Summary: by classification code.
 */
export function spendRows(datasets: SpendDatasets): RowAdapter {
  return {
    name: 'spend',
    groupings: { category: 'by classification' },
    columns: SPEND_COLUMNS,
    compute(values, source, reading = {}) {
      const request = spendRequest(values, source, reading.decimalComma);
      const activity = request.activity as unknown as Record<string, unknown>;
      // A credit note: the calculator refuses a negative amount (as the hosted API does), so the CLI refuses it too
      // unless asked, and under --credits net estimates the amount without its sign and negates the result, exact
      // as emissions are proportional to the amount.
      const credit = typeof request.money === 'number' && request.money < 0;
      if (credit && reading.credits !== 'net') {
        throw new EmissionsError(
          'invalid_request',
          "'money' is negative (a credit note?); use --credits net to estimate it as negative emissions.",
          { path: 'money' },
        );
      }
      if (credit) request.money = negated(request.money);
      const outcome = spendOutcome(spendParts(request, datasets));
      return {
        outcome: credit
          ? {
              ...outcome,
              co2e: negated(outcome.co2e),
              activity_value: negated(outcome.activity_value),
              notices: [...outcome.notices, CREDIT_NOTE],
            }
          : outcome,
        groups: { category: categoryOf(activity, outcome.factor_name) },
      };
    },
    failureHint: (values, source, error, reading = {}) =>
      cedaHint(datasets, () => spendRequest(values, source, reading.decimalComma), error),
  };
}

/** A spend row's request: the request columns, and `activity` from its columns or (JSON Lines) its object. */
function spendRequest(
  values: Record<string, unknown>,
  source: FileFormat,
  decimalComma?: boolean,
): SpendRequest {
  const request = pickFields(values, SPEND_REQUEST_COLUMNS, source, decimalComma);
  const flat = pickFields(values, SPEND_ACTIVITY_COLUMNS, source, decimalComma);
  const nested = source === 'jsonl' ? cellValue(values.activity, 'activity', source) : undefined;
  if (nested !== undefined && Object.keys(flat).length > 0) {
    throw new EmissionsError(
      'invalid_request',
      `Give either 'activity' or ${SPEND_ACTIVITY_COLUMNS.map((name) => `'${name}'`).join('/')}, not both.`,
      { path: 'activity' },
    );
  }
  const activity = nested ?? (Object.keys(flat).length > 0 ? flat : undefined);
  if (activity !== undefined) request.activity = activity;
  return request as SpendRequest;
}

/** The hint for rows that have no factor in other sets but one in CEDA. */
export const CEDA_HINT = '--datasets ceda';

/** The datasets with the CEDA preset over them, per datasets: built on the first row that needs them. */
const withCeda = new WeakMap<SpendDatasets, SpendDatasets>();

/**
 * `--datasets ceda` when a row failed for lack of a factor (`no_emission_factors_found`) and the same row with the
 * CEDA preset over the run's datasets is answered; else undefined (also when the run already uses CEDA).
 *
 * @example
 * ```ts
 * cedaHint(defaultDatasets, () => request, error); // '--datasets ceda' for a Japanese row EXIOBASE lacks
 * ```
 */
export function cedaHint(
  datasets: SpendDatasets,
  request: () => SpendRequest,
  error: unknown,
): string | undefined {
  if (!(error instanceof EmissionsError) || error.error_code !== 'no_emission_factors_found')
    return undefined;
  let ceda = withCeda.get(datasets);
  if (ceda === undefined) {
    ceda = withDatasetPreset(datasets, 'ceda');
    withCeda.set(datasets, ceda);
  }
  if (datasets.spendFactors.info.id === ceda.spendFactors.info.id) return undefined;
  try {
    spendParts(request(), ceda);
    return CEDA_HINT;
  } catch {
    return undefined;
  }
}
