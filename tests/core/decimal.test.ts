import BigJs from 'big.js';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  decimal,
  div,
  isNegative,
  isPositive,
  mul,
  ONE,
  pow,
  roundSignificant,
  sub,
  sum,
  toNumber,
  toPlainString,
  ZERO,
} from '../../src/core/decimal';

const d = decimal;
const plain = (value: ReturnType<typeof decimal>) => toPlainString(value);

describe('decimal', () => {
  it('reads numbers as their shortest decimal form and strings exactly', () => {
    expect(plain(d(0.1))).toBe('0.1');
    expect(plain(d('0.00047772921233408'))).toBe('0.00047772921233408');
    expect(plain(d(1e-7))).toBe('0.0000001');
    expect(plain(d('1e21'))).toBe('1000000000000000000000');
  });

  it('is exact where binary floating point is not', () => {
    expect(0.1 + 0.2).not.toBe(0.3); // the reason this module exists
    expect(toNumber(add(d(0.1), d(0.2)))).toBe(0.3);
    expect(0.0024062 * 0.434).not.toBe(0.0010442908);
    expect(toNumber(mul(d(0.0024062), d(0.434)))).toBe(0.0010442908);
    // 1.073741824 · 0.000392 · 1.135 = 0.00047772921233408, all digits kept
    expect(plain(mul(mul(d('1.073741824'), d('0.000392')), d('1.135')))).toBe('0.00047772921233408');
    expect(toNumber(sub(d(0.3), d(0.1)))).toBe(0.2);
  });

  it('rejects NaN, ±Infinity and non-decimal strings with a RangeError', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, 'abc', '', '1,5', '0x10']) {
      expect(() => decimal(bad)).toThrow(RangeError);
    }
  });

  it('divides exactly where the quotient terminates', () => {
    expect(plain(div(d(3), d(8)))).toBe('0.375');
    expect(plain(div(d(90), d(60)))).toBe('1.5');
    expect(plain(div(d('1230.46'), d(16)))).toBe('76.90375');
  });

  it('keeps 40 decimal places of a non-terminating quotient, rounded half up', () => {
    expect(plain(div(ONE, d(3)))).toBe(`0.${'3'.repeat(40)}`);
    expect(plain(div(d(2), d(3)))).toBe(`0.${'6'.repeat(39)}7`);
    expect(plain(div(ONE, d(60)))).toBe(`0.01${'6'.repeat(37)}7`);
    // 1 ms in hours: 1/3 600 000 = 0.000000277… (40 places)
    expect(plain(div(ONE, d(3_600_000)))).toBe(`0.000000${'2'}${'7'.repeat(32)}8`);
    expect(toNumber(div(ONE, d(3)))).toBe(1 / 3);
  });

  it('does not change the global big.js settings of the host application', () => {
    expect(BigJs.DP).toBe(20);
    expect(BigJs.RM).toBe(1);
  });

  it('sum, pow, compare and signs', () => {
    expect(plain(sum([d(0.1), d(0.2), d(0.3)]))).toBe('0.6');
    expect(plain(sum([]))).toBe('0');
    expect(plain(pow(d('1.1'), 2))).toBe('1.21');
    expect(compare(d(1), d(2))).toBe(-1);
    expect(compare(d('2.0'), d(2))).toBe(0);
    expect(compare(d(3), d(2))).toBe(1);
    expect(isNegative(d(-0.001))).toBe(true);
    expect(isNegative(ZERO)).toBe(false);
    expect(isNegative(d(-0))).toBe(false);
    expect(isPositive(d(0.001))).toBe(true);
    expect(isPositive(ZERO)).toBe(false);
  });

  it('toNumber converts once to the nearest JS number', () => {
    expect(toNumber(d('0.00020733447815299072'))).toBe(0.00020733447815299072);
    expect(toNumber(d('1e-30'))).toBe(1e-30);
    expect(toNumber(d('123456789012345678901234567890'))).toBe(1.2345678901234568e29);
  });
});

describe('roundSignificant', () => {
  const round = (value: string, digits: number) => plain(roundSignificant(d(value), digits));

  it('rounds to significant digits, half up', () => {
    expect(round('0.00012345', 4)).toBe('0.0001235'); // the 5 rounds up
    expect(round('0.00012344', 4)).toBe('0.0001234');
    expect(round('123.456', 4)).toBe('123.5');
    expect(round('0.0041771632', 4)).toBe('0.004177');
    expect(round('1.5', 1)).toBe('2');
    expect(round('0.5', 4)).toBe('0.5');
    expect(round('9.99995', 4)).toBe('10');
  });

  it('never drops integer digits', () => {
    expect(round('12345.6', 4)).toBe('12346');
    expect(round('12345.4', 4)).toBe('12345');
    expect(round('9999.5', 4)).toBe('10000');
    expect(round('1234.5', 4)).toBe('1235');
  });

  it('leaves zero and short values alone', () => {
    expect(round('0', 4)).toBe('0');
    expect(round('0.25', 4)).toBe('0.25');
  });

  it('rejects a digit count that is not a whole number >= 1', () => {
    for (const digits of [0, -1, 2.5, Number.NaN, Infinity]) {
      expect(() => roundSignificant(d(1), digits)).toThrow(RangeError);
    }
  });
});
