import type { Notice } from '../spend/notices';

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

/** A row type: how its cells become a request, how a result becomes columns, and which summary groups it joins. */
export interface RowKind {
  readonly name: 'spend' | 'cloud';
  /**
   * Computes one row.
   *
   * @throws {EmissionsError} for a bad row.
   */
  compute(
    values: Record<string, unknown>,
    source: 'csv' | 'jsonl',
  ): { outcome: RowOutcome; groups: Record<string, string> };
  /**
   * Set when worker threads can compute these rows by building the same kind themselves (from the embedded
   * default datasets); without it, rows are computed in the main thread.
   */
  readonly worker?: 'spend' | 'cloud';
  /** Dataset files (`--datasets`) the workers merge over the defaults, in order, to build the same datasets. */
  readonly workerDatasets?: readonly string[];
  /** Summary groupings, e.g. `{ provider: 'by provider' }`. */
  readonly groupings: Readonly<Record<string, string>>;
}
