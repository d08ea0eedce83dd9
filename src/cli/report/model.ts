import { add, type Decimal, decimal, toNumber } from '../../core/decimal';
import type { DatasetInfo } from '../../datasets/tables';
import { monthOf } from '../pipeline/ledger-summary';

/**
 * What a report shows, from a run's summary (and, for a bill, a pass over its output for the months and factors the
 * bill's summary does not hold): every figure is the summary's own number, so the page and the JSON agree.
 */

/** One bar and table row: a group's kg and rows (and a money or cost amount where the breakdown is by amount). */
export interface ReportItem {
  label: string;
  /** A second column of words: a classification's factor name. */
  name?: string;
  kg: number;
  rows: number;
}

/** A breakdown of the emissions: one chart and its table. */
export interface ReportSection {
  id: string;
  title: string;
  /** What the groups are, as the table's first column heads it. */
  key: string;
  items: ReportItem[];
  /** In time order (months) rather than largest first. */
  series?: boolean;
  /** The summary field the figures come from (`by_country`), for a reader checking them. */
  field: string;
}

/** A currency's (or the bill's) amount, and the part of it estimated. */
export interface CoverageAmount {
  label: string;
  total: number;
  estimated: number;
  share: number | null;
}

/** Rows not estimated, by reason or error code: how many, an example, and their amount where known. */
export interface NotEstimated {
  reason: string;
  rows: number;
  amount?: number;
  example?: string;
}

export interface ReportFactor {
  id: string;
  name: string;
  source: string;
  region: string;
  year: string;
  kg: number;
  rows: number;
}

export interface ReportModel {
  command: 'spend' | 'cloud' | 'billing';
  title: string;
  /** The output file the report is of (its name). */
  output: string;
  total_kg: number;
  total_t: number;
  total_kwh: number | null;
  rows: number;
  estimated_rows: number;
  not_estimated_rows: number;
  /** What the coverage is measured in: spend by currency, a bill by its cost, cloud usage by rows. */
  coverage: { unit: 'money' | 'cost' | 'rows'; amounts: CoverageAmount[]; not_estimated: NotEstimated[] };
  sections: ReportSection[];
  factors: ReportFactor[];
  sources: DatasetInfo[];
}

type Groups = Record<string, { kg: number; rows: number; name?: string }>;

const items = (groups: Groups | undefined): ReportItem[] =>
  Object.entries(groups ?? {})
    .map(([label, group]) => ({
      label,
      ...(group.name !== undefined && group.name !== '' && { name: group.name }),
      kg: group.kg,
      rows: group.rows,
    }))
    .sort((a, b) => b.kg - a.kg || (a.label < b.label ? -1 : 1));

function section(
  summary: Record<string, unknown>,
  field: string,
  title: string,
  key: string,
  series = false,
): ReportSection[] {
  const groups = summary[field] as Groups | undefined;
  if (groups === undefined || Object.keys(groups).length === 0) return [];
  const list = items(groups);
  if (series) list.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return [{ id: field.replace(/^by_/, ''), title, key, items: list, field, ...(series && { series }) }];
}

/** Whether a parsed summary is a bill's (src/billing/summary.ts) rather than a ledger's. */
export const isBillingSummary = (summary: Record<string, unknown>): boolean =>
  typeof summary.format === 'string' && typeof summary.cost === 'object' && summary.by_provider !== undefined;

/** The columns of a bill that date its lines, tried in order. */
const BILL_DATE_COLUMNS = [
  'ChargePeriodStart',
  'BillingPeriodStart',
  'lineItem/UsageStartDate',
  'line_item_usage_start_date',
  'usage_start_time',
  'Date',
  'UsageDate',
] as const;

/** What a bill's summary lacks and its output has: kg by month and by factor. */
export interface BillExtras {
  by_month: Groups;
  factors: ReportFactor[];
}

/**
 * Reads a bill's output for {@link BillExtras}: each estimated line's `co2e_kg` by the month of its first date
 * column, and by `co2e_factor_id`.
 */
export async function billExtras(rows: AsyncIterable<Record<string, unknown>>): Promise<BillExtras> {
  const months = new Map<string, { kg: Decimal; rows: number }>();
  const factors = new Map<string, { kg: Decimal; rows: number; calculator: string }>();
  let dateColumn: string | undefined | null = null;
  for await (const row of rows) {
    if (row.co2e_status !== 'estimated') continue;
    const text = String(row.co2e_kg ?? '');
    if (text === '' || !Number.isFinite(Number(text))) continue;
    const kg = decimal(text);
    if (dateColumn === null) dateColumn = BILL_DATE_COLUMNS.find((name) => name in row);
    const month = dateColumn === undefined ? undefined : monthOf(String(row[dateColumn] ?? ''));
    const monthKey = month ?? '(no date)';
    const entry = months.get(monthKey) ?? { kg: decimal(0), rows: 0 };
    entry.kg = add(entry.kg, kg);
    entry.rows += 1;
    months.set(monthKey, entry);
    const id = String(row.co2e_factor_id ?? '');
    if (id !== '' && id !== 'null') {
      const factor = factors.get(id) ?? {
        kg: decimal(0),
        rows: 0,
        calculator: String(row.co2e_calculator ?? ''),
      };
      factor.kg = add(factor.kg, kg);
      factor.rows += 1;
      factors.set(id, factor);
    }
  }
  // Summed exactly as the decimals the cells hold, as the bill's summary sums them.
  const total = (value: Decimal) => toNumber(value);
  return {
    by_month: Object.fromEntries(
      [...months].map(([month, entry]) => [month, { kg: total(entry.kg), rows: entry.rows }]),
    ),
    factors: [...factors]
      .map(([id, entry]) => ({
        id,
        name: entry.calculator,
        source: '',
        region: '',
        year: '',
        kg: total(entry.kg),
        rows: entry.rows,
      }))
      .sort((a, b) => b.kg - a.kg),
  };
}

