import { deepFreeze, frozenSet } from '../core/freeze';
import { CLOUD_CALCULATORS } from '../cloud/calculators';
import type { InstanceEstimate } from '../cloud/instance';
import {
  add,
  type Decimal,
  decimal,
  div,
  isPositive,
  mul,
  ONE,
  toNumber,
  toPlainString,
} from '../core/decimal';
import { EmissionsError } from '../core/errors';
import { parseRequest } from '../core/validate';
import type { Estimate } from '../core/estimate';
import { requireParts } from '../datasets/require';
import type { CloudDatasets, CloudRegion } from '../datasets/types';
import {
  type Classification,
  classifyLine,
  fieldReader,
  KIND_CATEGORY,
  type LineFacts,
  readFacts,
  readTags,
  text,
} from './classify';
import {
  BILLING_FORMATS,
  type BillingFormat,
  detectBillingFormat,
  FORMATS,
  formatSpec,
  headerIndex,
  type MissingColumn,
  missingColumns,
  resolveColumns,
} from './formats';
import { type Quantity, quantify } from './quantify';
import { type CompiledRules, compileRules, type ReasonCode } from './rules';
import { parseGroupBy } from './groups';
import defaultRules from '../../datasets/billing/rules.json';
import defaultReplication from '../../datasets/billing/replication-factors.json';

/** The columns appended to every row, in this order. */
export const BILLING_COLUMNS = /* @__PURE__ */ deepFreeze([
  'co2e_status',
  'co2e_reason',
  'co2e_kg',
  'co2e_kwh',
  'co2e_calculator',
  'co2e_activity_value',
  'co2e_activity_unit',
  'co2e_factor_id',
] as const);

/** The appended columns of one row. Numbers are null when the row is not estimated. */
export interface BillingColumns {
  /** `estimated` or `not_estimated`. */
  co2e_status: 'estimated' | 'not_estimated';
  /**
   * Not estimated: the reason code ({@link REASON_CODES}). Estimated: the conversions applied, `; `-separated
   * (`replication_factor=2`, `gb_month_as_720h(2026-11)`, `gb_month_as_730h`, `gib_as_1.073741824_gb`,
   * `cost_ratio…`), or empty.
   */
  co2e_reason: string;
  co2e_kg: number | null;
  /** Electricity, kWh (PUE included); null for embodied-only or cost-ratio estimates. */
  co2e_kwh: number | null;
  /** `instance`, `cpu`, `memory`, `storage`, `networking`, `cost-ratio`; null when not estimated. */
  co2e_calculator: string | null;
  co2e_activity_value: number | null;
  co2e_activity_unit: string | null;
  /** The factor id(s) used, `; `-separated. */
  co2e_factor_id: string | null;
}

/** An input row with the appended columns. */
export type BilledRow = Record<string, unknown> & BillingColumns;

export type { LineFacts } from './classify';

export interface BillingOptions {
  /** The export format; detected from the header when omitted. */
  format?: BillingFormat;
  /** Your own classification table (the shape of `datasets/billing/rules.json`); default the embedded one. */
  rules?: unknown;
  /** Your own replication factors (the shape of `datasets/billing/replication-factors.json`). */
  replicationFactors?: unknown;
  /**
   * `cost-ratio`: rows of unknown usage are estimated from the kg per cost of the estimated rows of the same
   * service category (CCF's method), labelled in `co2e_calculator` and `co2e_reason`. Default `off`.
   */
  unknown?: 'off' | 'cost-ratio';
  /** Tag keys whose values the facts carry (for `groupBy: ['tag:KEY']`); none by default (tags are not parsed). */
  tagKeys?: readonly string[];
  /**
   * Extra summary groupings: `resource`, `account`, `service`, `region`, `month`, `provider`, `tag:KEY`
   * (FOCUS `Tags`, CUR `resourceTags/user:KEY`, Azure `Tags`, GCP `labels`). Implies their tag keys.
   */
  groupBy?: readonly string[];
}

/** Reasons the cost-ratio estimate may replace (CCF estimates unknown usage by cost). */
export const COST_RATIO_REASONS: ReadonlySet<string> = /* @__PURE__ */ frozenSet([
  'unknown_usage_type',
  'unknown_instance_type',
  'unknown_unit',
]);

