import { listForMessage } from '../../src/core/errors';
import { describe, expect, it } from 'vitest';
import { decimal, toPlainString } from '../../src/core/decimal';
import fc from 'fast-check';
import {
  closeDataUnits,
  closeDurationUnits,
  DATA_UNIT_SPELLINGS,
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
    expect(DURATION_UNIT_SPELLINGS).toEqual([
      ...['hour', 'hours', 'h', 'hr', 'hrs'],
      ...['min', 'mins', 'minute', 'minutes'],
      ...['sec', 'secs', 's', 'second', 'seconds'],
      ...['ms', 'msec', 'millisecond', 'milliseconds'],
      ...['day', 'days', 'd'],
    ]);
  });

  it.each([
    ['hour', ['hour', 'hours', 'h', 'hr', 'hrs', 'HOURS', 'Hr', 'HRS']],
    ['min', ['min', 'mins', 'minute', 'minutes', 'Minutes', 'MINUTE']],
    ['sec', ['sec', 'secs', 's', 'second', 'seconds', 'Seconds', 'SEC']],
    ['ms', ['ms', 'msec', 'millisecond', 'milliseconds', 'MSEC', 'Milliseconds']],
    ['day', ['day', 'days', 'd', 'D', 'Days']],
  ])('the %s family: every spelling, any case', (canonical, spellings) => {
    for (const spelling of spellings) expect(parseDurationUnit(spelling)).toBe(canonical);
  });

  it('every listed spelling parses in any case, to one unit only', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DURATION_UNIT_SPELLINGS),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (spelling, upper) => {
          const cased = [...spelling].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
          expect(parseDurationUnit(cased)).toBe(parseDurationUnit(spelling));
          expect(DURATION_UNITS).toContain(parseDurationUnit(spelling));
        },
      ),
    );
  });

  it('`m` is not a duration unit (minutes or months?): the message suggests min and ms', () => {
    expect(parseDurationUnit('m')).toBeUndefined();
    expect(parseDurationUnit('M')).toBeUndefined();
    expect(closeDurationUnits('m')).toEqual(['min', 'ms']);
    expect(durationUnit().safeParse('m').error?.issues[0]?.message).toBe(
      // The first ten spellings; all of them are the issue's valid_values.
      `'m' is not a valid unit. Did you mean: min, ms? Valid units: ${listForMessage(DURATION_UNIT_SPELLINGS, 10)}`,
    );
  });

  it.each([
    ['hourz', ['hour']],
    ['minits', ['min']],
    ['secnds', ['sec']],
    ['dy', []],
    ['week', []],
    ['', []],
  ])('did you mean, for %j: %j', (spelling, suggestions) => {
    expect(closeDurationUnits(spelling)).toEqual(suggestions);
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

  it.each(['m', 'mn', 'week', 'w', 'month', '', ' h', 'h ', 'constructor', '__proto__', 'toString'])(
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
    expect(toPlainString(toHours(decimal('90'), parseDurationUnit('minutes') ?? 'hour'))).toBe('1.5');
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
  /** A quantity in a data unit, as GB (exact, plain decimal notation). */
  const gb = (value: string, unit: Parameters<typeof toGigabytes>[1]) =>
    toPlainString(toGigabytes(decimal(value), unit));

  it('lists the canonical units', () => {
    expect(DATA_UNITS).toEqual(['KB', 'MB', 'GB', 'TB', 'PB', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']);
    expect(DATA_UNIT_SPELLINGS).toHaveLength(30);
  });

  it.each([
    ['GB', ['GB', 'gb', 'Gb', 'gB', 'gigabyte', 'gigabytes', 'Gigabytes', 'GIGABYTES']],
    ['TB', ['TB', 'tb', 'terabyte', 'Terabytes']],
    ['MB', ['MB', 'mb', 'megabyte', 'megabytes']],
    ['KB', ['KB', 'kb', 'kilobyte', 'kilobytes']],
    ['PB', ['PB', 'pb', 'petabyte', 'petabytes']],
    ['GiB', ['GiB', 'gib', 'GIB', 'gibibyte', 'Gibibytes']],
    ['TiB', ['TiB', 'tib', 'tebibyte', 'tebibytes']],
    ['MiB', ['MiB', 'mib', 'mebibyte', 'mebibytes']],
    ['KiB', ['KiB', 'kib', 'kibibyte', 'kibibytes']],
    ['PiB', ['PiB', 'pib', 'pebibyte', 'pebibytes']],
  ])('the %s family: every spelling, any case', (canonical, spellings) => {
    for (const spelling of spellings) expect(parseDataUnit(spelling)).toBe(canonical);
  });

  it.each([
    ['gbs', ['GB']],
    ['gibs', ['GiB']],
    ['tera', ['terabyte']],
    ['EB', []],
    ['g', ['GB', 'GiB']],
  ])('did you mean, for %j: %j', (spelling, suggestions) => {
    expect(closeDataUnits(spelling)).toEqual(suggestions);
  });

  it('an unknown data unit gets did-you-mean and the valid spellings', () => {
    const result = dataUnit().safeParse('gbs');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      `'gbs' is not a valid unit. Did you mean: GB? Valid units: KB, kilobyte, kilobytes, MB, megabyte, megabytes, GB, gigabyte, gigabytes, TB (and ${DATA_UNIT_SPELLINGS.length - 10} more)`,
    );
    expect(result.error?.issues[0]?.message.length).toBeLessThanOrEqual(200);
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

  it.each(['EB', 'B', 'bytes', 'Gbit', 'gigs', '', 'constructor', '__PROTO__', 'tostring'])(
    '%j is not a data unit',
    (spelling) => {
      expect(parseDataUnit(spelling)).toBeUndefined();
    },
  );

  it('converts to GB with decimal prefixes (1 TB = 1000 GB)', () => {
    expect(gb('1', 'KB')).toBe('0.000001');
    expect(gb('1', 'MB')).toBe('0.001');
    expect(gb('1', 'GB')).toBe('1');
    expect(gb('1', 'TB')).toBe('1000');
    expect(gb('1', 'PB')).toBe('1000000');
    expect(gb('2.5', 'TB')).toBe('2500');
  });

  it('converts binary units exactly (powers of 1024 bytes)', () => {
    expect(gb('1', 'KiB')).toBe('0.000001024');
    expect(gb('1', 'MiB')).toBe('0.001048576');
    expect(gb('1', 'GiB')).toBe('1.073741824');
    expect(gb('1', 'TiB')).toBe('1099.511627776');
    expect(gb('1', 'PiB')).toBe('1125899.906842624');
    // Each step is exactly ×1024.
    expect(toPlainString(toGigabytes(decimal('1024'), 'GiB'))).toBe(gb('1', 'TiB'));
    expect(toPlainString(toGigabytes(decimal('1024'), 'MiB'))).toBe(gb('1', 'GiB'));
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
