import { add, compare, type Decimal, decimal, div, isZero, toNumber } from '../core/decimal';
import type { LineFacts } from './classify';
import type { BillingColumns } from './estimate';
import type { MissingColumn } from './formats';
import { groupValue, parseGroupBy } from './groups';

/** kg CO2e and rows of one group. */
export interface GroupTotal {
  kg: number;
  rows: number;
}

/** The summary of a bill: totals equal the sums of the rows' columns, exactly (summed as the decimals shown). */
export interface BillingSummary {
  format: string;
  rows: number;
  estimated_rows: number;
  not_estimated_rows: number;
  /** Sum of `co2e_kg` over the rows. */
  total_kg: number;
  /** Sum of `co2e_kwh` over the rows that have one. */
  total_kwh: number;
  by_provider: Record<string, GroupTotal>;
  by_service: Record<string, GroupTotal>;
  by_region: Record<string, GroupTotal>;
  by_account: Record<string, GroupTotal>;
  by_calculator: Record<string, GroupTotal>;
  /** Cost (the export's effective cost, else billed cost) of all rows and of the estimated ones. */
  cost: { total: number; estimated: number; share_estimated: number | null };
  /** Reasons rows were not estimated, most cost first (then most rows, then name). */
  not_estimated: { reason: string; rows: number; cost: number }[];
  /** Rows estimated by `--unknown cost-ratio`, and their kg (included in the totals). */
  cost_ratio: { rows: number; kg: number };
  /**
   * The (service, unit) pairs no rule classified (`unknown_usage_type`, `unknown_unit`), most cost first (then most
   * rows), at most {@link UNCLASSIFIED_SHOWN}: what to add to the classification table first.
   */
  unclassified: { service: string; unit: string; rows: number; cost: number }[];
  /** Columns the export lacked that would have helped, each with what the reader did instead (providers seen). */
  missing_columns: string[];
  /** Per `groupBy` key (`resource`, `tag:team`, `account`, `service`, `region`, `month`): kg and rows per value. */
  groups?: Record<string, Record<string, GroupTotal>>;
}

/** The most (service, unit) pairs {@link BillingSummary.unclassified} lists. */
export const UNCLASSIFIED_SHOWN = 20;

/** Options of {@link createBillingSummary}. */
export interface BillingSummaryOptions {
  /** Extra groupings, as {@link parseGroupBy} takes them. */
  groupBy?: readonly string[];
  /** The estimator's {@link BillingEstimator.missing}: listed for the providers the rows have. */
  missing?: readonly MissingColumn[];
}

interface Group {
  kg: Decimal;
  rows: number;
}

/**
 * Accumulates rows into a {@link BillingSummary}, one at a time (the CLI streams), in exact decimals.
 *
 * @example
 * ```ts
 * const summary = createBillingSummary('focus');
 * for (const { row, facts } of estimated) summary.add(row, facts);
 * summary.result().total_kg;
 * ```
 */
