import type { CloudProvider } from '../datasets/tables';
import type { CloudDatasets, CloudRegion } from '../datasets/types';
import { type FormatSpec, focusProvider, type LineField } from './formats';
import { type CompiledRule, type CompiledRules, type ReasonCode } from './rules';
import { parseUsageUnit, type UsageUnit } from './units';

/**
 * Step 1 of a bill line (classify → quantify → compute): read its fields (each the first non-empty of its
 * candidate columns), the rule that matches it, its unit and its region resolved to a record, or the reason it
 * stops here. No arithmetic happens in this step.
 */

/** What the summary needs to know of a row besides its columns. */
export interface LineFacts {
  provider: string;
  service: string;
  region: string;
  account: string;
  /** Effective (or billed) cost as the export writes it (exact decimal text); null when the row has none. */
  cost: string | null;
  /** The row has a cost that is not a plain decimal (`1,234.50`, `$5.00`): its cost is unknown, not 0. */
  costUnreadable: boolean;
  /** The currency of the cost (FOCUS `BillingCurrency`, CUR `lineItem/CurrencyCode`, …), upper case; '' when none. */
  currency: string;
  /** The cost-ratio category: FOCUS `ServiceCategory`, else by calculator or unit (Compute, Storage, …). */
  category: string;
  /** The rule that classified the row, or null. */
  rule: string | null;
  /** The resource id (or name) the row bills, '' when none. */
  resource: string;
  /** The calendar month (`YYYY-MM`) of the charge period start as written (see `monthHours`), '' when none. */
  month: string;
  /** The row's unit as written (for the unclassified (service, unit) pairs of the summary). */
  unit: string;
  /** The tags asked for ({@link BillingOptions.tagKeys}), by key; a key the row lacks is absent. */
  tags: Record<string, string>;
}

/** Reads one field of a row: the first of its candidate columns that is non-empty. */
export type FieldReader = (name: LineField) => string;

/** A line the rules sent to a calculator: the rule, its captures, the unit, the amount text, the region record. */
export interface Classification {
  rule: CompiledRule;
  provider: CloudProvider;
  groups: Partial<Record<LineField, Record<string, string>>>;
  unit: UsageUnit;
  /** The quantity as the export writes it (a plain decimal). */
  amount: string;
  region: CloudRegion;
  read: FieldReader;
}

/** The outcome of step 1: a classification, or the reason the row is not estimated. */
export type Classified = { facts: LineFacts } & (
  { reason: ReasonCode | string; line?: undefined } | { line: Classification; reason?: undefined }
);

/** The columns of a format present in a header, per field (see `resolveColumns`). */
export type ResolvedColumns = Partial<Record<LineField, string[]>>;

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
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [key, item] of Object.entries(value)) {
      if (depth < NESTED_DEPTH && isNestedColumn(item)) walk(item, `${prefix}${key}.`, depth + 1);
      else names.push(`${prefix}${key}`);
    }
  };
  walk(row, '', 1);
  return names;
}

/**
 * Levels of nested columns read: a bill's JSON nests two or three deep (GCP's `usage.amount`); deeper, and in a row
 * that holds itself, a value is one column.
 */
export const NESTED_DEPTH = 8;

/** Whether a column's value is a nested object whose members are columns (`usage` of `usage.amount`). */
export const isNestedColumn = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/**
 * A row's value of a column: the key itself, else a dotted path into nested objects (JSON Lines).
 *
 * @example
 * ```ts
 * valueAt({ location: { region: 'us-central1' } }, 'location.region'); // 'us-central1'
 * ```
 */