export { rowHeader } from './classify';

/**
 * Whether every cell of a row is empty (`''`, blanks, null): a spreadsheet's `,,,,` line. Checked for rows not
 * estimated only, and it stops at the first cell with a value.
 */
function isEmptyRow(row: Record<string, unknown>): boolean {
  for (const key in row) {
    const value = row[key];
    if (value !== null && value !== undefined && (typeof value !== 'string' || value.trim() !== ''))
      return false;
  }
  return true;
}

/** The appended columns of a row that is not estimated, with its reason. */
export const notEstimated = (reason: ReasonCode | string): BillingColumns => ({
  co2e_status: 'not_estimated',
  co2e_reason: reason,
  co2e_kg: null,
  co2e_kwh: null,
  co2e_calculator: null,
  co2e_activity_value: null,
  co2e_activity_unit: null,
  co2e_factor_id: null,
});

/** One row's estimator, bound to a format, a header, datasets and rules. */
export interface BillingEstimator {
  readonly format: BillingFormat;
  /** Columns of the format the header lacks that would have helped, each with what the reader does instead. */
  readonly missing: readonly MissingColumn[];
  /** Classifies and estimates one row: the same row with the appended columns, and its facts for a summary. */
  estimate(row: Record<string, unknown>): { row: BilledRow; facts: LineFacts };
  /**
   * What {@link BillingEstimator.estimate} appends, without copying the row: for a writer that writes the input
   * columns from the row itself (a copy of a wide export row per line costs more than estimating it).
   */
  columns(row: Record<string, unknown>): { columns: BillingColumns; facts: LineFacts };
  /**
   * The summary facts of a row already estimated (its `co2e_calculator` gives the category when the export has no
   * `ServiceCategory`), without estimating it again: for a summary read back from an output file.
   */
  factsOf(row: Record<string, unknown>): LineFacts;
  /**
   * The header's columns that {@link BillingEstimator.estimate} and {@link BillingEstimator.factsOf} read (the
   * format's columns and the tag columns): a row of these alone (and the `co2e_*` columns, for `factsOf`) is
   * estimated and summarised as the whole row is, so a reader can skip the others.
   */
  readonly reads: readonly string[];
}

/** The parts every bill reads: the regions (each line's record) and what the use-phase calculators read. */
const BILLING_PARTS = /* @__PURE__ */ (() => [
  ...new Set(
    (['cpu', 'memory', 'storage', 'networking'] as const).flatMap((id) => CLOUD_CALCULATORS[id].parts),
  ),
])();

const compiledDefault: { rules?: CompiledRules } = {};
function rulesFor(options: BillingOptions | undefined): CompiledRules {
  if (options?.rules === undefined && options?.replicationFactors === undefined) {
    return (compiledDefault.rules ??= compileRules(defaultRules, defaultReplication));
  }
  return compileRules(options.rules ?? defaultRules, options.replicationFactors ?? defaultReplication);
}

/**
 * An estimator for rows of one billing export. The format is `options.format`, else detected from `header`.
 *
 * @example
 * ```ts
 * const estimator = createBillingEstimator(cloudDatasets, Object.keys(rows[0]!));
 * const { row } = estimator.estimate(rows[0]!); // row.co2e_kg, row.co2e_status, …
 * ```
 * @throws {@link EmissionsError} `invalid_request` when the header matches no format (listing them) or the rules are
 *   not valid; `missing_dataset` when the datasets lack the regions or coefficients every bill reads.
 */
