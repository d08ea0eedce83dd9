import type { Notice } from '../../spend/notices';

/**
 * The output row every format writes: the input columns that pass through, then {@link RESULT_COLUMNS}. The
 * pipeline builds these rows; a writer (csv/, jsonl/, parquet/) only turns them into bytes.
 */

/**
 * What a computed row adds to its input columns. Written as it is (a type, so it reads as a record of result
 * columns): every writer reads it by {@link RESULT_COLUMNS} name, and a column it leaves out is written empty (null).
 */
export type RowOutcome = {
  co2e: number;
  co2e_unit: string;
  activity_value: number;
  activity_unit: string;
  /** Null when the row asked for `audit_trail: disabled`. */
  factor_id: string | null;
  factor_name: string | null;
  factor_source: string | null;
  /** The factor's region (location code) and year, for an auditor to look the factor up; null without audit trail. */
  factor_region?: string | null;
  factor_year?: number | null;
  /** Spend: units of the factor currency per unit of `money_unit`, and the year of the rates (null: no conversion). */
  exchange_rate?: number | null;
  exchange_rate_year?: number | null;
  /** Spend: each margin applied and where it came from (`supplied`, `default`, `none`). */
  tax_margin_applied?: number | null;
  tax_margin_source?: string | null;
  trade_margin_applied?: number | null;
  trade_margin_source?: string | null;
  transport_margin_applied?: number | null;
  transport_margin_source?: string | null;
  /** Spend: the inflation applied (price level of the spend year over the factor year, minus 1). */
  inflation_applied?: number | null;
  /** Cloud: the electricity (kWh, PUE included) behind a use-phase estimate; null for embodied rows. */
  energy_kwh?: number | null;
  notices: Notice[];
};

/** The columns every output row gets after its input columns, in order. */
export const RESULT_COLUMNS = [
  'co2e',
  'co2e_unit',
  'activity_value',
  'activity_unit',
  'factor_id',
  'factor_name',
  'factor_source',
  'factor_region',
  'factor_year',
  'exchange_rate',
  'exchange_rate_year',
  'tax_margin_applied',
  'tax_margin_source',
  'trade_margin_applied',
  'trade_margin_source',
  'transport_margin_applied',
  'transport_margin_source',
  'inflation_applied',
  'energy_kwh',
  'notices',
  'error_code',
  'error_message',
  'error_detail',
] as const;

/**
 * An error's long detail, kept out of its message (at most 200 characters) so nothing is lost: the values that
 * would have been accepted (`valid_values`, as the HTTP error body has them), or a CSV record's cells past the header
 * (`extra_fields`). The `error_detail` column: this object in JSON Lines, as compact JSON text in CSV and Parquet.
 */
export interface ErrorDetail {
  valid_values?: ReadonlyArray<string | number>;
  extra_fields?: readonly string[];
}

/**
 * The result columns of a row: an outcome, or an error. A row adapter may declare columns of its own
 * (`RowAdapter.resultColumns`, e.g. billing's `co2e_*`): then its rows carry those fields instead.
 */
export type ResultFields = Readonly<Record<string, unknown>>;

/**
 * The generic result columns of a row from its outcome, or from its error (every other column empty).
 *
 * @example
 * ```ts
 * resultFields(undefined, { code: 'invalid_request', message: "'money' is required" }).error_code; // 'invalid_request'
 * ```
 */
export function resultFields(
  outcome: RowOutcome | undefined,
  error?: { code: string; message: string; detail?: ErrorDetail | undefined },
): ResultFields {
  return {
    co2e: outcome?.co2e ?? null,
    co2e_unit: outcome?.co2e_unit ?? null,
    activity_value: outcome?.activity_value ?? null,
    activity_unit: outcome?.activity_unit ?? null,
    factor_id: outcome?.factor_id ?? null,
    factor_name: outcome?.factor_name ?? null,
    factor_source: outcome?.factor_source ?? null,
    factor_region: outcome?.factor_region ?? null,
    factor_year: outcome?.factor_year ?? null,
    exchange_rate: outcome?.exchange_rate ?? null,
    exchange_rate_year: outcome?.exchange_rate_year ?? null,
    tax_margin_applied: outcome?.tax_margin_applied ?? null,
    tax_margin_source: outcome?.tax_margin_source ?? null,
    trade_margin_applied: outcome?.trade_margin_applied ?? null,
    trade_margin_source: outcome?.trade_margin_source ?? null,
    transport_margin_applied: outcome?.transport_margin_applied ?? null,
    transport_margin_source: outcome?.transport_margin_source ?? null,
    inflation_applied: outcome?.inflation_applied ?? null,
    energy_kwh: outcome?.energy_kwh ?? null,
    notices: outcome?.notices ?? [],
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
    error_detail: error?.detail ?? null,
  };
}

/** One output row: the input's values (pass-through columns) and its result. */
export interface OutputRow {
  input: Readonly<Record<string, unknown>>;
  result: ResultFields;
}

export interface EncoderOptions {
  /** The input columns the output keeps, in order (CSV needs them up front; JSON Lines keeps each row's keys). */
  columns: readonly string[];
  /** The result columns, in order, when the row adapter declares its own; default {@link RESULT_COLUMNS}. */
  resultColumns?: readonly string[];
  /** CSV: prefix pass-through cells that a spreadsheet would run as a formula with `'` (the default). */
  neutraliseFormulas: boolean;
  /**
   * CSV: the input is comma-separated CSV whose columns, in order, are the kept {@link EncoderOptions.columns}, so a
   * record's text (given to {@link RowEncoder.line}) may be copied for them when it is what they would be written as.
   */
  copiesRecords?: boolean;
}

/** Turns rows into the output's text. `header` is written once, before the first chunk. */
export interface RowEncoder {
  readonly header: string;
  /**
   * One row's text, with its line end. `record`: the input record's text, when it was read whole from a CSV input
   * (the CSV encoder may copy it: {@link EncoderOptions.copiesRecords}).
   */
  line(input: Readonly<Record<string, unknown>>, result: ResultFields, record?: string): string;
  /**
   * CSV with the generic {@link RESULT_COLUMNS}: one row's input cells as {@link RowEncoder.line} writes them,
   * comma-separated, without the comma before the result cells (which the caller writes itself, piece by piece, so
   * that no line string is built per row). `''` when the output keeps no input column.
   */
  resultInput?(input: Readonly<Record<string, unknown>>, record?: string): string;
  /** Rows' text: their lines, in order. */
  encode(rows: readonly OutputRow[]): string;
}

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/** The input columns an output keeps: those not named like a result column (which the result replaces). */
export const passThroughColumns = (
  columns: readonly string[],
  resultColumns?: readonly string[],
): string[] => {
  const names = resultColumns === undefined ? RESULT_NAMES : new Set(resultColumns);
  return columns.filter((name) => !names.has(name));
};
