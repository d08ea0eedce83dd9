import { deepFreeze } from './freeze';
import type { AnyCase } from './any-case';
import { type Decimal, decimal, div, mul } from './decimal';
import { commonPrefixLength } from './spelling';

/**
 * Units of time and data, matched case-insensitively in every spelling listed below and reported in canonical
 * form. Conversions are exact ratios applied in decimal arithmetic, so 60 min is exactly 1 hour and 1 TB exactly
 * 1000 GB.
 */

interface Ratio {
  /** Multiply by this (undefined for 1, which needs no multiplication)... */
  readonly times: Decimal | undefined;
  /** ...then divide by this (undefined for 1: where the ratio is a terminating decimal). */
  readonly per: Decimal | undefined;
}

// A factor of 1 is left out rather than multiplied or divided by: the result is the same decimal, without the work.
const ratio = (times: number | string, per = 1): Ratio => ({
  times: times === 1 ? undefined : decimal(times),
  per: per === 1 ? undefined : decimal(per),
});

// Spelled out rather than derived from the tables below, so no Decimal reaches the published types.
/** Canonical duration units. */
export type DurationUnit = 'hour' | 'min' | 'sec' | 'ms' | 'day';
/** Canonical data units: decimal (1 TB = 1000 GB) and binary (1 GiB = 1.073741824 GB). */
export type DataUnit = 'KB' | 'MB' | 'GB' | 'TB' | 'PB' | 'KiB' | 'MiB' | 'GiB' | 'TiB' | 'PiB';

/**
 * Every accepted spelling of each canonical duration unit, the canonical one first. Not `m`: it means minutes to
 * some and months or metres to others, and reading it wrongly scales a result by 43,800 (a month in minutes), so
 * it is rejected with a "did you mean: min, ms" instead of guessed.
 */
const DURATION_SPELLINGS = {
  hour: ['hour', 'hours', 'h', 'hr', 'hrs'],
  min: ['min', 'mins', 'minute', 'minutes'],
  sec: ['sec', 'secs', 's', 'second', 'seconds'],
  ms: ['ms', 'msec', 'millisecond', 'milliseconds'],
  day: ['day', 'days', 'd'],
} as const satisfies Record<DurationUnit, readonly string[]>;

/**
 * Every accepted spelling of each canonical data unit, the canonical one first. Decimal prefixes are decimal
 * (`KB` = 1000 bytes), as SPEC.md's units are; the binary units are only their own IEC spellings (`GiB`,
 * `gibibyte`), so no spelling is read as the other family.
 */
const DATA_SPELLINGS = {
  KB: ['KB', 'kilobyte', 'kilobytes'],
  MB: ['MB', 'megabyte', 'megabytes'],
  GB: ['GB', 'gigabyte', 'gigabytes'],
  TB: ['TB', 'terabyte', 'terabytes'],
  PB: ['PB', 'petabyte', 'petabytes'],
  KiB: ['KiB', 'kibibyte', 'kibibytes'],
  MiB: ['MiB', 'mebibyte', 'mebibytes'],
  GiB: ['GiB', 'gibibyte', 'gibibytes'],
  TiB: ['TiB', 'tebibyte', 'tebibytes'],
  PiB: ['PiB', 'pebibyte', 'pebibytes'],
} as const satisfies Record<DataUnit, readonly string[]>;

/**
 * What `duration_unit` accepts: every spelling of {@link DURATION_UNIT_SPELLINGS} (`hour`, `hours`, `h`, `hr`,
 * `min`, `minutes`, `s`, `seconds`, `ms`, `day`, …) in lower, upper or capitalised case. Not `m` (ambiguous).
 *
 * @example
 * ```ts
 * const unit: DurationUnitSpelling = 'Minutes'; // 'week' or 'm' would not compile
 * ```
 */
export type DurationUnitSpelling = AnyCase<(typeof DURATION_SPELLINGS)[DurationUnit][number]>;
/**
 * What `data_unit` accepts: every spelling of {@link DATA_UNIT_SPELLINGS} (`GB`, `gb`, `gigabytes`, `GiB`, …).
 *
 * @example
 * ```ts
 * const unit: DataUnitSpelling = 'GiB'; // 1.073741824 GB
 * ```
 */
export type DataUnitSpelling = AnyCase<(typeof DATA_SPELLINGS)[DataUnit][number]>;

/**
 * A unit's ratio to the activity's unit as whole doubles: the quantity in the activity's unit is value × times / per
 * (the double-double fast paths' form of a {@link Ratio}).
 */