export function createBillingEstimator(
  datasets: CloudDatasets,
  header: readonly string[],
  options?: BillingOptions,
): BillingEstimator {
  requireParts(datasets, BILLING_PARTS, 'co2e-engine/billing');
  const id = options?.format ?? detectBillingFormat(header);
  if (id === undefined) {
    throw new EmissionsError('invalid_request', unknownHeaderMessage(header), {
      path: 'format',
      valid_values: [...BILLING_FORMATS],
    });
  }
  const format = formatSpec(id);
  if (format === undefined) {
    throw new EmissionsError('invalid_request', `'${String(id)}' is not a billing format.`, {
      path: 'format',
      valid_values: ['focus', 'aws-cur', 'aws-cur2', 'gcp', 'azure'],
    });
  }
  const columns = resolveColumns(format, header);
  const rules = rulesFor(options);
  const tagKeys = [
    ...new Set([...(options?.tagKeys ?? []), ...parseGroupBy(options?.groupBy ?? []).tagKeys]),
  ];
  const line = (row: Record<string, unknown>): { columns: BillingColumns; facts: LineFacts } => {
    const classified = classifyLine(fieldReader(row, columns), format, rules, datasets);
    if (tagKeys.length > 0) classified.facts.tags = readTags(row, format, columns, tagKeys);
    if (classified.line === undefined) {
      const reason = isEmptyRow(row) ? 'empty_row' : classified.reason;
      return { columns: notEstimated(reason), facts: classified.facts };
    }
    const quantified = quantify(classified.line, rules);
    if (quantified.quantity === undefined)
      return { columns: notEstimated(quantified.reason), facts: classified.facts };
    return {
      columns: compute(classified.line, quantified.quantity, quantified.notes, datasets),
      facts: classified.facts,
    };
  };
  const tagPrefix = format.tags?.kind === 'columns' ? format.tags.prefix : undefined;
  const reads = [
    ...new Set([
      ...Object.values(columns).flat(),
      ...(tagPrefix === undefined ? [] : header.filter((name) => name.startsWith(tagPrefix))),
    ]),
  ];
  return {
    format: id,
    missing: missingColumns(format, header),
    reads,
    estimate(row) {
      const { columns: appended, facts } = line(row);
      return { row: { ...row, ...appended }, facts };
    },
    columns: line,
    factsOf(row) {
      const { facts, serviceCategory } = readFacts(fieldReader(row, columns), format);
      if (tagKeys.length > 0) facts.tags = readTags(row, format, columns, tagKeys);
      const calculator = text(row.co2e_calculator);
      if (serviceCategory === '' && KIND_CATEGORY[calculator] !== undefined)
        facts.category = KIND_CATEGORY[calculator]!;
      return facts;
    },
  };
}

/** The supported formats, as an error names them. */
const FORMAT_LIST =
  'FOCUS 1.0–1.2 (AWS, Microsoft, Google Cloud, Oracle), AWS CUR legacy or 2.0, GCP BigQuery billing export, Azure cost details';

/**
 * Why a header matches no format: the formats and the columns each looks for; an OCI cost report (not FOCUS) said
 * plainly.
 */
function unknownHeaderMessage(header: readonly string[]): string {
  const index = headerIndex(header);
  if (index.has('lineitem/referenceno') || index.has('cost/mycost'))
    return "This is an OCI cost report: not supported. Export OCI's FOCUS report instead (OCI Console: Billing, Cost and Usage Reports, FOCUS).";
  const looked = FORMATS.map(
    (format) => `${format.id}: ${format.detect.map((names) => names.join('|')).join(', ')}`,
  ).join('; ');
  return `The header matches no billing export format (${FORMAT_LIST}). Columns looked for: ${looked}.`;
}

/**
 * Step 3 (classify → quantify → compute): one call of the registry's calculator (its `resolved` entry) with the
 * region record of step 1 and the exact quantities of step 2, and the appended columns.
 */
