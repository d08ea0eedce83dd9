import { deepFreeze, frozenSet } from '../core/freeze';
import { calculateCpu } from '../cloud/cpu';
import { calculateInstance, type InstanceEstimate } from '../cloud/instance';
import { calculateMemory } from '../cloud/memory';
import { calculateNetworking } from '../cloud/networking';
import { calculateStorage } from '../cloud/storage';
import {
  add,
  type Decimal,
  decimal,
  div,
  isNegative,
  isPositive,
  mul,
  toNumber,
  toPlainString,
} from '../core/decimal';
import { EmissionsError } from '../core/errors';
import type { Estimate } from '../core/estimate';
import type { CloudProvider } from '../datasets/tables';
import type { CloudDatasets, CloudRegion } from '../datasets/types';
import {
  type BillingFormat,
  type FormatSpec,
  focusProvider,
  formatSpec,
  type LineField,
  resolveColumns,
  detectBillingFormat,
} from './formats';
import { type CompiledRule, type CompiledRules, compileRules, type ReasonCode } from './rules';
import { parseUsageUnit } from './units';
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

/** What the summary needs to know of a row besides its columns. */
export interface LineFacts {
  provider: string;
  service: string;
  region: string;
  account: string;
  /** Effective (or billed) cost as the export writes it (exact decimal text); null when the row has none. */
  cost: string | null;
  /** The cost-ratio category: FOCUS `ServiceCategory`, else by calculator or unit (Compute, Storage, …). */
  category: string;
  /** The rule that classified the row, or null. */
  rule: string | null;
}

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
}

/** Reasons the cost-ratio estimate may replace (CCF estimates unknown usage by cost). */
export const COST_RATIO_REASONS: ReadonlySet<string> = /* @__PURE__ */ frozenSet([
  'unknown_usage_type',
  'unknown_instance_type',
  'unknown_unit',
]);

const HOURS_730 = '730';

/**
 * The header of a row: its keys, with nested plain objects (JSON Lines of a BigQuery export) as dotted paths.
 *
 * @example
 * ```ts
 * rowHeader({ cost: 1, sku: { description: 'SSD backed PD Capacity' } }); // ['cost', 'sku.description']
 * ```
 */
export function rowHeader(row: Record<string, unknown>): string[] {
  const names: string[] = [];
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [key, item] of Object.entries(value)) {
      if (
        item !== null &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        Object.getPrototypeOf(item) === Object.prototype
      ) {
        walk(item as Record<string, unknown>, `${prefix}${key}.`);
      } else names.push(`${prefix}${key}`);
    }
  };
  walk(row, '');
  return names;
}

