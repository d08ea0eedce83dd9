import { EmissionsError } from '../../core/errors';
import { withDatasetPreset } from '../../embedded/presets';
import type { SpendDatasets } from '../../datasets/types';
import { normaliseCode } from '../../spend/classification';
import { outputNumber, sharedNumber } from '../../core/estimate';
import {
  type FastSpendRow,
  fastSpendRow,
  type PriceEntry,
  type RateEntry,
  type SpendParts,
  spendNotices,
  spendParts,
  type UnsuppliedMargins,
} from '../../spend/spend';
import type { EstimateTemplate } from '../../core/estimate';
import { numberText } from '../../core/number-text';
import type { Notice } from '../../spend/notices';
import { plainDecimal, plainDecimalText, resultTextCell } from '../formats/index';
import { SpendRequest } from '../../spend/spend.schema';
import { cellValue, pickFields } from './cells';
import type { FileFormat } from '../formats/records';
import type { ColumnSpec, CsvResult, RowAdapter, RowOutcome } from '../pipeline/row-adapter';
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
    csvResult(values, source, reading = {}) {
      return spendCsvResult(values, source, reading.decimalComma, datasets);
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

/**
 * What a factor selection's rows share in their CSV cells: the cells from `activity_unit` to `factor_year`, the
 * notices cell of a row whose other parts add none, and the summary group of the last request spelling seen.
 */
interface SelectionCells {
  readonly unit: string;
  readonly factor: string;
  readonly notices: string;
  type: string;
  code: string;
  category: string;
}

/** The cells each cached part of a row makes, per part (the parts are the calculator's, shared between rows). */
const selectionCells = new WeakMap<EstimateTemplate, SelectionCells>();
const rateCells = new WeakMap<RateEntry, string>();
const priceCells = new WeakMap<PriceEntry, string>();
const unsuppliedCells = new WeakMap<UnsuppliedMargins, string>();

/** The CSV cell of a result number, as the writer writes it (null: empty). */
const numberCell = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : plainDecimal(value);

/** The notices cell: their codes, `;`-separated, as the CSV writer writes the notices column. */
const noticesCell = (notices: readonly Notice[]): string =>
  notices.length === 0 ? '' : resultTextCell(notices.map((notice) => notice.code).join(';'));

/** Supplied margins' cells, per number: a ledger's margins repeat (a few hundred values). Cleared when full. */
const marginTexts = new Map<number, string>();
const MAX_MARGIN_TEXTS = 4096;

function marginCell(value: number): string {
  let text = marginTexts.get(value);
  if (text === undefined) {
    if (marginTexts.size >= MAX_MARGIN_TEXTS) marginTexts.clear();
    text = numberCell(value);
    marginTexts.set(value, text);
  }
  return text;
}

function selectionCellsOf(row: FastSpendRow, activity: Record<string, unknown>): SelectionCells {
  const { template, estimate } = row;
  let cells = selectionCells.get(template);
  if (cells === undefined) {
    const factor = estimate.emission_factor;
    cells = {
      unit: resultTextCell(estimate.co2e_unit),
      factor: [
        resultTextCell(estimate.activity_data.activity_unit),
        resultTextCell(factor?.id ?? null),
        resultTextCell(factor?.name ?? null),
        resultTextCell(factor?.source ?? null),
        resultTextCell(factor?.region ?? null),
        numberCell(factor?.year),
      ].join(','),
      notices: noticesCell(row.selectionNotices),
      type: '',
      code: '',
      category: '',
    };
    selectionCells.set(template, cells);
  }
  // The group is the request's spelling of its classification (normalised): one selection may be spelt several ways.
  const { classification_type: type, classification_code: code } = activity;
  if (typeof type !== 'string' || typeof code !== 'string' || type !== cells.type || code !== cells.code) {
    cells.category = categoryOf(activity, estimate.emission_factor?.name ?? null);
    cells.type = typeof type === 'string' ? type : '';
    cells.code = typeof code === 'string' && typeof type === 'string' ? code : '';
  }
  return cells;
}

function marginsCells(row: FastSpendRow): string {
  const { unsupplied } = row;
  if (unsupplied === undefined)
    return `${marginCell(row.tax)},supplied,${marginCell(row.trade)},supplied,${marginCell(row.transport)},supplied`;
  let cells = unsuppliedCells.get(unsupplied);
  if (cells === undefined) {
    const { origins } = unsupplied.applied;
    cells = [
      numberCell(unsupplied.tax),
      resultTextCell(origins.tax_margin),
      numberCell(unsupplied.trade),
      resultTextCell(origins.trade_margin),
      numberCell(unsupplied.transport),
      resultTextCell(origins.transport_margin),
    ].join(',');
    unsuppliedCells.set(unsupplied, cells);
  }
  return cells;
}

/**
 * A spend row's result cells as the CSV writer writes {@link spendOutcome}'s columns, from {@link fastSpendRow}: the
 * cells of each cached part (selection, exchange rate, margins, price change) made once per part, only the two
 * numbers of the row written per row. Undefined where the calculator's fast path declines, for a credit note, and
 * for any row that fails (then {@link RowAdapter.compute} reports it).
 */
function spendCsvResult(
  values: Record<string, unknown>,
  source: FileFormat,
  decimalComma: boolean | undefined,
  datasets: SpendDatasets,
): CsvResult | undefined {
  let row: FastSpendRow | undefined;
  let request: SpendRequest;
  try {
    request = spendRequest(values, source, decimalComma);
    if (typeof request.money === 'number' && request.money < 0) return undefined;
    row = fastSpendRow(request, datasets);
  } catch {
    return undefined;
  }
  if (row === undefined) return undefined;
  const { estimate, rate, price } = row;
  const selection = selectionCellsOf(row, request.activity as unknown as Record<string, unknown>);
  let rateText = rateCells.get(rate);
  if (rateText === undefined) {
    rateText = `${numberCell(rate.number)},${numberCell(rate.exchange.rateYear)}`;
    rateCells.set(rate, rateText);
  }
  let priceText = priceCells.get(price);
  if (priceText === undefined) {
    priceText = numberCell(price.applied);
    priceCells.set(price, priceText);
  }
  const marginNotices = row.unsupplied === undefined ? NO_NOTICES : row.unsupplied.applied.notices;
  const notices =
    rate.exchange.notices.length === 0 && marginNotices.length === 0 && price.prices.notices.length === 0
      ? selection.notices
      : noticesCell([
          ...row.selectionNotices,
          ...rate.exchange.notices,
          ...marginNotices,
          ...price.prices.notices,
        ]);
  const co2e = estimate.co2e;
  const co2eText = numberText(co2e);
  const cells = `${plainDecimalText(co2eText)},${selection.unit},${numberCell(estimate.activity_data.activity_value)},${selection.factor},${rateText},${marginsCells(row)},${priceText},,${notices},,,`;
  return { cells, co2e, co2eText, groups: { category: selection.category } };
}

const NO_NOTICES: readonly Notice[] = [];