function compute(
  line: Classification,
  quantity: Quantity,
  notes: string[],
  datasets: CloudDatasets,
): BillingColumns {
  const { provider, region } = line;
  const { audit_trail, average_vcpu_utilization } = REQUEST_DEFAULTS;
  // Each request is written out, not spread from a shared `{ region, audit_trail }`: V8 makes a literal that adds
  // keys after a spread on its slow path, about 1 µs a key, on every line (bench/cli.md, "the first rows of each key").
  const columns = (calculator: string, result: Estimate) =>
    estimateColumns(calculator, result, region, notes);
  try {
    switch (quantity.calculator) {
      case 'instance': {
        const input = {
          region: region.region,
          audit_trail,
          instance: quantity.instance,
          duration: quantity.duration,
          duration_unit: quantity.time,
          average_vcpu_utilization,
        };
        const result = CLOUD_CALCULATORS.instance.resolved({ provider, region, input }, datasets);
        return instanceColumns(result, notes);
      }
      case 'cpu': {
        const input = {
          region: region.region,
          audit_trail,
          cpu_count: quantity.cpus,
          duration: quantity.duration,
          duration_unit: quantity.time,
          average_vcpu_utilization,
        };
        return columns('cpu', CLOUD_CALCULATORS.cpu.resolved({ provider, region, input }, datasets));
      }
      case 'memory': {
        const input = {
          region: region.region,
          audit_trail,
          data: quantity.gigabytes,
          data_unit: 'GB' as const,
          duration: ONE,
          duration_unit: quantity.time,
        };
        return columns('memory', CLOUD_CALCULATORS.memory.resolved({ provider, region, input }, datasets));
      }
      case 'storage': {
        const input = {
          region: region.region,
          audit_trail,
          storage_type: quantity.storageType,
          data: quantity.gigabytes,
          data_unit: 'GB' as const,
          duration: quantity.duration,
          duration_unit: quantity.time,
          ...(quantity.replication !== 1 && { replication_factor: quantity.replication }),
        };
        return columns('storage', CLOUD_CALCULATORS.storage.resolved({ provider, region, input }, datasets));
      }
      case 'networking': {
        const input = {
          region: region.region,
          audit_trail,
          data: quantity.gigabytes,
          data_unit: 'GB' as const,
        };
        return columns(
          'networking',
          CLOUD_CALCULATORS.networking.resolved({ provider, region, input }, datasets),
        );
      }
    }
  } catch (error) {
    if (error instanceof EmissionsError) {
      if (error.error_code === 'unknown_instance') return notEstimated('unknown_instance_type');
      if (error.error_code === 'unknown_region') return notEstimated('unknown_region');
      if (error.error_code === 'invalid_request') return notEstimated('no_quantity');
      if (error.error_code === 'no_emission_factors_found') return notEstimated('unknown_region');
    }
    throw error;
  }
}

/**
 * What the request schemas default that a bill line does not state (the audit trail, CCF's 50 % vCPU load), read
 * from the CPU schema once rather than restated here.
 */
const REQUEST_DEFAULTS = /* @__PURE__ */ (() => {
  const { audit_trail, average_vcpu_utilization } = parseRequest(CLOUD_CALCULATORS.cpu.schema, {
    cpu_count: 1,
    region: '-',
    duration: 1,
  });
  return { audit_trail, average_vcpu_utilization };
})();

function instanceColumns(result: InstanceEstimate, notes: string[]): BillingColumns {
  const details = result.calculation_details;
  const factors = [result.cpu_estimate.emission_factor, result.embodied_cpu_estimate.emission_factor];
  return {
    co2e_status: 'estimated',
    co2e_reason: notes.join('; '),
    co2e_kg: result.total_co2e,
    // CPU, memory and, for an instance with a GPU part, GPU electricity.
    co2e_kwh: toNumber(
      add(
        add(decimal(details.energy_used_cpu), decimal(details.energy_used_memory)),
        decimal(details.energy_used_gpu ?? 0),
      ),
    ),
    co2e_calculator: 'instance',
    co2e_activity_value: result.embodied_cpu_estimate.activity_data.activity_value,
    co2e_activity_unit: result.embodied_cpu_estimate.activity_data.activity_unit,
    co2e_factor_id: factors.every((factor) => factor !== null)
      ? [...new Set(factors.map((factor) => factor.id))].join('; ')
      : null,
  };
}

function estimateColumns(
  calculator: string,
  result: Estimate,
  region: CloudRegion,
  notes: string[],
): BillingColumns {
  const year = result.emission_factor?.year;
  const grid = year === undefined ? undefined : region.grid_factors[String(year)];
  return {
    co2e_status: 'estimated',
    co2e_reason: notes.join('; '),
    co2e_kg: result.co2e,
    co2e_kwh:
      grid === undefined || grid === null || grid === 0
        ? null
        : toNumber(div(decimal(result.co2e), decimal(grid))),
    co2e_calculator: calculator,
    co2e_activity_value: result.activity_data.activity_value,
    co2e_activity_unit: result.activity_data.activity_unit,
    co2e_factor_id: result.emission_factor?.id ?? null,
  };
}

