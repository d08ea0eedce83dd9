/**
 * The usage units billing exports write, as data: each spelling (matched case-insensitively, spaces and the
 * separators `-`, `/`, `_` ignored) to its dimension and the size of one unit. Azure writes a count in front
 * (`10 Hours`, `100 GB/Month`): the count multiplies the quantity, as CCF reads it
 * (packages/azure/src/lib/ConsumptionDetailRow.ts).
 */

/** What a quantity measures. */
export type UnitDimension =
  | 'time' // hours or seconds
  | 'data' // GB
  | 'data_time' // GB × hours or GB × seconds
  | 'data_month' // GB-months (the hours of a month come from the row)
  | 'count_month' // items × months (Azure managed disks: disk-months)
  | 'count'; // requests, operations, items

/** A parsed unit: `amount × count × scale` is the quantity in the dimension's base unit, exactly. */
export interface UsageUnit {
  dimension: UnitDimension;
  /** The number written in front of the unit (`10 Hours` → 10), as a decimal string; `1` when none. */
  count: string;
  /** Base units (GB, or 1 for time and counts) per unit, a terminating decimal string. */
  scale: string;
  /** The time base of `time` and `data_time` units. */
  time: 'hour' | 'sec';
  /** True when the export states binary units (GiB, TiB): converted at 1.073741824 GB per GiB, and said. */
  binary: boolean;
}

const GIB = '1.073741824';
const TIB = '1099.511627776';
type Entry = [UnitDimension, string, 'hour' | 'sec', boolean];
const H = 'hour' as const;
const S = 'sec' as const;

/**
 * Each unit once: its spellings (normalised: lower case, no spaces or separators), then its dimension, scale, time
 * base and whether it is binary.
 */
const UNIT_SPELLINGS: ReadonlyArray<[spellings: readonly string[], ...unit: Entry]> = [
  // time (AWS Hrs, Hours; Azure 1 Hour; GCP seconds; FOCUS Hours)
  [['hrs', 'hr', 'hour', 'hours', 'vcpuhours', 'vcpuhour', 'vcpuhrs'], 'time', '1', H, false],
  [['second', 'seconds'], 'time', '1', S, false],
  // data, in GB (decimal)
  [['bytes', 'byte'], 'data', '0.000000001', H, false],
  [['gb', 'gigabytes', 'gigabyte'], 'data', '1', H, false],
  [['tb', 'terabytes'], 'data', '1000', H, false],
  [['gib', 'gibibyte', 'gibibytes'], 'data', GIB, H, true],
  [['tib', 'tebibyte'], 'data', TIB, H, true],
  // data × time
  [['gbhours', 'gbhour', 'gbhrs'], 'data_time', '1', H, false],
  [['gibhours', 'gibibytehour', 'gibibytehours'], 'data_time', GIB, H, true],
  [['gbsecond', 'gbseconds', 'lambdagbsecond'], 'data_time', '1', S, false],
  [['byteseconds'], 'data_time', '0.000000001', S, false],
  // data × months
  [['gbmo', 'gbmonth', 'gbmonths', 'gbmp'], 'data_month', '1', H, false],
  [['tbmonth', 'tbmo'], 'data_month', '1000', H, false],
  [['gibmo', 'gibmonth', 'gibibytemonth', 'gibibytemonths'], 'data_month', GIB, H, true],
  [['tibmonth'], 'data_month', TIB, H, true],
  // items × months (Azure managed disks, `1/Month`)
  [['month', 'months', 'mo'], 'count_month', '1', H, false],
  // counts
  [['requests', 'request', 'count', 'operations'], 'count', '1', H, false],
  [['k'], 'count', '1000', H, false],
];

/** Spelling → [dimension, scale, time base, binary]. */
const UNITS: ReadonlyMap<string, Entry> = new Map(
  UNIT_SPELLINGS.flatMap(([spellings, ...unit]) => spellings.map((spelling) => [spelling, unit] as const)),
);

const normalise = (spelling: string) => spelling.toLowerCase().replace(/[\s\-/_()]+/g, '');

/**
 * The unit a row states, or undefined when the spelling is unknown. A leading count (`10 Hours`, `100 GB/Month`,
 * `1/Month`, `10K`) multiplies the quantity.
 *
 * @example
 * ```ts
 * parseUsageUnit('10 Hours'); // { dimension: 'time', count: '10', scale: '1', time: 'hour', binary: false }
 * ```
 */
export function parseUsageUnit(spelling: string): UsageUnit | undefined {
  const whole = UNITS.get(normalise(spelling));
  if (whole !== undefined) return entry(whole, '1');
  const counted = /^\s*(\d+(?:\.\d+)?)\s*(\S.*)$/.exec(spelling);
  if (counted === null) return undefined;
  const rest = UNITS.get(normalise(counted[2]!));
  return rest === undefined ? undefined : entry(rest, counted[1]!);
}

const entry = ([dimension, scale, time, binary]: Entry, count: string): UsageUnit => ({
  dimension,
  count,
  scale,
  time,
  binary,
});