export function createBillingSummary(format: string, options: BillingSummaryOptions = {}) {
  const groupBy = parseGroupBy(options.groupBy ?? []).keys;
  const extra = new Map(groupBy.map((key) => [key, new Map<string, Group>()]));
  const providers = new Set<string>();
  const unclassified = new Map<string, { service: string; unit: string; rows: number; cost: Decimal }>();
  let rows = 0;
  let estimated = 0;
  let totalKg = decimal(0);
  let totalKwh = decimal(0);
  let costTotal = decimal(0);
  let costEstimated = decimal(0);
  let ratioRows = 0;
  let ratioKg = decimal(0);
  const groups = {
    provider: new Map<string, Group>(),
    service: new Map<string, Group>(),
    region: new Map<string, Group>(),
    account: new Map<string, Group>(),
    calculator: new Map<string, Group>(),
  };
  const reasons = new Map<string, { rows: number; cost: Decimal }>();
  const bump = (map: Map<string, Group>, key: string, kg: Decimal) => {
    const group = map.get(key) ?? { kg: decimal(0), rows: 0 };
    map.set(key, { kg: add(group.kg, kg), rows: group.rows + 1 });
  };
  const out = (map: Map<string, Group>): Record<string, GroupTotal> =>
    Object.fromEntries(
      [...map]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, group]) => [key, { kg: toNumber(group.kg), rows: group.rows }]),
    );
  return {
    add(row: BillingColumns, facts: LineFacts): void {
      rows += 1;
      providers.add(facts.provider);
      const cost = decimal(facts.cost ?? 0);
      costTotal = add(costTotal, cost);
      if (row.co2e_status === 'estimated' && row.co2e_kg !== null) {
        estimated += 1;
        const kg = decimal(row.co2e_kg);
        totalKg = add(totalKg, kg);
        if (row.co2e_kwh !== null) totalKwh = add(totalKwh, decimal(row.co2e_kwh));
        costEstimated = add(costEstimated, cost);
        if (row.co2e_calculator === 'cost-ratio') {
          ratioRows += 1;
          ratioKg = add(ratioKg, kg);
        }
        bump(groups.provider, facts.provider, kg);
        bump(groups.service, facts.service || '(none)', kg);
        bump(groups.region, facts.region || '(none)', kg);
        bump(groups.account, facts.account || '(none)', kg);
        bump(groups.calculator, row.co2e_calculator ?? '(none)', kg);
        for (const [key, map] of extra) bump(map, groupValue(facts, key), kg);
      } else {
        const entry = reasons.get(row.co2e_reason) ?? { rows: 0, cost: decimal(0) };
        reasons.set(row.co2e_reason, { rows: entry.rows + 1, cost: add(entry.cost, cost) });
        if (row.co2e_reason === 'unknown_usage_type' || row.co2e_reason === 'unknown_unit') {
          const pair = `${facts.service}\u0000${facts.unit}`;
          const known = unclassified.get(pair) ?? {
            service: facts.service,
            unit: facts.unit,
            rows: 0,
            cost: decimal(0),
          };
          unclassified.set(pair, { ...known, rows: known.rows + 1, cost: add(known.cost, cost) });
        }
      }
    },
    result(): BillingSummary {
      return {
        format,
        rows,
        estimated_rows: estimated,
        not_estimated_rows: rows - estimated,
        total_kg: toNumber(totalKg),
        total_kwh: toNumber(totalKwh),
        by_provider: out(groups.provider),
        by_service: out(groups.service),
        by_region: out(groups.region),
        by_account: out(groups.account),
        by_calculator: out(groups.calculator),
        cost: {
          total: toNumber(costTotal),
          estimated: toNumber(costEstimated),
          share_estimated: isZero(costTotal) ? null : toNumber(div(costEstimated, costTotal)),
        },
        not_estimated: [...reasons]
          .map(([reason, entry]) => ({ reason, rows: entry.rows, cost: toNumber(entry.cost) }))
          .sort((a, b) => b.cost - a.cost || b.rows - a.rows || (a.reason < b.reason ? -1 : 1)),
        cost_ratio: { rows: ratioRows, kg: toNumber(ratioKg) },
        unclassified: [...unclassified.values()]
          .sort(
            (a, b) =>
              compare(b.cost, a.cost) ||
              b.rows - a.rows ||
              (a.service + a.unit < b.service + b.unit ? -1 : 1),
          )
          .slice(0, UNCLASSIFIED_SHOWN)
          .map((entry) => ({ ...entry, cost: toNumber(entry.cost) })),
        missing_columns: (options.missing ?? [])
          .filter((entry) => entry.provider === undefined || providers.has(entry.provider))
          .map((entry) => entry.text),
        ...(extra.size > 0 && {
          groups: Object.fromEntries([...extra].map(([key, map]) => [key, out(map)])),
        }),
      };
    },
  };
}
export type BillingSummaryBuilder = ReturnType<typeof createBillingSummary>;