export function valueAt(row: Record<string, unknown>, column: string): unknown {
  if (Object.hasOwn(row, column)) return row[column];
  if (!column.includes('.')) return undefined;
  let value: unknown = row;
  for (const part of column.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * A cell as trimmed text ('' for null or missing; objects as JSON).
 *
 * @example
 * ```ts
 * text(' 720 '); // '720'
 * ```
 */
export const text = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value.trim()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value).trim();

/**
 * A reader of a row's fields: each the first of its columns non-empty in the row, memoised per row. `quantity` and
 * `unit` are a pair: the unit is the one beside the quantity read (`ConsumedQuantity` with `ConsumedUnit`), else
 * the first non-empty unit.
 *
 * @example
 * ```ts
 * const read = fieldReader({ 'product/regionCode': '', 'product/region': 'us-east-1' }, columns);
 * read('region'); // 'us-east-1'
 * ```
 */
export function fieldReader(row: Record<string, unknown>, columns: ResolvedColumns): FieldReader {
  const values: Partial<Record<LineField, string>> = {};
  let quantityAt = -1;
  const first = (name: LineField): string => {
    const candidates = columns[name];
    if (candidates === undefined) return '';
    for (let index = 0; index < candidates.length; index += 1) {
      const value = text(valueAt(row, candidates[index]!));
      if (value !== '') {
        if (name === 'quantity') quantityAt = index;
        return value;
      }
    }
    return '';
  };
  const read = (name: LineField): string => {
    const known = values[name];
    if (known !== undefined) return known;
    let value: string;
    if (name === 'unit') {
      read('quantity');
      const beside = columns.unit?.[quantityAt];
      const paired = beside === undefined ? '' : text(valueAt(row, beside));
      value = paired !== '' ? paired : first('unit');
    } else value = first(name);
    values[name] = value;
    return value;
  };
  return read;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * The text when it is a plain decimal, else null.
 *
 * @example
 * ```ts
 * decimalText('1.5e3'); // '1.5e3'
 * ```
 */
export const decimalText = (value: string): string | null => (DECIMAL.test(value) ? value : null);

const monthCache = new Map<string, { hours: number; month: string } | undefined>();
/**
 * Hours of the calendar month that contains the date (as written: a date-time without a zone is its own calendar
 * date on every machine; one with an offset, the UTC month of that moment), or undefined when it is not a date
 * that exists.
 *
 * @example
 * ```ts
 * monthHours('09/22/2023'); // { hours: 720, month: '2023-09' }
 * ```
 */
export function monthHours(start: string): { hours: number; month: string } | undefined {
  if (start === '') return undefined;
  if (monthCache.has(start)) return monthCache.get(start);
  if (monthCache.size > 10_000) monthCache.clear();
  const found = monthOf(start);
  monthCache.set(start, found);
  return found;
}

/** Azure EA's `MM/DD/YYYY`. */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/**
 * An ISO 8601 date, or date-time (`T` or a space between) with an optional zone: `Z`, `UTC` (GCP) or an offset.
 * Groups: year, month, day, hour, minute, second, zone.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?)?$/i;

/** Days of a month (1–12) of a year, in the proleptic Gregorian calendar. */
const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The month of a date as written, never through the machine's time zone (so every machine gives the same month):
 * a date, or a date-time without a zone, is its own calendar date; a date-time with an offset is the UTC month of
 * that moment. A date that does not exist (`2023-02-30`, `13/21/2023`) or any other text is no date.
 */
function monthOf(start: string): { hours: number; month: string } | undefined {
  const us = US_DATE.exec(start);
  const iso = us === null ? ISO_DATE.exec(start) : null;
  if (us === null && iso === null) return undefined;
  const fields = us !== null ? [us[3], us[1], us[2]] : [iso?.[1], iso?.[2], iso?.[3]];
  const [year, month, day] = fields.map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  let [utcYear, utcMonth] = [year, month];
  if (iso !== null && iso[4] !== undefined) {
    const [hour, minute, second] = [Number(iso[4]), Number(iso[5]), Number(iso[6] ?? 0)];
    if (hour > 23 || minute > 59 || second > 59) return undefined;
    const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(iso[7] ?? '');
    if (offset !== null) {
      const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
      const moment = new Date(Date.UTC(year, month - 1, day, hour, minute - minutes, second));
      [utcYear, utcMonth] = [moment.getUTCFullYear(), moment.getUTCMonth() + 1];
    }
  }
  return {
    hours: daysIn(utcYear, utcMonth) * 24,
    month: `${utcYear}-${String(utcMonth).padStart(2, '0')}`,
  };
}

/** The cost-ratio category of a calculator's rows when the export states none. */
export const KIND_CATEGORY: Record<string, string> = {
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

/**
 * The tags of a row, only the keys asked for: FOCUS/CUR 2.0/Azure JSON objects (Azure EA writes them without the
 * braces), GCP `labels` (`[{key, value}]`), or CUR's one column per key (`resourceTags/user:team`).
 *
 * @example
 * ```ts
 * readTags({ Tags: '"team": "web","env": "prod"' }, formatSpec('azure'), { tags: ['Tags'] }, ['team']); // { team: 'web' }
 * ```
 */
export function readTags(
  row: Record<string, unknown>,
  format: FormatSpec,
  columns: ResolvedColumns,
  keys: readonly string[],
): Record<string, string> {
  const tags: Record<string, string> = {};
  if (keys.length === 0 || format.tags === undefined) return tags;
  if (format.tags.kind === 'columns') {
    const prefix = format.tags.prefix;
    for (const key of keys) {
      const value = text(row[`${prefix}${key}`] ?? row[`${prefix}user:${key}`]);
      if (value !== '') tags[key] = value;
    }
    return tags;
  }
  const column = columns.tags?.[0];
  if (column === undefined) return tags;
  let parsed = valueAt(row, column);
  if (typeof parsed === 'string') {
    const source = parsed.trim();
    if (source === '') return tags;
    try {
      parsed = JSON.parse(source.startsWith('{') || source.startsWith('[') ? source : `{${source}}`);
    } catch {
      return tags;
    }
  }
  const entries: [string, unknown][] = Array.isArray(parsed)
    ? parsed.flatMap((label: unknown) =>
        label !== null && typeof label === 'object' && 'key' in label
          ? [[String(label.key), (label as { value?: unknown }).value] as [string, unknown]]
          : [],
      )
    : parsed !== null && typeof parsed === 'object'
      ? Object.entries(parsed)
      : [];
  for (const [key, value] of entries) if (keys.includes(key)) tags[key] = text(value);
  return tags;
}

const units = new Map<string, UsageUnit | undefined>();
/** {@link parseUsageUnit}, kept per spelling (a bill writes a handful of units on every row); bounded. */
function usageUnit(spelling: string): UsageUnit | undefined {
  if (units.has(spelling)) return units.get(spelling);
  if (units.size >= 1_000) units.clear();
  const unit = parseUsageUnit(spelling);
  units.set(spelling, unit);
  return unit;
}

/**
 * The summary facts of a row, read from its columns (no classification).
 *
 * @example
 * ```ts
 * readFacts(fieldReader(row, columns), formatSpec('focus')).facts.service; // 'Amazon Elastic Compute Cloud'
 * ```
 */
export function readFacts(
  read: FieldReader,
  format: FormatSpec,
): {
  facts: LineFacts;
  provider: CloudProvider | undefined;
  unit: UsageUnit | undefined;
  serviceCategory: string;
} {
  const providerName = read('provider_name');
  const provider: CloudProvider | undefined = format.provider ?? focusProvider(providerName);
  const unitText = read('unit');
  const unit = unitText === '' ? undefined : usageUnit(unitText);
  const serviceCategory = read('service_category');
  // The effective cost, else the billed cost when the row has none; a cost written otherwise than as a plain
  // decimal is not replaced by the other column, which is a different figure.
  const costCell = read('cost') || read('billed_cost');
  const cost = decimalText(costCell);
  const facts: LineFacts = {
    provider: provider ?? (providerName === '' ? 'unknown' : providerName),
    service: read('service'),
    region: read('region'),
    account: read('account'),
    cost,
    costUnreadable: cost === null && costCell !== '',
    currency: read('currency').toUpperCase(),
    category: serviceCategory || (unit === undefined ? 'Other' : (UNIT_CATEGORY[unit.dimension] ?? 'Other')),
    rule: null,
    resource: read('resource'),
    month: monthHours(read('start'))?.month ?? '',
    unit: unitText,
    tags: {},
  };
  return { facts, provider, unit, serviceCategory };
}

/**
 * Classifies one row: the facts, and either the calculator line (rule, unit, amount, region record) or the reason.
 *
 * @example
 * ```ts
 * const { line, reason } = classifyLine(fieldReader(row, columns), format, rules, cloudDatasets);
 * ```
 */
export function classifyLine(
  read: FieldReader,
  format: FormatSpec,
  rules: CompiledRules,
  datasets: CloudDatasets,
): Classified {
  const { facts, provider, unit, serviceCategory } = readFacts(read, format);
  if (provider === undefined) return { facts, reason: 'unsupported_provider' };
  const charge = read('charge_category');
  if (charge !== '' && !format.usage_values.some((value) => value.toLowerCase() === charge.toLowerCase()))
    return { facts, reason: 'not_usage' };
  // FOCUS: usage an unused commitment pays for is not usage of anything running.
  if (read('commitment_status').toLowerCase() === 'unused') return { facts, reason: 'not_usage' };
  const match = matchRule(provider, read, format, rules);
  if (match === undefined) return { facts, reason: 'unknown_usage_type' };
  const { rule } = match;
  facts.rule = rule.id;
  if (serviceCategory === '' && KIND_CATEGORY[rule.then] !== undefined)
    facts.category = KIND_CATEGORY[rule.then]!;
  if (rule.then === 'not_estimated') return { facts, reason: rule.reason ?? 'unknown_usage_type' };
  const amount = decimalText(read('quantity'));
  if (amount === null || amount.startsWith('-')) return { facts, reason: 'no_quantity' };
  if (unit === undefined) return { facts, reason: 'unknown_unit' };
  const region = resolveRegion(provider, read, rules, datasets);
  if (region === undefined) return { facts, reason: 'unknown_region' };
  return { facts, line: { rule, provider, groups: match.groups, unit, amount, region, read } };
}

/** A rule that matched a line, with the named groups its patterns captured per field. */
interface RuleMatch {
  rule: CompiledRule;
  groups: Partial<Record<LineField, Record<string, string>>>;
}

/** Matches per rules table, by format, provider and the text of every field its rules read; bounded. */
const matchCache = new WeakMap<CompiledRules, Map<string, RuleMatch | null>>();
const MAX_MATCHES = 10_000;

/**
 * The first of the provider's rules whose every pattern matches the line, or undefined. A bill repeats few distinct
 * (service, usage type, description, unit, …) combinations over many rows, so the match (a pure function of those
 * fields) is kept per combination and the patterns run once per combination, not per row.
 */
function matchRule(
  provider: CloudProvider,
  read: FieldReader,
  format: FormatSpec,
  rules: CompiledRules,
): RuleMatch | undefined {
  let cache = matchCache.get(rules);
  if (cache === undefined) {
    cache = new Map();
    matchCache.set(rules, cache);
  }
  let key = `${format.id}\u0000${provider}`;
  for (const name of rules.matchedFields[provider]) key += `\u0000${read(name)}`;
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  let match: RuleMatch | undefined;
  for (const rule of rules.byProvider[provider]) {
    if (rule.formats !== undefined && !rule.formats.includes(format.id)) continue;
    const groups: RuleMatch['groups'] = {};
    let all = true;
    for (const [name, pattern] of rule.matchers) {
      const found = pattern.exec(read(name));
      if (found === null) {
        all = false;
        break;
      }
      if (found.groups !== undefined) groups[name] = found.groups;
    }
    if (all) {
      match = { rule, groups };
      break;
    }
  }
  if (cache.size >= MAX_MATCHES) cache.clear();
  cache.set(key, match ?? null);
  return match;
}

/**
 * The region record of a row, resolved once: the region field (first non-empty of its columns) as written, without
 * spaces (`East US` → eastus), reversed (`US East`), or a published location name (`US East (N. Virginia)`).
 */
function resolveRegion(
  provider: CloudProvider,
  read: FieldReader,
  rules: CompiledRules,
  datasets: CloudDatasets,
): CloudRegion | undefined {
  const spelling = read('region');
  if (spelling === '') return undefined;
  const direct = datasets.cloudRegions.get(provider, spelling);
  if (direct !== undefined) return direct;
  const named = rules.regionNames[provider]?.get(spelling.toLowerCase());
  if (named !== undefined) return datasets.cloudRegions.get(provider, named);
  const words = spelling.split(/\s+/);
  if (words.length < 2) return undefined;
  return (
    datasets.cloudRegions.get(provider, words.join('')) ??
    datasets.cloudRegions.get(provider, [...words.slice(1), words[0]].join(''))
  );
}
