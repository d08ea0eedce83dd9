import type { Notice } from '../../spend/notices';

/**
 * The output row every format writes: the input columns that pass through, then {@link RESULT_COLUMNS}. The
 * pipeline builds these rows; a writer (csv/, jsonl/, parquet/) only turns them into bytes.
 */

/** What a computed row adds to its input columns. */
export interface RowOutcome {
  co2e: number;
  co2e_unit: string;
  activity_value: number;
  activity_unit: string;
  /** Null when the row asked for `audit_trail: disabled`. */
  factor_id: string | null;
  factor_name: string | null;
  factor_source: string | null;
  notices: Notice[];
}

/** The columns every output row gets after its input columns, in order. */
export const RESULT_COLUMNS = [
  'co2e',
  'co2e_unit',
  'activity_value',
  'activity_unit',
  'factor_id',
  'factor_name',
  'factor_source',
  'notices',
  'error_code',
  'error_message',
] as const;

/** The result columns of a row: an outcome, or an error. */
export type ResultFields = { [K in (typeof RESULT_COLUMNS)[number]]: unknown };

export function resultFields(
  outcome: RowOutcome | undefined,
  error?: { code: string; message: string },
): ResultFields {
  return {
    co2e: outcome?.co2e ?? null,
    co2e_unit: outcome?.co2e_unit ?? null,
    activity_value: outcome?.activity_value ?? null,
    activity_unit: outcome?.activity_unit ?? null,
    factor_id: outcome?.factor_id ?? null,
    factor_name: outcome?.factor_name ?? null,
    factor_source: outcome?.factor_source ?? null,
    notices: outcome?.notices ?? [],
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
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
  /** CSV: prefix pass-through cells that a spreadsheet would run as a formula with `'` (the default). */
  neutraliseFormulas: boolean;
}

/** Turns rows into the output's text. `header` is written once, before the first chunk. */
export interface RowEncoder {
  readonly header: string;
  encode(rows: readonly OutputRow[]): string;
}

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/** The input columns an output keeps: those not named like a result column (which the result replaces). */
export const passThroughColumns = (columns: readonly string[]): string[] =>
  columns.filter((name) => !RESULT_NAMES.has(name));