/**
 * kg and cost of the estimated rows, per currency and category and per currency over all categories (`*`), as
 * exact decimal text: a ratio is kg per unit of one currency.
 */
export interface CostRatios {
  byCategory: Map<string, { kg: string; cost: string }>;
}

/** A row's positive cost as a decimal, or undefined. */
function positiveCost(facts: LineFacts): Decimal | undefined {
  if (facts.cost === null) return undefined;
  const cost = decimal(facts.cost);
  return isPositive(cost) ? cost : undefined;
}

/** A key of {@link CostRatios.byCategory}: the currency ('' when the export states none) and the category. */
const ratioKey = (currency: string, category: string): string => `${currency}\u0000${category}`;

/**
 * Adds an estimated row to the ratios (only rows estimated by a calculator, with a positive cost).
 *
 * @example
 * ```ts
 * const ratios = newCostRatios();
 * for (const { row, facts } of estimated) addToRatios(ratios, row, facts);
 * ```
 */
export function addToRatios(ratios: CostRatios, row: BillingColumns, facts: LineFacts): void {
  if (row.co2e_status !== 'estimated' || row.co2e_calculator === 'cost-ratio' || row.co2e_kg === null) return;
  const cost = positiveCost(facts);
  if (cost === undefined) return;
  for (const key of [ratioKey(facts.currency, facts.category), ratioKey(facts.currency, '*')]) {
    const entry = ratios.byCategory.get(key) ?? { kg: '0', cost: '0' };
    ratios.byCategory.set(key, {
      kg: toPlainString(add(decimal(entry.kg), decimal(row.co2e_kg))),
      cost: toPlainString(add(decimal(entry.cost), cost)),
    });
  }
}

/**
 * The cost-ratio estimate of a row of unknown usage (after a first pass filled `ratios`; see {@link addToRatios}) (CCF: kg per cost of the classified rows of its category, else
 * of all classified rows, in the row's currency), or the row unchanged when it is not eligible or no ratio exists
 * (`no_cost_ratio_in_currency` when ratios exist in other currencies only).
 *
 * @example
 * ```ts
 * const labelled = applyCostRatio(row, facts, ratios); // labelled.co2e_calculator === 'cost-ratio'
 * ```
 */
export function applyCostRatio<R extends BillingColumns>(row: R, facts: LineFacts, ratios: CostRatios): R {
  if (row.co2e_status !== 'not_estimated' || !COST_RATIO_REASONS.has(row.co2e_reason)) return row;
  const cost = positiveCost(facts);
  if (cost === undefined) return row;
  const own = ratios.byCategory.get(ratioKey(facts.currency, facts.category));
  const [category, entry] =
    own !== undefined ? [facts.category, own] : ['*', ratios.byCategory.get(ratioKey(facts.currency, '*'))];
  // Ratios in other currencies only: kg per dollar applied to yen would be off by the exchange rate.
  if (entry === undefined && ratios.byCategory.size > 0)
    return { ...row, co2e_reason: 'no_cost_ratio_in_currency' };
  if (entry === undefined || !isPositive(decimal(entry.cost))) return row;
  const ratio = div(decimal(entry.kg), decimal(entry.cost));
  return {
    ...row,
    co2e_status: 'estimated',
    co2e_reason: `cost_ratio(was ${row.co2e_reason}; ${category === '*' ? 'all categories' : category} ${toNumber(ratio)} kg per cost unit)`,
    co2e_kg: toNumber(mul(cost, ratio)),
    co2e_kwh: null,
    co2e_calculator: 'cost-ratio',
    co2e_activity_value: toNumber(cost),
    co2e_activity_unit: 'cost',
    co2e_factor_id: null,
  };
}

/**
 * Empty cost ratios, to fill with {@link addToRatios}.
 *
 * @example
 * ```ts
 * const ratios = newCostRatios();
 * ```
 */
export const newCostRatios = (): CostRatios => ({ byCategory: new Map() });
