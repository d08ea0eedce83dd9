import {
  applyCostRatio,
  BILLING_COLUMNS,
  type BillingEstimator,
  type BillingFormat,
  type CostRatios,
  createBillingEstimator,
  groupValue,
  rowHeader,
} from '../../billing/index';
import type { LineFacts } from '../../billing/classify';
import { type BillingColumns, notEstimated } from '../../billing/estimate';
import type { MissingColumn } from '../../billing/formats';
import {
  type BillingSummary,
  type BillingSummaryState,
  createBillingSummary,
  isBillingSummaryState,
} from '../../billing/summary';
import { EmissionsError } from '../../core/errors';
import type { CloudDatasets } from '../../datasets/types';
import type { RowAdapter, RowTally } from '../pipeline/row-adapter';
import { HAS_NUMBER_TEXT } from '../formats/jsonl/reader';
import { jsonNumbers, pointDecimals } from './cells';

/** Options of `billing FILE` that shape the rows (the rest are the pipeline's). */
export interface BillingAdapterOptions {
  /** The export format; detected from each file's header when omitted. */
  exportFormat?: BillingFormat;
  /** `--unknown cost-ratio`: the ratios of a first pass over the file (pipeline/billing-passes.ts). */
  ratios?: CostRatios;
  /** `--group-by`: extra summary groupings (`resource`, `tag:KEY`, `account`, `service`, `region`, `month`). */
  groupBy?: readonly string[];
}

/**
 * Billing export rows (`co2e-engine billing FILE`): each row goes through the `co2e-engine/billing` estimator (the
 * format detected from its columns once per header) and gets the eight `co2e_*` columns instead of the generic
 * result columns. Rows are never failures: a row that cannot be estimated says why in `co2e_reason`. Summary
 * groups: provider, service, region, account, and the reasons rows were not estimated.
 *
 * @example
 * ```ts
 * const rows = billingRows(defaultDatasets);
 * rows.compute({ 'lineItem/UsageType': 'BoxUsage:t3.micro', 'lineItem/UsageAmount': '1' }, 'csv').fields;
 * ```
 */