/**
 * The report of a run from its summary (`spend`, `cloud`, or a bill's) and, for a bill, {@link BillExtras}.
 *
 * @example
 * ```ts
 * const model = reportModel(JSON.parse(readFileSync('summary.json', 'utf8')), 'out.csv', sources);
 * model.sections.map((section) => section.title); // ['By classification', 'By country', …]
 * ```
 */
export function reportModel(
  summary: Record<string, unknown>,
  output: string,
  sources: readonly DatasetInfo[],
  extras?: BillExtras,
): ReportModel {
  if (isBillingSummary(summary)) return billModel(summary, output, sources, extras);
  const command = summary.command === 'cloud' ? 'cloud' : 'spend';
  const errors = (summary.by_error_code ?? {}) as Record<string, { rows: number; example: string }>;
  const notEstimated = Object.entries(errors).map(([reason, entry]) => ({
    reason,
    rows: entry.rows,
    example: entry.example,
  }));
  const currencies = (summary.by_currency ?? {}) as Record<
    string,
    { money: number; money_estimated: number; share_estimated: number | null }
  >;
  const sections =
    command === 'spend'
      ? [
          ...section(summary, 'by_classification', 'By classification', 'Classification'),
          ...section(summary, 'by_country', 'By country', 'Country'),
          ...section(summary, 'by_supplier', 'By supplier', 'Supplier'),
          ...section(summary, 'by_month', 'By month', 'Month', true),
          ...section(summary, 'by_tag', 'By tag', 'Tag'),
          ...section(summary, 'by_year', 'By spend year', 'Year', true),
        ]
      : [
          ...section(summary, 'by_calculator', 'By calculator', 'Calculator'),
          ...section(summary, 'by_provider', 'By provider', 'Provider'),
          ...section(summary, 'by_region', 'By region', 'Region'),
          ...section(summary, 'by_service', 'By service', 'Service'),
          ...section(summary, 'by_month', 'By month', 'Month', true),
          ...section(summary, 'by_tag', 'By tag', 'Tag'),
        ];
  return {
    command,
    title: command === 'spend' ? 'Procurement spend emissions' : 'Cloud usage emissions',
    output,
    total_kg: Number(summary.total_kg),
    total_t: Number(summary.total_t),
    total_kwh: command === 'cloud' ? Number(summary.total_kwh) : null,
    rows: Number(summary.rows),
    estimated_rows: Number(summary.estimated_rows),
    not_estimated_rows: Number(summary.not_estimated_rows),
    coverage:
      command === 'spend'
        ? {
            unit: 'money',
            amounts: Object.entries(currencies).map(([label, entry]) => ({
              label,
              total: entry.money,
              estimated: entry.money_estimated,
              share: entry.share_estimated,
            })),
            not_estimated: notEstimated,
          }
        : { unit: 'rows', amounts: [], not_estimated: notEstimated },
    sections,
    factors: ((summary.factors ?? []) as ReportFactor[]).slice(),
    sources: ((summary.sources as DatasetInfo[] | undefined) ?? sources).slice(),
  };
}

function billModel(
  summary: Record<string, unknown>,
  output: string,
  sources: readonly DatasetInfo[],
  extras: BillExtras | undefined,
): ReportModel {
  const cost = summary.cost as { total: number; estimated: number; share_estimated: number | null };
  const reasons = summary.not_estimated as Array<{ reason: string; rows: number; cost: number }>;
  const withMonths = extras === undefined ? summary : { ...summary, by_month: extras.by_month };
  const totalKg = Number(summary.total_kg);
  return {
    command: 'billing',
    title: `Cloud bill emissions (${String(summary.format)})`,
    output,
    total_kg: totalKg,
    total_t: totalKg / 1000,
    total_kwh: Number(summary.total_kwh),
    rows: Number(summary.rows),
    estimated_rows: Number(summary.estimated_rows),
    not_estimated_rows: Number(summary.not_estimated_rows),
    coverage: {
      unit: 'cost',
      amounts: [{ label: 'Cost', total: cost.total, estimated: cost.estimated, share: cost.share_estimated }],
      not_estimated: reasons.map((entry) => ({ reason: entry.reason, rows: entry.rows, amount: entry.cost })),
    },
    sections: [
      ...section(withMonths, 'by_service', 'By service', 'Service'),
      ...section(withMonths, 'by_region', 'By region', 'Region'),
      ...section(withMonths, 'by_provider', 'By provider', 'Provider'),
      ...section(withMonths, 'by_account', 'By account', 'Account'),
      ...section(withMonths, 'by_calculator', 'By calculator', 'Calculator'),
      ...section(withMonths, 'by_month', 'By month', 'Month', true),
    ],
    factors: extras?.factors ?? [],
    sources: sources.slice(),
  };
}
