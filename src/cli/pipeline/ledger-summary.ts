import { CALCULATOR_DATASETS, type CalculatorName } from '../../calculator-datasets';
import { add, type Decimal, decimal, div, isZero, toNumber } from '../../core/decimal';
import { DecimalSum } from '../../core/decimal-sum';
import { numberText } from '../../core/number-text';
import { CLOUD_PROVIDERS } from '../../datasets/constants';
import type { CloudProvider, DatasetInfo } from '../../datasets/tables';
import type { CloudRegionsProvider } from '../../datasets/types';

/**
 * `--summary` of `spend` and `cloud`: the totals of an output file, read back from its rows (the same shape family
 * as billing's summary, src/billing/summary.ts): totals in kg and t, kg and rows by group, the amounts estimated
 * and not, notices and error codes, the factors used and the datasets behind them. Every sum is exact (decimals),
 * then written as the nearest JSON number, as billing's are.
 */

/** kg CO2e and rows of one group. */
export interface KgRows {
  kg: number;
  rows: number;
}

/** A classification's group, with the names of the factors its rows used. */
export interface NamedKgRows extends KgRows {
  name: string;
}

/** Money in one currency: all of it, the part of the rows estimated, and that part's share. */
export interface MoneyCoverage extends KgRows {
  money: number;
  money_estimated: number;
  share_estimated: number | null;
}

/** A factor the rows used. */
export interface FactorUse extends KgRows {
  id: string;
  name: string;
  source: string;
  region: string;
  year: string;
}

/** An error code: its rows and the first one's message. */
export interface ErrorCodeRows {
  rows: number;
  example: string;
}

/** Pass-through columns a summary groups by when the file has them (`columns` says which it found). */
export interface LedgerColumns {
  supplier?: string;
  service?: string;
  date?: string;
  tag?: string;
}

export interface LedgerSummary {
  command: 'spend' | 'cloud';
  rows: number;
  estimated_rows: number;
  not_estimated_rows: number;
  total_kg: number;
  total_t: number;
  /** Electricity behind the rows that state it (cloud). */
  total_kwh: number;
  columns: LedgerColumns;
  /** spend: classification type and code, with the factor names. */
  by_classification?: Record<string, NamedKgRows>;
  /** spend: `spend_region` as given. */
  by_country?: Record<string, KgRows>;
  by_year?: Record<string, KgRows>;
  by_currency?: Record<string, MoneyCoverage>;
  /** cloud */
  by_provider?: Record<string, KgRows>;
  by_calculator?: Record<string, KgRows>;
  /** cloud: by the provider's own region id (`us-east-1`, `westeurope`), whatever the rows' spelling. */
  by_region?: Record<string, KgRows>;
  /** From the pass-through columns of {@link LedgerColumns}, when present. */
  by_supplier?: Record<string, KgRows>;
  by_service?: Record<string, KgRows>;
  by_month?: Record<string, KgRows>;
  by_tag?: Record<string, KgRows>;
  /** Notices by code: rows that carry each, and their kg. */
  by_notice: Record<string, KgRows>;
  by_error_code: Record<string, ErrorCodeRows>;
  factors: FactorUse[];
  /** The datasets the calculators read, with licence and attribution as each table states them. */
  sources: DatasetInfo[];
}

/** Names of pass-through columns, tried in order (case-insensitive). */
const COLUMN_NAMES: Readonly<Record<keyof LedgerColumns, readonly string[]>> = {
  supplier: ['supplier', 'supplier_name', 'vendor', 'vendor_name', 'payee'],
  service: ['service', 'service_name', 'resource', 'application', 'app'],
  date: ['date', 'invoice_date', 'posting_date', 'document_date', 'usage_date', 'period', 'month'],
  tag: ['tag', 'tags', 'team', 'cost_center', 'cost_centre', 'department', 'project'],
};

