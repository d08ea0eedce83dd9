/**
 * `co2e-engine/billing`: cloud billing exports (FOCUS 1.0–1.2, AWS CUR legacy and 2.0, the GCP BigQuery billing
 * export, Azure cost details) in, the same rows with carbon estimates out. Pure: no file system, no CLI code, and no
 * embedded factor data (pass the datasets, e.g. `cloudDatasets` from `co2e-engine/datasets/cloud`). The
 * classification table and CCF's replication factors are this entry's own data (datasets/billing/).
 */
import { EmissionsError } from '../core/errors';
import type { CloudDatasets } from '../datasets/types';
import { isNestedColumn, NESTED_DEPTH } from './classify';
import {
  addToRatios,
  applyCostRatio,
  type BilledRow,
  type BillingOptions,
  createBillingEstimator,
  type LineFacts,
  newCostRatios,
  notEstimated,
  rowHeader,
} from './estimate';
import type { BillingFormat } from './formats';
import { type BillingSummary, createBillingSummary } from './summary';

export {
  BILLING_COLUMNS,
  COST_RATIO_REASONS,
  addToRatios,
  applyCostRatio,
  createBillingEstimator,
  newCostRatios,
  rowHeader,
  type BilledRow,
  type BillingColumns,
  type BillingEstimator,
  type BillingOptions,
  type CostRatios,
  type LineFacts,
} from './estimate';
export {
  BILLING_FORMATS,
  detectBillingFormat,
  formatColumns,
  FORMATS,
  type BillingFormat,
  type FormatSpec,
  type MissingColumn,
} from './formats';
export {
  compileRules,
  REASON_CODES,
  RULE_KINDS,
  type BillingRule,
  type BillingRulesTable,
  type ReasonCode,
  type ReplicationFactorsTable,
} from './rules';
export { GROUP_BY_KEYS, groupValue, parseGroupBy } from './groups';
export {
  createBillingSummary,
  UNCLASSIFIED_SHOWN,
  type BillingSummary,
  type BillingSummaryBuilder,
  type BillingSummaryOptions,
  type GroupTotal,
} from './summary';
export { parseUsageUnit, type UsageUnit } from './units';

/**
 * Reads every member of a nested column (its objects and arrays, to {@link NESTED_DEPTH} levels), so a getter that
 * throws there throws here, for the row alone, and not inside the estimator. The values stay the caller's own.
 */
function readThrough(value: object, depth: number): void {
  if (depth >= NESTED_DEPTH || !(Array.isArray(value) || isNestedColumn(value))) return;
  for (const inner of Object.values(value) as unknown[])
    if (typeof inner === 'object' && inner !== null) readThrough(inner, depth + 1);
}

/**
 * A copy of a row's own columns (the row the result gives back; nested values are the caller's own), or undefined
 * when it is not an object or reading a column throws (a getter, at any level the estimator reads): such a row is
 * `invalid_row`, and the rows beside it are still estimated.
 */
function readableRow(row: unknown): Record<string, unknown> | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
  try {
    const copy: Record<string, unknown> = { ...row };
    for (const name in copy) {
      const value = copy[name];
      if (typeof value === 'object' && value !== null) readThrough(value, 1);
    }
    return copy;
  } catch {
    return undefined;
  }
}

/** The summary facts of an `invalid_row`: nothing could be read. */
const invalidRowFacts = (): LineFacts => ({
  provider: 'unknown',
  service: '',
  region: '',
  account: '',
  cost: null,
  costUnreadable: false,
  currency: '',
  category: 'Other',
  rule: null,
  resource: '',
  month: '',
  unit: '',
  tags: {},
});

/** Result of {@link estimateBilling}. */
export interface BillingResult {
  format: BillingFormat;
  /** One per input row, in order: the input's columns unchanged, then the `co2e_*` columns. */
  rows: BilledRow[];
  summary: BillingSummary;
}

/**
 * Estimates every row of a billing export: the same rows, in order, each with `co2e_status`, `co2e_reason`,
 * `co2e_kg`, `co2e_kwh`, `co2e_calculator`, `co2e_activity_value`, `co2e_activity_unit`, `co2e_factor_id`
 * appended, and a summary whose totals are the sums of the rows. The format is `options.format`, else detected from
 * the first row's columns.
 *
 * @example
 * ```ts
 * import { estimateBilling } from 'co2e-engine/billing';
 * import { cloudDatasets } from 'co2e-engine/datasets/cloud';
 * const { rows, summary } = estimateBilling(focusRows, cloudDatasets);
 * summary.total_kg; // = the sum of rows[i].co2e_kg
 * ```
 * @throws {@link EmissionsError} `invalid_request` when `rows` is not an array, the format cannot be detected or the
 *   rules are not valid; `missing_dataset` when the datasets lack a part every bill reads. A row never throws: it
 *   becomes `not_estimated` with a reason (`invalid_row` for a row that is not an object or cannot be read).
 */
export function estimateBilling(
  rows: readonly Record<string, unknown>[],
  datasets: CloudDatasets,
  options?: BillingOptions & { header?: readonly string[] },
): BillingResult {
  if (!Array.isArray(rows)) {
    throw new EmissionsError(
      'invalid_request',
      `rows must be an array of row objects; got ${rows === null ? 'null' : typeof rows}.`,
      { path: 'rows' },
    );
  }
  const readable = rows.map(readableRow);
  const first = readable.find((row) => row !== undefined);
  const header = options?.header ?? (first === undefined ? [] : rowHeader(first));
  const estimator = createBillingEstimator(datasets, header, options);
  const estimated: { row: BilledRow; facts: LineFacts }[] = readable.map((row) => {
    if (row === undefined) return { row: { ...notEstimated('invalid_row') }, facts: invalidRowFacts() };
    const { columns, facts } = estimator.columns(row);
    return { row: Object.assign(row, columns), facts };
  });
  if (options?.unknown === 'cost-ratio') {
    const ratios = newCostRatios();
    for (const { row, facts } of estimated) addToRatios(ratios, row, facts);
    for (const entry of estimated) entry.row = applyCostRatio(entry.row, entry.facts, ratios);
  }
  const summary = createBillingSummary(estimator.format, {
    ...(options?.groupBy !== undefined && { groupBy: options.groupBy }),
    missing: estimator.missing,
  });
  for (const { row, facts } of estimated) summary.add(row, facts);
  return { format: estimator.format, rows: estimated.map(({ row }) => row), summary: summary.result() };
}
