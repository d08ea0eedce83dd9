import { type Decimal, decimal, div, mul } from './decimal';

/**
 * Units of time and data, matched case-insensitively and reported in canonical form. Conversions are exact
 * ratios applied in decimal arithmetic, so 60 min is exactly 1 hour and 1 TB exactly 1000 GB.
 */

interface Ratio {
  /** Multiply by this (undefined for 1, which needs no multiplication)... */
  readonly times: Decimal | undefined;
  /** ...then divide by this (undefined for 1: where the ratio is a terminating decimal). */
  readonly per: Decimal | undefined;
}

// A factor of 1 is left out rather than multiplied or divided by: the result is the same decimal, without the work.
const ratio = (times: number, per = 1): Ratio => ({
  times: times === 1 ? undefined : decimal(times),
  per: per === 1 ? undefined : decimal(per),
});

// Spelled out rather than derived from the tables below, so no Decimal reaches the published types.
/** Canonical duration units. */
export type DurationUnit = 'hour' | 'min' | 'sec' | 'ms' | 'day';
/** Canonical data units (decimal: 1 TB = 1000 GB). */
export type DataUnit = 'KB' | 'MB' | 'GB' | 'TB' | 'PB';

/** Canonical duration units and their value in hours. */
const HOURS_PER_DURATION_UNIT: Readonly<Record<DurationUnit, Ratio>> = {
  hour: ratio(1),
  min: ratio(1, 60),
  sec: ratio(1, 3_600),
  ms: ratio(1, 3_600_000),
  day: ratio(24),
};
export const DURATION_UNITS = Object.keys(HOURS_PER_DURATION_UNIT) as DurationUnit[];

/** Accepted spellings (lowercase) of each canonical duration unit. */
const DURATION_ALIASES: Readonly<Record<string, DurationUnit>> = {
  hour: 'hour',
  h: 'hour',
  min: 'min',
  sec: 'sec',
  s: 'sec',
  ms: 'ms',
  day: 'day',
};
/** Every spelling a request may use, for error messages. */
export const DURATION_UNIT_SPELLINGS = Object.keys(DURATION_ALIASES);

/** Canonical data units and their value in GB (decimal: 1 TB = 1000 GB). */
const GB_PER_DATA_UNIT: Readonly<Record<DataUnit, Ratio>> = {
  KB: ratio(0.000001),
  MB: ratio(0.001),
  GB: ratio(1),
  TB: ratio(1000),
  PB: ratio(1_000_000),
};
export const DATA_UNITS = Object.keys(GB_PER_DATA_UNIT) as DataUnit[];

/** The canonical duration unit for a spelling, or undefined when it is not one. */
export function parseDurationUnit(spelling: string): DurationUnit | undefined {
  const lower = spelling.toLowerCase();
  // Own keys only: `constructor` or `__proto__` must not resolve to Object.prototype members.
  return Object.hasOwn(DURATION_ALIASES, lower) ? DURATION_ALIASES[lower] : undefined;
}

/** The canonical data unit for a spelling, or undefined when it is not one. */
export function parseDataUnit(spelling: string): DataUnit | undefined {
  const upper = spelling.toUpperCase();
  return Object.hasOwn(GB_PER_DATA_UNIT, upper) ? (upper as DataUnit) : undefined;
}

const convert = (value: Decimal, { times, per }: Ratio): Decimal => {
  const scaled = times === undefined ? value : mul(value, times);
  return per === undefined ? scaled : div(scaled, per);
};

/** `value` of `unit` in hours. */
export const toHours = (value: Decimal, unit: DurationUnit): Decimal =>
  convert(value, HOURS_PER_DURATION_UNIT[unit]);

/** `value` of `unit` in GB. */
export const toGigabytes = (value: Decimal, unit: DataUnit): Decimal =>
  convert(value, GB_PER_DATA_UNIT[unit]);

const GB_PER_GIB = decimal('1.073741824');
/** Binary gibibytes to decimal gigabytes (1 GiB = 1.073741824 GB), exactly. */
export const gibibytesToGigabytes = (gib: Decimal): Decimal => mul(gib, GB_PER_GIB);