export interface UnitRatio {
  readonly times: number;
  readonly per: number;
  /** `per` = residue × 2^a × 5^b with the residue prime to 10: what a decimal quantity must be divisible by. */
  readonly residue: number;
  /** 10^shift / (2^a × 5^b), a whole number: dividing by per is × scale / residue, `shift` places further. */
  readonly scale: number;
  /** max(a, b): the places dividing by 2^a × 5^b adds. */
  readonly shift: number;
}

/**
 * A {@link UnitRatio} from its whole `times` and `per`, with `per` split into its factors 2 and 5 and the rest, so a
 * decimal divided by it stays a decimal where the rest divides it (the short products of core/short-product.ts).
 *
 * @example
 * ```ts
 * unitRatio(1, 60); // { times: 1, per: 60, residue: 3, scale: 5, shift: 2 }: x / 60 = x / 3 × 5 / 100
 * ```
 */
export function unitRatio(times: number, per = 1): UnitRatio {
  let residue = per;
  let twos = 0;
  let fives = 0;
  while (residue % 2 === 0) {
    residue /= 2;
    twos++;
  }
  while (residue % 5 === 0) {
    residue /= 5;
    fives++;
  }
  const shift = Math.max(twos, fives);
  return { times, per, residue, scale: 2 ** (shift - twos) * 5 ** (shift - fives), shift };
}

/** A quantity with no unit (a count, a replication factor), and no division. */
export const SAME_UNIT: UnitRatio = /* @__PURE__ */ unitRatio(1);

/** Canonical duration units and their value in hours: value × times / per, whole numbers. */
const HOURS_RATIO_NUMBERS: Readonly<Record<DurationUnit, UnitRatio>> = {
  hour: unitRatio(1, 1),
  min: unitRatio(1, 60),
  sec: unitRatio(1, 3_600),
  ms: unitRatio(1, 3_600_000),
  day: unitRatio(24, 1),
};
/** The same ratios as decimals. */
const HOURS_PER_DURATION_UNIT = Object.fromEntries(
  Object.entries(HOURS_RATIO_NUMBERS).map(([unit, { times, per }]) => [unit, ratio(times, per)]),
) as Readonly<Record<DurationUnit, Ratio>>;
export const DURATION_UNITS = /* @__PURE__ */ deepFreeze(
  Object.keys(HOURS_PER_DURATION_UNIT) as DurationUnit[],
);

/** Canonical data units and their value in GB; binary ones exactly (2³⁰ bytes = 1.073741824 GB). */
const GB_PER_DATA_UNIT: Readonly<Record<DataUnit, Ratio>> = {
  KB: ratio('0.000001'),
  MB: ratio('0.001'),
  GB: ratio(1),
  TB: ratio(1000),
  PB: ratio(1_000_000),
  KiB: ratio('0.000001024'),
  MiB: ratio('0.001048576'),
  GiB: ratio('1.073741824'),
  TiB: ratio('1099.511627776'),
  PiB: ratio('1125899.906842624'),
};
export const DATA_UNITS = /* @__PURE__ */ deepFreeze(Object.keys(GB_PER_DATA_UNIT) as DataUnit[]);

/** Every spelling of a family in the case it is listed, for error messages and `valid_values`. */
export const DURATION_UNIT_SPELLINGS: readonly string[] = Object.values(DURATION_SPELLINGS).flat();
export const DATA_UNIT_SPELLINGS: readonly string[] = Object.values(DATA_SPELLINGS).flat();

/** Lowercase spelling → canonical unit. A null prototype, so `constructor` or `__proto__` find nothing. */
function byLowercase<U extends string>(spellings: Readonly<Record<U, readonly string[]>>): Map<string, U> {
  const index = new Map<string, U>();
  for (const [unit, list] of Object.entries(spellings) as Array<[U, readonly string[]]>) {
    for (const spelling of list) {
      const lower = spelling.toLowerCase();
      // A spelling shared by two units would be read as whichever came last: refuse to build such a table.
      if (index.has(lower)) throw new Error(`unit spelling '${spelling}' is listed twice`);
      index.set(lower, unit);
    }
  }
  return index;
}
const DURATION_BY_SPELLING = byLowercase<DurationUnit>(DURATION_SPELLINGS);
const DATA_BY_SPELLING = byLowercase<DataUnit>(DATA_SPELLINGS);

/**
 * Each spelling as listed, in lower and in upper case → its unit: the spellings requests mostly send, found without
 * lowercasing them first (a new string per request where the spelling has capitals).
 */