/** A cell as text: empty for absent. */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A number cell as a decimal, or undefined when it is empty or not a plain decimal. */
function amount(value: unknown): Decimal | undefined {
  const text = cell(value).trim();
  return text !== '' && DecimalSum.isPlainDecimal(text) ? decimal(text) : undefined;
}

/** The notice codes of a row: `;`-separated in CSV, objects in JSON Lines, JSON text in Parquet. */
function noticeCodes(value: unknown): string[] {
  let notices = value;
  if (typeof notices === 'string' && notices.startsWith('[')) {
    try {
      notices = JSON.parse(notices);
    } catch {
      // a code list after all
    }
  }
  if (Array.isArray(notices))
    return notices.map((notice) =>
      typeof notice === 'object' && notice !== null
        ? cell((notice as { code?: unknown }).code)
        : cell(notice),
    );
  return cell(notices)
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code !== '');
}

/** `2024-03-15`, `2024/03`, `15.03.2024`, `03/15/2024` → `2024-03`; else undefined. */
export function monthOf(text: string): string | undefined {
  const iso = /^(\d{4})[-/.](\d{1,2})(?:\D|$)/.exec(text.trim());
  if (iso !== null) return `${iso[1]}-${iso[2]!.padStart(2, '0')}`;
  const dayFirst = /^(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(text.trim());
  if (dayFirst !== null) return `${dayFirst[3]}-${dayFirst[2]!.padStart(2, '0')}`;
  return undefined;
}

class Groups {
  private readonly map = new Map<string, { kg: Decimal; rows: number; names: Set<string> }>();
  add(key: string, kg: Decimal, name?: string): void {
    const group = this.map.get(key) ?? { kg: decimal(0), rows: 0, names: new Set<string>() };
    group.kg = add(group.kg, kg);
    group.rows += 1;
    if (name !== undefined && name !== '') group.names.add(name);
    this.map.set(key, group);
  }
  get size(): number {
    return this.map.size;
  }
  result(): Record<string, KgRows> {
    return Object.fromEntries(
      this.sorted().map(([key, group]) => [key, { kg: toNumber(group.kg), rows: group.rows }]),
    );
  }
  named(): Record<string, NamedKgRows> {
    return Object.fromEntries(
      this.sorted().map(([key, group]) => [
        key,
        { name: [...group.names].join('; '), kg: toNumber(group.kg), rows: group.rows },
      ]),
    );
  }
  private sorted() {
    return [...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

const orNone = (text: string): string => (text === '' ? '(none)' : text);

const isCloudProvider = (name: string): name is CloudProvider =>
  (CLOUD_PROVIDERS as readonly string[]).includes(name);

/**
 * A cloud row's region as its provider writes the id (`us-east-1`, `westeurope`), from the record the estimate
 * resolved, so `US-EAST-1` and `us_east_1` are one group. A region the datasets do not know keeps its spelling.
 */
function regionId(provider: string, region: string, datasets: object): string {
  const regions = (datasets as { cloudRegions?: CloudRegionsProvider }).cloudRegions;
  if (regions === undefined || !isCloudProvider(provider)) return region;
  return regions.get(provider, region)?.region ?? region;
}

/** The cloud calculators' library names (`cpu` → `calculateCpu`), for the datasets each reads. */
const CLOUD_CALCULATORS: Readonly<Record<string, CalculatorName>> = {
  cpu: 'calculateCpu',
  memory: 'calculateMemory',
  storage: 'calculateStorage',
  networking: 'calculateNetworking',
  embodied: 'calculateEmbodied',
  instance: 'calculateInstance',
};

/**
 * The descriptions (licence, attribution…) of the dataset parts `calculators` read, in `datasets`, each once, as
 * the tables state them: nothing here names a dataset, so a table added later (CEDA by Watershed) is listed with
 * its own words.
 *
 * @example
 * ```ts
 * datasetSources(defaultDatasets, ['calculateSpend']).map((info) => info.source); // ['EXIOBASE', …]
 * ```
 */
export function datasetSources(datasets: object, calculators: readonly CalculatorName[]): DatasetInfo[] {
  const parts = [...new Set(calculators.flatMap((name) => CALCULATOR_DATASETS[name] ?? []))];
  const seen = new Set<string>();
  const sources: DatasetInfo[] = [];
  for (const part of parts) {
    const info = (datasets as Record<string, { info?: DatasetInfo } | undefined>)[part]?.info;
    if (info === undefined || seen.has(`${info.id}@${info.version}`)) continue;
    seen.add(`${info.id}@${info.version}`);
    sources.push(info);
  }
  return sources;
}

/** The calculators of a billing summary's `by_calculator` (its cloud ones; cost-ratio reads no table). */
export function cloudCalculatorsOf(keys: Iterable<string>): CalculatorName[] {
  return [...keys].flatMap((key) => (CLOUD_CALCULATORS[key] === undefined ? [] : [CLOUD_CALCULATORS[key]]));
}

/**
 * Sums an output file's rows into a {@link LedgerSummary}.
 *
 * @example
 * ```ts
 * const summary = await summariseLedger('spend', readOutputRows('out.csv'), defaultDatasets);
 * summary.total_t; // e.g. 53.314
 * ```
 */
export async function summariseLedger(
  command: 'spend' | 'cloud',
  rows: AsyncIterable<Record<string, unknown>>,
  datasets: object,
): Promise<LedgerSummary> {
  let count = 0;
  let estimated = 0;
  let totalKg = decimal(0);
  let totalKwh = decimal(0);
  let columns: LedgerColumns | undefined;
  const groups = {
    classification: new Groups(),
    country: new Groups(),
    year: new Groups(),
    provider: new Groups(),
    calculator: new Groups(),
    region: new Groups(),
    supplier: new Groups(),
    service: new Groups(),
    month: new Groups(),
    tag: new Groups(),
    notice: new Groups(),
  };
  const currencies = new Map<string, { kg: Decimal; rows: number; money: Decimal; estimated: Decimal }>();
  const errors = new Map<string, ErrorCodeRows>();
  const factors = new Map<string, { use: Omit<FactorUse, 'kg'>; kg: Decimal }>();

  for await (const row of rows) {
    count += 1;
    columns ??= findColumns(Object.keys(row));
    const code = cell(row.error_code);
    const kg = code === '' ? amount(row.co2e) : undefined;
    const money = command === 'spend' ? amount(row.money) : undefined;
    const currency = command === 'spend' ? orNone(cell(row.money_unit).toUpperCase()) : '';
    if (command === 'spend') {
      const entry = currencies.get(currency) ?? {
        kg: decimal(0),
        rows: 0,
        money: decimal(0),
        estimated: decimal(0),
      };
      entry.rows += 1;
      if (money !== undefined) entry.money = add(entry.money, money);
      if (kg !== undefined) {
        entry.kg = add(entry.kg, kg);
        if (money !== undefined) entry.estimated = add(entry.estimated, money);
      }
      currencies.set(currency, entry);
    }
    if (kg === undefined) {
      const reason = code === '' ? 'no_result' : code;
      const entry = errors.get(reason);
      if (entry === undefined)
        errors.set(reason, { rows: 1, example: `row ${count}: ${cell(row.error_message) || reason}` });
      else entry.rows += 1;
      continue;
    }
    estimated += 1;
    totalKg = add(totalKg, kg);
    const kwh = amount(row.energy_kwh);
    if (kwh !== undefined) totalKwh = add(totalKwh, kwh);
    if (command === 'spend') {
      const type = cell(row.classification_type).toLowerCase();
      const activity = cell(row.activity_id);
      const key = activity !== '' ? `activity_id ${activity}` : `${type} ${cell(row.classification_code)}`;
      groups.classification.add(key, kg, cell(row.factor_name));
      groups.country.add(orNone(cell(row.spend_region).toUpperCase()), kg);
      groups.year.add(orNone(cell(row.spend_year)), kg);
    } else {
      groups.provider.add(orNone(cell(row.provider).toLowerCase()), kg);
      groups.calculator.add(orNone(cell(row.calculator).toLowerCase()), kg);
      groups.region.add(orNone(regionId(cell(row.provider).toLowerCase(), cell(row.region), datasets)), kg);
    }
    if (columns.supplier !== undefined) groups.supplier.add(orNone(cell(row[columns.supplier])), kg);
    if (columns.service !== undefined) groups.service.add(orNone(cell(row[columns.service])), kg);
    if (columns.tag !== undefined) groups.tag.add(orNone(cell(row[columns.tag])), kg);
    if (columns.date !== undefined) groups.month.add(monthOf(cell(row[columns.date])) ?? '(no date)', kg);
    for (const notice of new Set(noticeCodes(row.notices))) groups.notice.add(notice, kg);
    const id = cell(row.factor_id);
    if (id !== '') {
      const factor = factors.get(id) ?? {
        use: {
          id,
          name: cell(row.factor_name),
          source: cell(row.factor_source),
          region: cell(row.factor_region),
          year: cell(row.factor_year),
          rows: 0,
        },
        kg: decimal(0),
      };
      factor.use.rows += 1;
      factor.kg = add(factor.kg, kg);
      factors.set(id, factor);
    }
  }

  const found = columns ?? {};
  const calculators: CalculatorName[] =
    command === 'spend' ? ['calculateSpend'] : cloudCalculatorsOf(Object.keys(groups.calculator.result()));
  const optional = (name: keyof LedgerColumns, group: Groups) =>
    found[name] === undefined ? {} : { [`by_${name === 'date' ? 'month' : name}`]: group.result() };
  return {
    command,
    rows: count,
    estimated_rows: estimated,
    not_estimated_rows: count - estimated,
    total_kg: toNumber(totalKg),
    total_t: toNumber(div(totalKg, decimal(1000))),
    total_kwh: toNumber(totalKwh),
    columns: found,
    ...(command === 'spend'
      ? {
          by_classification: groups.classification.named(),
          by_country: groups.country.result(),
          by_year: groups.year.result(),
          by_currency: Object.fromEntries(
            [...currencies]
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([currency, entry]) => [
                currency,
                {
                  kg: toNumber(entry.kg),
                  rows: entry.rows,
                  money: toNumber(entry.money),
                  money_estimated: toNumber(entry.estimated),
                  share_estimated: isZero(entry.money) ? null : toNumber(div(entry.estimated, entry.money)),
                },
              ]),
          ),
        }
      : {
          by_provider: groups.provider.result(),
          by_calculator: groups.calculator.result(),
          by_region: groups.region.result(),
        }),
    ...optional('supplier', groups.supplier),
    ...optional('service', groups.service),
    ...optional('date', groups.month),
    ...optional('tag', groups.tag),
    by_notice: groups.notice.result(),
    by_error_code: Object.fromEntries([...errors].sort(([, a], [, b]) => b.rows - a.rows)),
    factors: [...factors.values()]
      .map(({ use, kg }) => ({ ...use, kg: toNumber(kg) }))
      .sort((a, b) => b.kg - a.kg || (a.id < b.id ? -1 : 1)),
    sources: datasetSources(datasets, calculators),
  };
}

/** The pass-through columns of {@link COLUMN_NAMES} a header has (the first match of each). */
function findColumns(header: readonly string[]): LedgerColumns {
  const lower = new Map(header.map((name) => [name.toLowerCase(), name]));
  const columns: LedgerColumns = {};
  for (const [kind, names] of Object.entries(COLUMN_NAMES) as Array<
    [keyof LedgerColumns, readonly string[]]
  >) {
    const name = names.map((candidate) => lower.get(candidate)).find((found) => found !== undefined);
    if (name !== undefined) columns[kind] = name;
  }
  return columns;
}