export function billingRows(datasets: CloudDatasets, options: BillingAdapterOptions = {}): RowAdapter {
  let lastKey: string | undefined;
  let estimator: BillingEstimator | undefined;
  /** The header's columns hold nested values as JSON text (our own CSV/Parquet output of a JSON Lines export). */
  let nestedText = false;
  const groupBy = options.groupBy ?? [];
  const create = (header: string[]) =>
    createBillingEstimator(datasets, header, {
      ...(options.exportFormat !== undefined && { format: options.exportFormat }),
      ...(groupBy.length > 0 && { groupBy }),
    });
  let lastKeys: string[] = [];
  /** Whether a row has the last row's columns, in order, none nested: then its header is the last one. */
  const sameFlatColumns = (values: Record<string, unknown>): boolean => {
    let index = 0;
    for (const key in values) {
      const value = values[key];
      if (key !== lastKeys[index] || (value !== null && typeof value === 'object')) return false;
      index++;
    }
    return index === lastKeys.length;
  };
  const estimatorFor = (values: Record<string, unknown>): BillingEstimator => {
    // A CSV file's rows share one header: checked key by key, without building it per row.
    if (estimator !== undefined && sameFlatColumns(values)) return estimator;
    const header = rowHeader(values);
    const key = header.join('\u0000');
    lastKeys = Object.keys(values);
    if (estimator === undefined || key !== lastKey) {
      try {
        estimator = create(header);
        nestedText = false;
      } catch (error) {
        // A header that matches no format may be a nested export written as CSV or Parquet (a GCP JSON Lines
        // export's `service`, `location` as JSON text): read with its JSON cells parsed back, it may match one.
        const unnested = unnestedCells(values);
        if (!(error instanceof EmissionsError) || unnested === values) throw error;
        estimator = create(rowHeader(unnested));
        nestedText = true;
      }
      lastKey = key;
    }
    return estimator;
  };
  return {
    name: 'billing',
    rowOptions: {
      '--export-format': options.exportFormat ?? 'detected',
      '--unknown': options.ratios === undefined ? 'off' : 'cost-ratio',
    },
    groupings: {
      provider: 'by provider',
      service: 'by service',
      region: 'by region',
      account: 'by account',
      ...Object.fromEntries(groupBy.map((key) => [`group-by ${key}`, `by ${key}`])),
      not_estimated: 'not estimated, by reason (rows)',
      unclassified: 'unclassified (service, unit), by rows',
    },
    resultColumns: BILLING_COLUMNS,
    resultTypes: { co2e_kg: 'DOUBLE', co2e_kwh: 'DOUBLE', co2e_activity_value: 'DOUBLE' },
    errorFields: billingErrorFields,
    newTally: () => billingTally(groupBy),
    compute(given, _source, reading = {}) {
      // Decimal commas (a `;` export saved by a spreadsheet): the estimator reads numbers with a point.
      const values = numberTexts(reading.decimalComma === true ? pointDecimals(given) : given);
      const active = estimatorFor(values);
      // The appended columns only: the writer takes the input columns from the record itself.
      const { columns, facts } = active.columns(nestedText ? unnestedCells(values) : values);
      const row = options.ratios === undefined ? columns : applyCostRatio(columns, facts, options.ratios);
      const fields: Record<string, unknown> = {};
      for (const name of BILLING_COLUMNS) fields[name] = row[name];
      const estimated = row.co2e_status === 'estimated';
      const groups: Record<string, string> = estimated
        ? {
            provider: facts.provider,
            service: facts.service || '(none)',
            region: facts.region || '(none)',
            account: facts.account || '(none)',
          }
        : { not_estimated: row.co2e_reason };
      if (estimated) for (const key of groupBy) groups[`group-by ${key}`] = groupValue(facts, key);
      else if (row.co2e_reason === 'unknown_usage_type' || row.co2e_reason === 'unknown_unit')
        groups['unclassified'] = `${facts.service || '(none)'} / ${facts.unit || '(no unit)'}`;
      return {
        outcome: {
          co2e: row.co2e_kg ?? 0,
          co2e_unit: 'kg',
          activity_value: row.co2e_activity_value ?? 0,
          activity_unit: row.co2e_activity_unit ?? '',
          factor_id: row.co2e_factor_id,
          factor_name: null,
          factor_source: null,
          notices: [],
        },
        groups,
        fields,
        tallied: { row, facts, format: active.format, missing: active.missing } satisfies Tallied,
      };
    },
  };
}

/** What a computed bill row adds to the run's tally: its columns, its facts, and its estimator's format. */
interface Tallied {
  row: BillingColumns;
  facts: LineFacts;
  format: string;
  missing: readonly MissingColumn[];
}

/**
 * A billing run's tally as plain data: the bill's summary so far, the format and missing columns of the first row's
 * estimator (as the summary of the whole output names them), and whether every row is in it.
 */
export interface BillingTallyState {
  whole: boolean;
  format?: string;
  missing?: readonly MissingColumn[];
  summary: BillingSummaryState;
}

const isBillingTallyState = (value: unknown): value is BillingTallyState => {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    typeof state.whole === 'boolean' &&
    (state.format === undefined || typeof state.format === 'string') &&
    (state.missing === undefined ||
      (Array.isArray(state.missing) &&
        state.missing.every(
          (entry: unknown) =>
            typeof entry === 'object' &&
            entry !== null &&
            typeof (entry as MissingColumn).text === 'string' &&
            typeof (entry as MissingColumn).column === 'string',
        ))) &&
    isBillingSummaryState(state.summary)
  );
};

/**
 * The tally of a billing run's rows ({@link RowAdapter.newTally}): the bill's summary (src/billing/summary.ts) built
 * row by row as each is estimated, merged exactly across chunks, workers and resumed runs. A row it cannot take
 * (a record that could not be read, whose cells the summary would read from the output) makes it not whole.
 */