function byCommonCases<U extends string>(spellings: Readonly<Record<U, readonly string[]>>): Map<string, U> {
  const common = new Map<string, U>();
  for (const [unit, list] of Object.entries(spellings) as Array<[U, readonly string[]]>) {
    for (const spelling of list) {
      common.set(spelling, unit);
      common.set(spelling.toLowerCase(), unit);
      common.set(spelling.toUpperCase(), unit);
    }
  }
  return common;
}
const DURATION_BY_COMMON_CASE = byCommonCases<DurationUnit>(DURATION_SPELLINGS);
const DATA_BY_COMMON_CASE = byCommonCases<DataUnit>(DATA_SPELLINGS);

/** The canonical duration unit for a spelling (any case), or undefined when it is not one. */
export const parseDurationUnit = (spelling: string): DurationUnit | undefined =>
  DURATION_BY_COMMON_CASE.get(spelling) ?? DURATION_BY_SPELLING.get(spelling.toLowerCase());

/** The canonical data unit for a spelling (any case), or undefined when it is not one. */
export const parseDataUnit = (spelling: string): DataUnit | undefined =>
  DATA_BY_COMMON_CASE.get(spelling) ?? DATA_BY_SPELLING.get(spelling.toLowerCase());

/**
 * The spellings closest to an unknown one, at most one per unit: of the units with a spelling sharing a prefix
 * with it (at least two characters, or all of a one-character spelling), those sharing the longest. `m` suggests
 * `min` and `ms`, `tera` `terabyte`, `week` nothing.
 */
function closeSpellings(spellings: Readonly<Record<string, readonly string[]>>, wanted: string): string[] {
  const target = wanted.toLowerCase();
  const needed = Math.min(2, target.length);
  if (needed === 0) return [];
  const best = Object.values(spellings).map((list) => {
    let closest = { spelling: '', shared: 0 };
    for (const spelling of list) {
      const shared = commonPrefixLength(spelling.toLowerCase(), target);
      if (shared > closest.shared) closest = { spelling, shared };
    }
    return closest;
  });
  const longest = Math.max(...best.map(({ shared }) => shared));
  if (longest < needed) return [];
  return best.filter(({ shared }) => shared === longest).map(({ spelling }) => spelling);
}

/** Duration spellings close to an unknown one, for "did you mean". */
export const closeDurationUnits = (wanted: string): string[] => closeSpellings(DURATION_SPELLINGS, wanted);
/** Data-unit spellings close to an unknown one, for "did you mean". */
export const closeDataUnits = (wanted: string): string[] => closeSpellings(DATA_SPELLINGS, wanted);

const convert = (value: Decimal, { times, per }: Ratio): Decimal => {
  const scaled = times === undefined ? value : mul(value, times);
  return per === undefined ? scaled : div(scaled, per);
};

/**
 * A duration unit's hours as whole doubles, hours = value × times / per (the double-double fast paths' form of the
 * same ratio).
 *
 * @example
 * ```ts
 * hoursRatio('min'); // { times: 1, per: 60 }
 * ```
 */
export const hoursRatio = (unit: DurationUnit): UnitRatio => HOURS_RATIO_NUMBERS[unit];

/** Canonical data units in GB as whole doubles, GB = value × times / per (exact: 2^50 and 10^9 are doubles). */
const GB_RATIO_NUMBERS: Readonly<Record<DataUnit, UnitRatio>> = {
  KB: unitRatio(1, 1_000_000),
  MB: unitRatio(1, 1_000),
  GB: unitRatio(1, 1),
  TB: unitRatio(1_000, 1),
  PB: unitRatio(1_000_000, 1),
  KiB: unitRatio(1_024, 1_000_000_000),
  MiB: unitRatio(1_048_576, 1_000_000_000),
  GiB: unitRatio(1_073_741_824, 1_000_000_000),
  TiB: unitRatio(1_099_511_627_776, 1_000_000_000),
  PiB: unitRatio(1_125_899_906_842_624, 1_000_000_000),
};

/**
 * A data unit's GB as whole doubles, GB = value × times / per (the double-double fast paths' form of the same ratio).
 *
 * @example
 * ```ts
 * gigabytesRatio('GiB'); // { times: 1073741824, per: 1000000000 }
 * ```
 */
export const gigabytesRatio = (unit: DataUnit): UnitRatio => GB_RATIO_NUMBERS[unit];

/** `value` of `unit` in hours. */
export const toHours = (value: Decimal, unit: DurationUnit): Decimal =>
  convert(value, HOURS_PER_DURATION_UNIT[unit]);

/** `value` of `unit` in GB. */
export const toGigabytes = (value: Decimal, unit: DataUnit): Decimal =>
  convert(value, GB_PER_DATA_UNIT[unit]);

/** Binary gibibytes to decimal gigabytes (1 GiB = 1.073741824 GB), exactly. */
export const gibibytesToGigabytes = (gib: Decimal): Decimal => toGigabytes(gib, 'GiB');
