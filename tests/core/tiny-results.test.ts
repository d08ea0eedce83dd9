import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, div, toNumber } from '../../src/core/decimal';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateCpu, calculateEmbodied } from '../../src/index';
import { asBig } from './big-reference';

// Issue 23 item 9: a division kept 40 decimal places, so a quotient below 1e-40 became 0 and one just above kept a
// digit or two; a CPU estimate of 1e-35 ms came out as co2e 0 (the docs: a non-zero result is never 0).
describe('tiny results keep their digits', () => {
  it('divides to significant digits, not to a fixed number of places', () => {
    expect(toNumber(div(decimal('1e-45'), decimal(3)))).toBe(3.3333333333333333e-46);
    expect(toNumber(div(decimal('7e-300'), decimal('3600000')))).toBe(1.9444444444444444e-306);
    // A divisor of more than 9 digits takes big.js's long division (golden values: Python's decimal at 60 digits).
    expect(toNumber(div(decimal('1e-60'), decimal('1234567890123')))).toBe(8.100000072902997e-73);
    // Unchanged where the quotient has 25 digits within 40 places.
    expect(asBig(div(decimal(1), decimal(3))).toFixed()).toBe(`0.${'3'.repeat(40)}`);
  });

  it('a CPU estimate of a tiny duration is that fraction of an hour’s, never 0', () => {
    const hour = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'us_east_1', duration: 1 },
      defaultDatasets,
    ).co2e;
    fc.assert(
      fc.property(fc.integer({ min: -290, max: -20 }), (exponent) => {
        const duration = Number(`1e${exponent}`);
        const co2e = calculateCpu(
          'aws',
          { cpu_count: 1, region: 'us_east_1', duration, duration_unit: 'ms' },
          defaultDatasets,
        ).co2e;
        expect(co2e).toBeGreaterThan(0);
        // 1 ms = 1/3,600,000 h.
        expect(Math.abs(co2e / ((hour * duration) / 3_600_000) - 1)).toBeLessThan(1e-12);
      }),
    );
  });

  it('an embodied estimate of 1e-35 ms is not 0', () => {
    const ms = { instance: 't3.micro', instance_count: 1, duration: 1e-35, duration_unit: 'ms' } as const;
    const hour = calculateEmbodied('aws', { ...ms, duration: 1, duration_unit: 'h' }, defaultDatasets).co2e;
    const co2e = calculateEmbodied('aws', ms, defaultDatasets).co2e;
    expect(Math.abs(co2e / ((hour * 1e-35) / 3_600_000) - 1)).toBeLessThan(1e-12);
  });
});