function billingTally(groupBy: readonly string[]): RowTally & { state(): BillingTallyState } {
  // The format and missing columns are the result's, given when it is made (billingSummaryOf): not used here.
  const summary = createBillingSummary('', { groupBy });
  let whole = true;
  let format: string | undefined;
  let missing: readonly MissingColumn[] | undefined;
  return {
    add(tallied) {
      const { row, facts } = tallied as Tallied;
      if (format === undefined) {
        format = (tallied as Tallied).format;
        missing = (tallied as Tallied).missing;
      }
      summary.add(row, facts);
    },
    miss() {
      whole = false;
    },
    get whole() {
      return whole;
    },
    merge(other) {
      const state = isTally(other) ? other.state() : other;
      if (!isBillingTallyState(state)) {
        whole = false;
        return;
      }
      if (!state.whole) whole = false;
      if (format === undefined && state.format !== undefined) {
        format = state.format;
        missing = state.missing;
      }
      summary.merge(state.summary);
    },
    state() {
      return {
        whole,
        ...(format !== undefined && { format }),
        ...(missing !== undefined && { missing: [...missing] }),
        summary: summary.state(),
      };
    },
  };
}

const isTally = (value: unknown): value is RowTally =>
  typeof value === 'object' && value !== null && typeof (value as RowTally).state === 'function';

/**
 * The bill's summary from a billing run's tally, or undefined when the tally does not hold every row (the command
 * then reads the output back). `exportFormat` names a bill of no rows, as `--export-format` does.
 *
 * @example
 * ```ts
 * const summary = billingSummaryOf(tally, ['account']);
 * if (summary !== undefined) console.log(summary.total_kg);
 * ```
 */
export function billingSummaryOf(
  tally: RowTally,
  groupBy: readonly string[],
  exportFormat?: string,
): BillingSummary | undefined {
  const state = tally.state();
  if (!tally.whole || !isBillingTallyState(state) || !state.whole) return undefined;
  const summary = createBillingSummary(state.format ?? exportFormat ?? 'unknown', {
    groupBy,
    ...(state.missing !== undefined && { missing: state.missing }),
  });
  summary.merge(state.summary);
  return summary.result();
}

/**
 * A row whose text cells holding a JSON object or array (a nested JSON Lines value that CSV or Parquet output wrote
 * as JSON text) are parsed back; the row itself when it has none.
 *
 * @example
 * ```ts
 * unnestedCells({ service: '{"description":"Compute Engine"}', cost: '0.76' }).service; // { description: 'Compute Engine' }
 * ```
 */
export function unnestedCells(values: Record<string, unknown>): Record<string, unknown> {
  let result: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== 'string' || !(value.startsWith('{') || value.startsWith('['))) continue;
    try {
      const parsed = JSON.parse(value) as unknown;
      if (typeof parsed !== 'object' || parsed === null) continue;
      result ??= { ...values };
      result[key] = parsed;
    } catch {
      // not JSON: the text as it is
    }
  }
  return result ?? values;
}

/**
 * A JSON Lines row whose numbers kept as text (`3600.0`, `1.50`, a 20-digit project id) are that text, as a CSV cell
 * would be, for the estimator (which reads every field as text); the row itself when the reader kept none. The
 * writer still writes the record as read.
 *
 * @example
 * ```ts
 * numberTexts(parseJsonLine('{"cost": 1.50}', 1).values); // { cost: '1.50' }
 * ```
 */
export const numberTexts = (values: Record<string, unknown>): Record<string, unknown> =>
  HAS_NUMBER_TEXT in values ? (jsonNumbers(values, String) as Record<string, unknown>) : values;

/** The result fields of a record that could not be read: not estimated, with the reader's message. */
export const billingErrorFields = (code: string, message: string): Record<string, unknown> => ({
  ...notEstimated(`${code}: ${message}`),
});