function valueAt(row: Record<string, unknown>, column: string): unknown {
  if (Object.hasOwn(row, column)) return row[column];
  if (!column.includes('.')) return undefined;
  let value: unknown = row;
  for (const part of column.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const text = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value.trim()
      : String(value).trim();

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const strictDecimal = (value: string): Decimal | null => (DECIMAL.test(value) ? decimal(value) : null);
const decimalText = (value: string): string | null => (DECIMAL.test(value) ? value : null);

const monthCache = new Map<string, { hours: number; month: string } | undefined>();
/** Hours of the calendar month (UTC) that contains the date, or undefined when it is not a date. */
function monthHours(start: string): { hours: number; month: string } | undefined {
  if (start === '') return undefined;
  if (monthCache.has(start)) return monthCache.get(start);
  if (monthCache.size > 10_000) monthCache.clear();
  const found = monthOf(start);
  monthCache.set(start, found);
  return found;
}

function monthOf(start: string): { hours: number; month: string } | undefined {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(start) ? `${start}T00:00:00Z` : start);
  if (Number.isNaN(date.getTime())) return undefined;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const hours = (Date.UTC(year, month + 1, 1) - Date.UTC(year, month, 1)) / 3_600_000;
  return { hours, month: `${year}-${String(month + 1).padStart(2, '0')}` };
}

interface Classified {
  columns: BillingColumns;
  facts: LineFacts;
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

const KIND_CATEGORY: Record<string, string> = {
  instance: 'Compute',
  cpu: 'Compute',
  memory: 'Compute',
  storage: 'Storage',
  networking: 'Networking',
};
const UNIT_CATEGORY: Record<string, string> = {
  time: 'Compute',
  data: 'Networking',
  data_time: 'Storage',
  data_month: 'Storage',
  count_month: 'Storage',
};

/** One row's estimator, bound to a format, a header, datasets and rules. */
export interface BillingEstimator {
  readonly format: BillingFormat;
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
}

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
 * @throws {EmissionsError} `invalid_request` when the header matches no format (listing them) or the rules are
 *   not valid.
 */
export function createBillingEstimator(
  datasets: CloudDatasets,
  header: readonly string[],
  options?: BillingOptions,
): BillingEstimator {
  const id = options?.format ?? detectBillingFormat(header);
  if (id === undefined) {
    throw new EmissionsError(
      'invalid_request',
      'The header matches no billing export format (FOCUS 1.0–1.2, AWS CUR legacy or 2.0, GCP BigQuery billing export, Azure cost details); give the format explicitly.',
      { path: 'format', valid_values: ['focus', 'aws-cur', 'aws-cur2', 'gcp', 'azure'] },
    );
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
  return {
    format: id,
    estimate(row) {
      const { columns: appended, facts } = classifyRow(row, format, columns, rules, datasets);
      return { row: { ...row, ...appended }, facts };
    },
    columns(row) {
      return classifyRow(row, format, columns, rules, datasets);
    },
    factsOf(row) {
      const read = (name: LineField): string => {
        const column = columns[name];
        return column === undefined ? '' : text(valueAt(row, column));
      };
      const { facts, serviceCategory } = readFacts(read, format);
      const calculator = text(row.co2e_calculator);
      if (serviceCategory === '' && KIND_CATEGORY[calculator] !== undefined)
        facts.category = KIND_CATEGORY[calculator]!;
      return facts;
    },
  };
}

/** The summary facts of a row, read from its columns (no classification). */
function readFacts(read: (name: LineField) => string, format: FormatSpec) {
  const providerName = read('provider_name');
  const provider: CloudProvider | undefined = format.provider ?? focusProvider(providerName);
  const unitText = read('unit');
  const unit = unitText === '' ? undefined : parseUsageUnit(unitText);
  const serviceCategory = read('service_category');
  const facts: LineFacts = {
    provider: provider ?? (providerName === '' ? 'unknown' : providerName),
    service: read('service'),
    region: read('region'),
    account: read('account'),
    cost: decimalText(read('cost')) ?? decimalText(read('billed_cost')),
    category: serviceCategory || (unit === undefined ? 'Other' : (UNIT_CATEGORY[unit.dimension] ?? 'Other')),
    rule: null,
  };
  return { facts, provider, unit, serviceCategory };
}

function classifyRow(
  row: Record<string, unknown>,
  format: FormatSpec,
  columns: Partial<Record<LineField, string>>,
  rules: CompiledRules,
  datasets: CloudDatasets,
): Classified {
  const read = (name: LineField): string => {
    const column = columns[name];
    return column === undefined ? '' : text(valueAt(row, column));
  };
  const { facts, provider, unit, serviceCategory } = readFacts(read, format);
  const done = (columns: BillingColumns): Classified => ({ columns, facts });
  if (provider === undefined) return done(notEstimated('unsupported_provider'));
  const charge = read('charge_category');
  if (charge !== '' && !format.usage_values.some((value) => value.toLowerCase() === charge.toLowerCase())) {
    return done(notEstimated('not_usage'));
  }
  const values: Partial<Record<LineField, string>> = {};
  const valueOf = (name: LineField) => (values[name] ??= read(name));
  let match: { rule: CompiledRule; groups: Partial<Record<LineField, Record<string, string>>> } | undefined;
  for (const rule of rules.byProvider[provider]) {
    if (rule.formats !== undefined && !rule.formats.includes(format.id)) continue;
    const groups: Partial<Record<LineField, Record<string, string>>> = {};
    let all = true;
    for (const [name, pattern] of rule.matchers) {
      const found = pattern.exec(valueOf(name));
      if (found === null) {
        all = false;
        break;
      }
      if (found.groups !== undefined) groups[name] = found.groups as Record<string, string>;
    }
    if (all) {
      match = { rule, groups };
      break;
    }
  }
  if (match === undefined) return done(notEstimated('unknown_usage_type'));
  const { rule } = match;
  facts.rule = rule.id;
  if (serviceCategory === '' && KIND_CATEGORY[rule.then] !== undefined)
    facts.category = KIND_CATEGORY[rule.then]!;
  if (rule.then === 'not_estimated') return done(notEstimated(rule.reason ?? 'unknown_usage_type'));

  const amount = strictDecimal(read('quantity'));
  if (amount === null || isNegative(amount)) return done(notEstimated('no_quantity'));
  if (unit === undefined) return done(notEstimated('unknown_unit'));
  const region = resolveRegionSpelling(provider, read('region'), datasets);
  if (region === undefined) return done(notEstimated('unknown_region'));
  const notes: string[] = [];
  if (unit.binary) notes.push('gib_as_1.073741824_gb');
  const base = mul(mul(amount, decimal(unit.count)), decimal(unit.scale));
  const months = () => {
    const month = monthHours(read('start'));
    if (month === undefined) {
      notes.push('gb_month_as_730h');
      return HOURS_730;
    }
    notes.push(`gb_month_as_${month.hours}h(${month.month})`);
    return String(month.hours);
  };

  try {
    switch (rule.then) {
      case 'instance': {
        if (unit.dimension !== 'time') return done(notEstimated('unknown_unit'));
        const instance = instanceType(rule, match.groups, valueOf, read('additional_info'));
        if (instance === undefined) return done(notEstimated('unknown_instance_type'));
        const result = calculateInstance(
          provider,
          { instance, region: region.region, duration: toNumber(base), duration_unit: unit.time },
          datasets,
        );
        return done(instanceColumns(result, notes));
      }
      case 'cpu': {
        if (unit.dimension !== 'time') return done(notEstimated('unknown_unit'));
        const result = calculateCpu(
          provider,
          { cpu_count: 1, region: region.region, duration: toNumber(base), duration_unit: unit.time },
          datasets,
        );
        return done(estimateColumns('cpu', result, region, notes));
      }
      case 'memory': {
        if (unit.dimension !== 'data_time') return done(notEstimated('unknown_unit'));
        const result = calculateMemory(
          provider,
          {
            region: region.region,
            data: toNumber(base),
            data_unit: 'GB',
            duration: 1,
            duration_unit: unit.time,
          },
          datasets,
        );
        return done(estimateColumns('memory', result, region, notes));
      }
      case 'storage': {
        const storageType = storageTypeOf(rule, valueOf('usage_type') || valueOf('meter_subcategory'));
        const replication = replicationOf(rule, valueOf, rules, provider);
        let data: Decimal;
        let duration: string;
        let durationUnit: 'hour' | 'sec' = 'hour';
        if (unit.dimension === 'data_month') {
          data = base;
          duration = months();
        } else if (unit.dimension === 'data_time') {
          data = base;
          duration = '1';
          durationUnit = unit.time;
        } else if (unit.dimension === 'count_month' && rule.disk_size !== undefined) {
          const size = diskSize(rule, valueOf, rules);
          if (size === undefined) return done(notEstimated('unknown_usage_type'));
          data = mul(base, decimal(size));
          duration = months();
          notes.push(`disk_gb=${size}`);
        } else return done(notEstimated('unknown_unit'));
        if (replication !== 1) notes.push(`replication_factor=${replication}`);
        const result = calculateStorage(
          provider,
          {
            region: region.region,
            storage_type: storageType,
            data: toNumber(data),
            data_unit: 'GB',
            duration: Number(duration),
            duration_unit: durationUnit,
            ...(replication !== 1 && { replication_factor: replication }),
          },
          datasets,
        );
        return done(estimateColumns('storage', result, region, notes));
      }
      case 'networking': {
        if (unit.dimension !== 'data') return done(notEstimated('unknown_unit'));
        const result = calculateNetworking(
          provider,
          { region: region.region, data: toNumber(base), data_unit: 'GB' },
          datasets,
        );
        return done(estimateColumns('networking', result, region, notes));
      }
    }
  } catch (error) {
    if (error instanceof EmissionsError) {
      if (error.error_code === 'unknown_instance') return done(notEstimated('unknown_instance_type'));
      if (error.error_code === 'unknown_region') return done(notEstimated('unknown_region'));
      if (error.error_code === 'invalid_request') return done(notEstimated('no_quantity'));
      if (error.error_code === 'no_emission_factors_found') return done(notEstimated('unknown_region'));
    }
    throw error;
  }
  return done(notEstimated('unknown_usage_type'));
}

/** The region record for a spelling: as written, without spaces (`East US` → eastus), or reversed (`US East`). */
function resolveRegionSpelling(
  provider: CloudProvider,
  spelling: string,
  datasets: CloudDatasets,
): CloudRegion | undefined {
  if (spelling === '') return undefined;
  const direct = datasets.cloudRegions.get(provider, spelling);
  if (direct !== undefined) return direct;
  const words = spelling.split(/\s+/);
  if (words.length < 2) return undefined;
  return (
    datasets.cloudRegions.get(provider, words.join('')) ??
    datasets.cloudRegions.get(provider, [...words.slice(1), words[0]].join(''))
  );
}

function instanceType(
  rule: CompiledRule,
  groups: Partial<Record<LineField, Record<string, string>>>,
  valueOf: (name: LineField) => string,
  additionalInfo: string,
): string | undefined {
  const spec = rule.instance!;
  const hint = valueOf('instance_hint') || serviceTypeOf(additionalInfo);
  let found: string | undefined = hint === '' ? undefined : hint;
  if (found === undefined) {
    const source = valueOf(spec.from);
    found =
      spec.pattern === undefined
        ? groups[spec.from]?.instance
        : (rule.instancePattern?.exec(source)?.groups?.instance ?? undefined);
  }
  found ??= spec.default;
  if (found === undefined || found === '') return undefined;
  return spec.spaces === undefined ? found : found.trim().replace(/\s+/g, spec.spaces);
}

/** Azure `AdditionalInfo` (JSON) `ServiceType`: the VM size (`Standard_D2s_v3`), when present. */
function serviceTypeOf(additionalInfo: string): string {
  if (!additionalInfo.startsWith('{')) return '';
  try {
    const parsed = JSON.parse(additionalInfo) as { ServiceType?: unknown };
    return typeof parsed.ServiceType === 'string' ? parsed.ServiceType : '';
  } catch {
    return '';
  }
}

function storageTypeOf(rule: CompiledRule, usage: string): 'ssd' | 'hdd' {
  if (rule.storage_type !== undefined) return rule.storage_type;
  for (const option of rule.storageTypes) {
    if (option.when === undefined || option.when.test(usage)) return option.type;
  }
  return 'hdd';
}

function replicationOf(
  rule: CompiledRule,
  valueOf: (name: LineField) => string,
  rules: CompiledRules,
  provider: CloudProvider,
): number {
  const factors = rules.replication.providers[provider] ?? {};
  if (rule.replication === undefined) return 1;
  if (typeof rule.replication === 'string') return factors[rule.replication] ?? 1;
  const usage = [valueOf('usage_type'), valueOf('meter_name'), valueOf('meter_subcategory')].join(' ');
  for (const option of rule.replications) {
    if (option.when === undefined || option.when.test(usage)) return factors[option.factor] ?? 1;
  }
  return 1;
}

function diskSize(
  rule: CompiledRule,
  valueOf: (name: LineField) => string,
  rules: CompiledRules,
): number | undefined {
  const spec = rule.disk_size!;
  const disk = rule.diskPattern?.exec(valueOf(spec.from))?.groups?.disk;
  return disk === undefined ? undefined : rules.tables[spec.table]?.values[disk];
}

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
      ? [...new Set(factors.map((factor) => factor!.id))].join('; ')
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

/** kg and cost of the estimated rows, per category and over all (`*`), as exact decimal text. */
export interface CostRatios {
  byCategory: Map<string, { kg: string; cost: string }>;
}

/** A row's positive cost as a decimal, or undefined. */
function positiveCost(facts: LineFacts): Decimal | undefined {
  if (facts.cost === null) return undefined;
  const cost = decimal(facts.cost);
  return isPositive(cost) ? cost : undefined;
}

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
  for (const key of [facts.category, '*']) {
    const entry = ratios.byCategory.get(key) ?? { kg: '0', cost: '0' };
    ratios.byCategory.set(key, {
      kg: toPlainString(add(decimal(entry.kg), decimal(row.co2e_kg))),
      cost: toPlainString(add(decimal(entry.cost), cost)),
    });
  }
}

/**
 * The cost-ratio estimate of a row of unknown usage (after a first pass filled `ratios`; see {@link addToRatios}) (CCF: kg per cost of the classified rows of its category, else
 * of all classified rows), or the row unchanged when it is not eligible or no ratio exists.
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
  const own = ratios.byCategory.get(facts.category);
  const [category, entry] = own !== undefined ? [facts.category, own] : ['*', ratios.byCategory.get('*')];
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
