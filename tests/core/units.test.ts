import { describe, expect, it } from 'vitest';
import { decimal, toPlainString } from '../../src/core/decimal';
import {
  DATA_UNITS,
  DURATION_UNITS,
  DURATION_UNIT_SPELLINGS,
  gibibytesToGigabytes,
  parseDataUnit,
  parseDurationUnit,
  toGigabytes,
  toHours,
} from '../../src/core/units';
import { dataUnit, durationUnit } from '../../src/core/validate';

describe('duration units', () => {
  it('lists the canonical units and every accepted spelling', () => {
    expect(DURATION_UNITS).toEqual(['hour', 'min', 'sec', 'ms', 'day']);
    expect(DURATION_UNIT_SPELLINGS).toEqual(['hour', 'h', 'min', 'sec', 's', 'ms', 'day']);
  });

  it.each([
    ['hour', 'hour'],
    ['HOUR', 'hour'],
    ['Hour', 'hour'],
    ['h', 'hour'],
    ['H', 'hour'],
    ['min', 'min'],
    ['MIN', 'min'],
    ['sec', 'sec'],
    ['s', 'sec'],
    ['S', 'sec'],
    ['ms', 'ms'],
    ['MS', 'ms'],
    ['day', 'day'],
    ['Day', 'day'],
  ])('%s → %s (case-insensitive, canonical)', (spelling, canonical) => {
    expect(parseDurationUnit(spelling)).toBe(canonical);
  });

  it.each(['hours', 'minute', 'week', 'd', '', ' h', 'constructor', '__proto__', 'toString'])(
    '%j is not a duration unit',
    (spelling) => {
      expect(parseDurationUnit(spelling)).toBeUndefined();
    },
  );

  it('converts to hours exactly', () => {
    const hours = (value: string, unit: Parameters<typeof toHours>[1]) =>
      toPlainString(toHours(decimal(value), unit));
    expect(hours('1.5', 'hour')).toBe('1.5');
    expect(hours('90', 'min')).toBe('1.5');
    expect(hours('5400', 'sec')).toBe('1.5');
    expect(hours('5400000', 'ms')).toBe('1.5');
    expect(hours('1', 'day')).toBe('24');
    expect(hours('1', 'min')).toBe(`0.01${'6'.repeat(37)}7`); // 1/60, 40 places, half up
  });

  it('the request schema defaults to hour and echoes the canonical form', () => {
    expect(durationUnit().parse(undefined)).toBe('hour');
    expect(durationUnit().parse('H')).toBe('hour');
    expect(durationUnit().parse('S')).toBe('sec');
    expect(durationUnit().safeParse('week').success).toBe(false);
  });
});

describe('data units', () => {
  it('lists the canonical units', () => {
    expect(DATA_UNITS).toEqual(['KB', 'MB', 'GB', 'TB', 'PB']);
  });

  it.each([
    ['KB', 'KB'],
    ['kb', 'KB'],
    ['Mb', 'MB'],
    ['gb', 'GB'],
    ['tB', 'TB'],
    ['pb', 'PB'],
  ])('%s → %s', (spelling, canonical) => {
    expect(parseDataUnit(spelling)).toBe(canonical);
  });

  it.each(['GiB', 'EB', 'B', 'bytes', '', 'constructor', '__PROTO__', 'tostring'])(
    '%j is not a data unit',
    (spelling) => {
      expect(parseDataUnit(spelling)).toBeUndefined();
    },
  );

  it('converts to GB with decimal prefixes (1 TB = 1000 GB)', () => {
    const gb = (value: string, unit: Parameters<typeof toGigabytes>[1]) =>
      toPlainString(toGigabytes(decimal(value), unit));
    expect(gb('1', 'KB')).toBe('0.000001');
    expect(gb('1', 'MB')).toBe('0.001');
    expect(gb('1', 'GB')).toBe('1');
    expect(gb('1', 'TB')).toBe('1000');
    expect(gb('1', 'PB')).toBe('1000000');
    expect(gb('2.5', 'TB')).toBe('2500');
  });

  it('GiB → GB: 1 GiB = 1.073741824 GB exactly', () => {
    expect(toPlainString(gibibytesToGigabytes(decimal(1)))).toBe('1.073741824');
    expect(toPlainString(gibibytesToGigabytes(decimal(8)))).toBe('8.589934592');
  });

  it('the request schema defaults to GB and echoes the canonical form', () => {
    expect(dataUnit().parse(undefined)).toBe('GB');
    expect(dataUnit().parse('tb')).toBe('TB');
    expect(dataUnit().safeParse('EB').success).toBe(false);
  });
});
