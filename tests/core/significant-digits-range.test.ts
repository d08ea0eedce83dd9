import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateCpu } from '../../src/index';

// Issue 23 item 9: above 1,000,000 big.js threw its own plain Error ("[big.js] Invalid precision").
describe('significantDigits out of range is a RangeError', () => {
  const request = { cpu_count: 1, region: 'us_east_1', duration: 1 };
  it.each([1_000_001, 2_000_000, Number.MAX_SAFE_INTEGER, 0, -1, 1.5, Number.NaN, Infinity])(
    '%s',
    (digits) => {
      expect(() => calculateCpu('aws', request, defaultDatasets, { significantDigits: digits })).toThrow(
        new RangeError(`significant digits must be a whole number from 1 to 1000000, got ${digits}`),
      );
    },
  );
  it('1,000,000 is accepted and changes nothing of an exact result', () => {
    expect(calculateCpu('aws', request, defaultDatasets, { significantDigits: 1_000_000 })).toEqual(
      calculateCpu('aws', request, defaultDatasets),
    );
  });
});
