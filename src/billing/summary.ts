import { compare, div, isZero, toNumber } from '../core/decimal';
import { DecimalReading, DecimalSum } from '../core/decimal-sum';
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
  /**
   * Cost (the export's effective cost, else billed cost): `total` and `estimated` sum all rows and the estimated ones
   * (credits included, so net); `charges` and `estimated_charges` sum their positive costs alone, and
   * `share_estimated` is `estimated_charges / charges`, between 0 and 1 (null when nothing was charged): a credit
   * lowers the bill, not the share of the usage that was estimated. `unreadable_rows` counts the rows whose cost is
   * not a plain decimal (`1,234.50`, `$5.00`): they are in no sum, and while there are any the share is unknown
   * (null), not computed as if they cost nothing.
   */
  cost: CurrencyCost & {
    /**
     * The currencies the rows state (FOCUS `BillingCurrency`, CUR `lineItem/CurrencyCode`, GCP `currency`, Azure
     * `BillingCurrencyCode`), sorted. With more than one, the sums above add different currencies: read
     * `by_currency`; `share_estimated` is then null.
     */
    currencies: string[];
    /** The cost figures of the rows of each stated currency. */
    by_currency: Record<string, CurrencyCost>;
  };
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

/** The cost figures of the rows of one currency (see {@link BillingSummary.cost}). */
export interface CurrencyCost {
  total: number;
  estimated: number;
  charges: number;
  estimated_charges: number;
  share_estimated: number | null;
  unreadable_rows: number;
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
  kg: DecimalSum;
  rows: number;
}

/** A plain decimal text above zero (a digit 1–9 before any exponent): a charge, not a credit or nothing. */
const POSITIVE = /^\+?[0.]*[1-9]/;

/** A number or decimal text read once for the exact sums it goes into. */
type Addend = DecimalReading;
const addend = (value: number | string): Addend => {
  const reading = new DecimalReading();
  reading.read(String(value));
  return reading;
};
const sumOf = (...addends: Addend[]): DecimalSum => {
  const sum = new DecimalSum();
  for (const reading of addends) sum.addReading(reading);
  return sum;
};
const sumOfText = (text: string): DecimalSum => {
  const sum = new DecimalSum();
  sum.add(text);
  return sum;
};
const valueOf = (sum: DecimalSum): number => toNumber(sum.total());
/** Estimated charges over charges; null when nothing was charged or some costs could not be read. */
const shareOf = (estimated: DecimalSum, charges: DecimalSum, unreadable: number): number | null =>
  unreadable > 0 || isZero(charges.total()) ? null : toNumber(div(estimated.total(), charges.total()));

/** A group of a {@link BillingSummaryState}: its key, its kg as exact decimal text, its rows. */
type GroupState = [key: string, kg: string, rows: number];

/**
 * A summary's sums so far as plain data (exact decimal text), in first-seen order: what a worker thread posts for
 * its chunk and what a resumable run saves, for {@link BillingSummaryBuilder.merge}. The format and the missing
 * columns are not in it: they are the builder's own.
 */
export interface BillingSummaryState {
  rows: number;
  estimated: number;
  providers: string[];
  totalKg: string;
  totalKwh: string;
  costTotal: string;
  costEstimated: string;
  costCharges: string;
  costEstimatedCharges: string;
  costUnreadable: number;
  ratioRows: number;
  ratioKg: string;
  groups: Record<'provider' | 'service' | 'region' | 'account' | 'calculator', GroupState[]>;
  /** Per `groupBy` key, in the builder's order. */
  extra: Array<[key: string, groups: GroupState[]]>;
  reasons: Array<[reason: string, rows: number, cost: string]>;
  unclassified: Array<[service: string, unit: string, rows: number, cost: string]>;
  /** Per stated currency: total, estimated, charges, estimated charges (decimal text), unreadable rows. */
  currencies: Array<[currency: string, ...sums: [string, string, string, string], unreadable: number]>;
}

const GROUP_NAMES = ['provider', 'service', 'region', 'account', 'calculator'] as const;

