import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/index';
import { MAX_VARIANTS } from '../../src/cloud/use-phase-calculator';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * A use-phase factor is kept per region, year and variant (the CPU's utilisation, the storage type), each with its
 * own frozen metadata, about 1.5 KB. Utilisations are any number from 0 to 1, so the variants kept per region and
 * year are bounded: a client sending random ones in every region and year must not grow a server by gigabytes.
 */

const factorAt = (utilization: number) =>
  calculateCpu(
    'aws',
    { region: 'eu_west_1', cpu_count: 2, duration: 1, average_vcpu_utilization: utilization, year: 2023 },
    defaultDatasets,
  ).emission_factor;

describe('use-phase factors kept per region and year', () => {
  it('keeps a factor while it is used', () => {
    expect(factorAt(0.123456)).toBe(factorAt(0.123456));
  });

  it('keeps at most MAX_VARIANTS, few enough for every region and year at once', () => {
    // Every region of the three providers in each of the five grid years (2021-2025): the most a server keeps.
    const regions = (['aws', 'gcp', 'azure'] as const).reduce(
      (count, provider) => count + defaultDatasets.cloudRegions.list(provider).length,
      0,
    );
    expect(MAX_VARIANTS * 1.5e3 * regions * 5).toBeLessThan(200e6);
    const first = factorAt(0.654321);
    for (let index = 1; index <= MAX_VARIANTS + 1; index++) factorAt(index / (MAX_VARIANTS + 3));
    const last = MAX_VARIANTS + 1;
    expect(factorAt(last / (MAX_VARIANTS + 3)), 'the last one is kept').toBe(
      factorAt(last / (MAX_VARIANTS + 3)),
    );
    const again = factorAt(0.654321);
    expect(again, 'the first was let go').not.toBe(first);
    expect(again).toEqual(first);
  });
});
