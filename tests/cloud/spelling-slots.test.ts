import { describe, expect, it } from 'vitest';
import {
  calculateCpuBatch,
  calculateInstance,
  calculateInstanceBatch,
  calculateMemory,
} from '../../src/index';
import { createTableDatasets } from '../../src/datasets/create';
import { AWS_COEFFICIENTS } from '../fixtures/coefficients';

/**
 * Requests find their records and derived figures in slots kept by the spellings they give (src/cloud/instance.ts:
 * an instance type's figures and a region's grids; src/cloud/use-phase-calculator.ts: a region's factors): a slot
 * must never serve figures derived under other coefficients, at another PUE or for another year.
 * Golden values by hand: 1 GiB = 1.073741824 GB, × the memory kWh per GB-hour, × the PUE, × 1 hour.
 */
const info = (id: string) => ({
  id,
  version: 'slots-1',
  source: 'test',
  source_dataset: 'test',
  licence: 'CC0-1.0',
  attribution: 'test',
});
const tables = (memoryKwhPerGbHour: number) =>
  createTableDatasets({
    cloudCoefficients: {
      dataset: info('coefficients'),
      providers: {
        aws: {
          ...AWS_COEFFICIENTS,
          memory_kwh_per_gb_hour: memoryKwhPerGbHour,
          pue: 1.2,
          pue_by_region: { 'xx-north-1': 1.5 },
        },
      },
    },
    cloudRegions: {
      dataset: info('regions'),
      default_year: 2021,
      unit: 'kg/kWh',
      gwp: 'ar4',
      regions: ['xx-north-1', 'xx-south-1'].map((region) => ({
        provider: 'aws' as const,
        region,
        location: 'XX',
        grid_zone: 'test',
        grid_factors: { '2021': 0.5, '2022': 0.25 },
        grid_sources: { '2021': 'test', '2022': 'test' },
      })),
    },
    cloudInstances: {
      dataset: info('instances'),
      default_year: 2021,
      gwp: 'ar4',
      years: [2021, 2022],
      instances: [
        {
          provider: 'aws',
          instance: 'x1.test',
          vcpu: 2,
          memory_gib: 1,
          platform_vcpu: 4,
          platform_embodied_kgco2e: 1000,
        },
      ],
    },
  });

describe('instance slots', () => {
  const first = tables(0.000392);
  // The same instance and region tables under other coefficients (twice the memory kWh): other figures.
  const second = { ...first, cloudCoefficients: tables(0.000784).cloudCoefficients };
  const memoryKwh = (datasets: typeof first, region: string, year?: number) =>
    calculateInstance('aws', { instance: 'x1.test', region, duration: 1, year }, datasets).calculation_details
      .energy_used_memory;

  it('follows the PUE of the region, whichever the type was last used with', () => {
    // 1.073741824 × 0.000392 = 0.000420906795008; × 1.5 and × 1.2.
    for (let round = 0; round < 2; round++) {
      expect(memoryKwh(first, 'xx-north-1')).toBe(0.000631360192512);
      expect(memoryKwh(first, 'xx-south-1')).toBe(0.0005050881540096);
    }
  });

  it('follows the coefficients table, with the same instance and region tables', () => {
    expect(memoryKwh(first, 'xx-north-1')).toBe(0.000631360192512);
    expect(memoryKwh(second, 'xx-north-1')).toBe(0.001262720385024);
    expect(memoryKwh(first, 'xx-north-1')).toBe(0.000631360192512);
  });

  it('keeps a grid per year for a region spelling, in a batch as in single calls', () => {
    const request = (year: number) => ({ instance: 'x1.test', region: 'xx-south-1', duration: 1, year });
    const results = calculateInstanceBatch('aws', [request(2021), request(2022), request(2021)], first);
    const factors = results.map((result) =>
      'cpu_estimate' in result ? result.cpu_estimate.emission_factor?.factor : undefined,
    );
    expect(factors).toEqual([0.5, 0.25, 0.5]);
  });

  it("keeps the embodied estimate's template per year and audit trail, with the same numbers every year", () => {
    const request = (year: number, audit_trail: 'enabled' | 'disabled') => ({
      instance: 'x1.test',
      region: 'xx-south-1',
      duration: 1,
      year,
      audit_trail,
    });
    const results = calculateInstanceBatch(
      'aws',
      [
        request(2021, 'enabled'),
        request(2022, 'enabled'),
        request(2021, 'disabled'),
        request(2022, 'enabled'),
      ],
      first,
    );
    const embodied = results.map((result) =>
      'embodied_cpu_estimate' in result
        ? [result.embodied_cpu_estimate.emission_factor?.year, result.embodied_cpu_estimate.audit_trail]
        : undefined,
    );
    expect(embodied).toEqual([
      [2021, 'enabled'],
      [2022, 'enabled'],
      [undefined, 'disabled'],
      [2022, 'enabled'],
    ]);
    // 1000 kg × 2 vCPU / (4 platform vCPU × the lifetime hours), one hour: the same in both years.
    const co2e = results.map((result) =>
      'embodied_cpu_estimate' in result ? result.embodied_cpu_estimate.co2e : 0,
    );
    expect(new Set(co2e).size).toBe(1);
  });
});

describe('use-phase region slots', () => {
  const first = tables(0.000392);
  const second = { ...first, cloudCoefficients: tables(0.000784).cloudCoefficients };
  const factor = (datasets: typeof first, region: string, year?: number) =>
    calculateMemory('aws', { region, data: 1, data_unit: 'GB', duration: 1, year }, datasets).emission_factor
      ?.factor;

  it('follows the coefficients table and the year under one region spelling', () => {
    // kWh per GB-hour × PUE × grid: 0.000392 × 1.5 × 0.5, then 0.000784 × 1.5 × 0.5, and 0.000392 × 1.2 × 0.25.
    expect(factor(first, 'xx-north-1')).toBe(0.000294);
    expect(factor(second, 'xx-north-1')).toBe(0.000588);
    expect(factor(first, 'xx-north-1')).toBe(0.000294);
    expect(factor(first, 'xx-south-1', 2022)).toBe(0.0001176);
    expect(factor(first, 'xx-south-1', 2021)).toBe(0.0002352);
  });

  it('keeps a factor per CPU utilisation under one region spelling', () => {
    // (0.74 + u · 2.76) W / 1000 × PUE 1.2 × grid 0.5: u = 0.2 gives 0.0007752, u = 0.8 gives 0.0017688.
    const request = (average_vcpu_utilization: number) => ({
      cpu_count: 1,
      region: 'xx-south-1',
      duration: 1,
      average_vcpu_utilization,
    });
    const results = calculateCpuBatch('aws', [request(0.2), request(0.2), request(0.8), request(0.2)], first);
    const factors = results.map((result) =>
      'emission_factor' in result ? result.emission_factor?.factor : 0,
    );
    expect(factors).toEqual([0.0007752, 0.0007752, 0.0017688, 0.0007752]);
  });
});