const isText = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isDecimalText = (value: unknown): value is string => isText(value) && DecimalSum.isPlainDecimal(value);
/** Whether `value` is an array of tuples whose items pass `checks`, one check per position. */
const isTuples = (value: unknown, checks: ReadonlyArray<(item: unknown) => boolean>): boolean =>
  Array.isArray(value) &&
  value.every(
    (entry) =>
      Array.isArray(entry) &&
      entry.length === checks.length &&
      checks.every((check, index) => check(entry[index])),
  );
const isGroupStates = (value: unknown): value is GroupState[] =>
  isTuples(value, [isText, isDecimalText, isCount]);

/**
 * Whether `value` is a {@link BillingSummaryState} whole (a saved state read back from disk is checked before it is
 * merged).
 *
 * @example
 * ```ts
 * isBillingSummaryState(createBillingSummary('focus').state()); // true
 * isBillingSummaryState({ rows: 1 }); // false
 * ```
 */
export function isBillingSummaryState(value: unknown): value is BillingSummaryState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const groups = state.groups as Record<string, unknown> | null | undefined;
  return (
    isCount(state.rows) &&
    isCount(state.estimated) &&
    Array.isArray(state.providers) &&
    state.providers.every(isText) &&
    [
      state.totalKg,
      state.totalKwh,
      state.costTotal,
      state.costEstimated,
      state.costCharges,
      state.costEstimatedCharges,
      state.ratioKg,
    ].every(isDecimalText) &&
    isCount(state.ratioRows) &&
    isCount(state.costUnreadable) &&
    typeof groups === 'object' &&
    groups !== null &&
    GROUP_NAMES.every((name) => isGroupStates(groups[name])) &&
    isTuples(state.extra, [isText, isGroupStates]) &&
    isTuples(state.reasons, [isText, isCount, isDecimalText]) &&
    isTuples(state.unclassified, [isText, isText, isCount, isDecimalText]) &&
    isTuples(state.currencies, [isText, isDecimalText, isDecimalText, isDecimalText, isDecimalText, isCount])
  );
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
  const unclassified = new Map<string, { service: string; unit: string; rows: number; cost: DecimalSum }>();
  let rows = 0;
  let estimated = 0;
  // Exact sums (integers of 10^-30 where the digits allow): summing a row's kg into its six totals costs a few
  // BigInt additions, not six decimal additions.
  const totalKg = new DecimalSum();
  const totalKwh = new DecimalSum();
  const costTotal = new DecimalSum();
  const costEstimated = new DecimalSum();
  const costCharges = new DecimalSum();
  const costEstimatedCharges = new DecimalSum();
  let costUnreadable = 0;
  let ratioRows = 0;
  const ratioKg = new DecimalSum();
  const groups = {
    provider: new Map<string, Group>(),
    service: new Map<string, Group>(),
    region: new Map<string, Group>(),
    account: new Map<string, Group>(),
    calculator: new Map<string, Group>(),
  };
  const reasons = new Map<string, { rows: number; cost: DecimalSum }>();
  /** Per stated currency: total, estimated, charges, estimated charges, and the rows of unreadable cost. */
  const currencies = new Map<
    string,
    { sums: [DecimalSum, DecimalSum, DecimalSum, DecimalSum]; unreadable: number }
  >();
  const currency = (code: string) => {
    let entry = currencies.get(code);
    if (entry === undefined) {
      entry = {
        sums: [new DecimalSum(), new DecimalSum(), new DecimalSum(), new DecimalSum()],
        unreadable: 0,
      };
      currencies.set(code, entry);
    }
    return entry;
  };
  const bump = (map: Map<string, Group>, key: string, kg: Addend) => {
    const group = map.get(key);
    if (group === undefined) map.set(key, { kg: sumOf(kg), rows: 1 });
    else {
      group.kg.addReading(kg);
      group.rows += 1;
    }
  };
  const groupStates = (map: Map<string, Group>): GroupState[] =>
    [...map].map(([key, group]) => [key, group.kg.text(), group.rows]);
  const mergeGroups = (map: Map<string, Group>, states: readonly GroupState[]) => {
    for (const [key, kg, count] of states) {
      const group = map.get(key);
      if (group === undefined) map.set(key, { kg: sumOfText(kg), rows: count });
      else {
        group.kg.add(kg);
        group.rows += count;
      }
    }
  };
  const out = (map: Map<string, Group>): Record<string, GroupTotal> =>
    Object.fromEntries(
      [...map]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, group]) => [key, { kg: valueOf(group.kg), rows: group.rows }]),
    );
  return {
    add(row: BillingColumns, facts: LineFacts): void {
      rows += 1;
      providers.add(facts.provider);
      if (facts.costUnreadable) costUnreadable += 1;
      const cost = addend(facts.cost ?? 0);
      costTotal.addReading(cost);
      const charge = facts.cost !== null && POSITIVE.test(facts.cost);
      if (charge) costCharges.addReading(cost);
      const money = facts.currency === '' ? undefined : currency(facts.currency);
      if (money !== undefined) {
        if (facts.costUnreadable) money.unreadable += 1;
        money.sums[0].addReading(cost);
        if (charge) money.sums[2].addReading(cost);
        if (row.co2e_status === 'estimated' && row.co2e_kg !== null) {
          money.sums[1].addReading(cost);
          if (charge) money.sums[3].addReading(cost);
        }
      }
      if (row.co2e_status === 'estimated' && row.co2e_kg !== null) {
        estimated += 1;
        const kg = addend(row.co2e_kg);
        totalKg.addReading(kg);
        if (row.co2e_kwh !== null) totalKwh.add(String(row.co2e_kwh));
        costEstimated.addReading(cost);
        if (charge) costEstimatedCharges.addReading(cost);
        if (row.co2e_calculator === 'cost-ratio') {
          ratioRows += 1;
          ratioKg.addReading(kg);
        }
        bump(groups.provider, facts.provider, kg);
        bump(groups.service, facts.service || '(none)', kg);
        bump(groups.region, facts.region || '(none)', kg);
        bump(groups.account, facts.account || '(none)', kg);
        bump(groups.calculator, row.co2e_calculator ?? '(none)', kg);
        for (const [key, map] of extra) bump(map, groupValue(facts, key), kg);
      } else {
        const entry = reasons.get(row.co2e_reason);
        if (entry === undefined) reasons.set(row.co2e_reason, { rows: 1, cost: sumOf(cost) });
        else {
          entry.rows += 1;
          entry.cost.addReading(cost);
        }
        if (row.co2e_reason === 'unknown_usage_type' || row.co2e_reason === 'unknown_unit') {
          const pair = `${facts.service}\u0000${facts.unit}`;
          const known = unclassified.get(pair);
          if (known === undefined)
            unclassified.set(pair, { service: facts.service, unit: facts.unit, rows: 1, cost: sumOf(cost) });
          else {
            known.rows += 1;
            known.cost.addReading(cost);
          }
        }
      }
    },
    /** The sums so far as plain data, for {@link BillingSummaryBuilder.merge} in another thread or run. */
    state(): BillingSummaryState {
      return {
        rows,
        estimated,
        providers: [...providers],
        totalKg: totalKg.text(),
        totalKwh: totalKwh.text(),
        costTotal: costTotal.text(),
        costEstimated: costEstimated.text(),
        costCharges: costCharges.text(),
        costEstimatedCharges: costEstimatedCharges.text(),
        costUnreadable,
        ratioRows,
        ratioKg: ratioKg.text(),
        groups: {
          provider: groupStates(groups.provider),
          service: groupStates(groups.service),
          region: groupStates(groups.region),
          account: groupStates(groups.account),
          calculator: groupStates(groups.calculator),
        },
        extra: [...extra].map(([key, map]) => [key, groupStates(map)]),
        reasons: [...reasons].map(([reason, entry]) => [reason, entry.rows, entry.cost.text()]),
        unclassified: [...unclassified.values()].map((entry) => [
          entry.service,
          entry.unit,
          entry.rows,
          entry.cost.text(),
        ]),
        currencies: [...currencies].map(([code, { sums, unreadable }]) => [
          code,
          sums[0].text(),
          sums[1].text(),
          sums[2].text(),
          sums[3].text(),
          unreadable,
        ]),
      };
    },
    /**
     * Adds the rows of a later part of the same bill (a chunk computed elsewhere, the rows a resumed run kept),
     * exactly: merged in file order, the result is that of adding every row here.
     */
    merge(state: BillingSummaryState): void {
      rows += state.rows;
      estimated += state.estimated;
      for (const provider of state.providers) providers.add(provider);
      totalKg.add(state.totalKg);
      totalKwh.add(state.totalKwh);
      costTotal.add(state.costTotal);
      costEstimated.add(state.costEstimated);
      costCharges.add(state.costCharges);
      costEstimatedCharges.add(state.costEstimatedCharges);
      costUnreadable += state.costUnreadable;
      ratioRows += state.ratioRows;
      ratioKg.add(state.ratioKg);
      for (const name of GROUP_NAMES) mergeGroups(groups[name], state.groups[name]);
      for (const [key, states] of state.extra) {
        const map = extra.get(key);
        if (map !== undefined) mergeGroups(map, states);
      }
      for (const [reason, count, cost] of state.reasons) {
        const entry = reasons.get(reason);
        if (entry === undefined) reasons.set(reason, { rows: count, cost: sumOfText(cost) });
        else {
          entry.rows += count;
          entry.cost.add(cost);
        }
      }
      for (const [code, total, estimatedCost, charges, estimatedCharges, unreadable] of state.currencies) {
        const entry = currency(code);
        [total, estimatedCost, charges, estimatedCharges].forEach((text, index) =>
          entry.sums[index]!.add(text),
        );
        entry.unreadable += unreadable;
      }
      for (const [service, unit, count, cost] of state.unclassified) {
        const pair = `${service}\u0000${unit}`;
        const known = unclassified.get(pair);
        if (known === undefined)
          unclassified.set(pair, { service, unit, rows: count, cost: sumOfText(cost) });
        else {
          known.rows += count;
          known.cost.add(cost);
        }
      }
    },
    result(): BillingSummary {
      return {
        format,
        rows,
        estimated_rows: estimated,
        not_estimated_rows: rows - estimated,
        total_kg: valueOf(totalKg),
        total_kwh: valueOf(totalKwh),
        by_provider: out(groups.provider),
        by_service: out(groups.service),
        by_region: out(groups.region),
        by_account: out(groups.account),
        by_calculator: out(groups.calculator),
        cost: {
          total: valueOf(costTotal),
          estimated: valueOf(costEstimated),
          charges: valueOf(costCharges),
          estimated_charges: valueOf(costEstimatedCharges),
          share_estimated:
            currencies.size > 1 ? null : shareOf(costEstimatedCharges, costCharges, costUnreadable),
          unreadable_rows: costUnreadable,
          currencies: [...currencies.keys()].sort(),
          by_currency: Object.fromEntries(
            [...currencies]
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([code, { sums, unreadable }]) => [
                code,
                {
                  total: valueOf(sums[0]),
                  estimated: valueOf(sums[1]),
                  charges: valueOf(sums[2]),
                  estimated_charges: valueOf(sums[3]),
                  share_estimated: shareOf(sums[3], sums[2], unreadable),
                  unreadable_rows: unreadable,
                },
              ]),
          ),
        },
        not_estimated: [...reasons]
          .map(([reason, entry]) => ({ reason, rows: entry.rows, cost: valueOf(entry.cost) }))
          .sort((a, b) => b.cost - a.cost || b.rows - a.rows || (a.reason < b.reason ? -1 : 1)),
        cost_ratio: { rows: ratioRows, kg: valueOf(ratioKg) },
        unclassified: [...unclassified.values()]
          .map((entry) => ({ ...entry, exact: entry.cost.total() }))
          .sort(
            (a, b) =>
              compare(b.exact, a.exact) ||
              b.rows - a.rows ||
              (a.service + a.unit < b.service + b.unit ? -1 : 1),
          )
          .slice(0, UNCLASSIFIED_SHOWN)
          .map(({ service, unit, rows, exact }) => ({ service, unit, rows, cost: toNumber(exact) })),
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
