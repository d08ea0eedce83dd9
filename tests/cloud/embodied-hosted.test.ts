import { describe, expect, it } from 'vitest';
import instancesJson from '../../datasets/cloud/instances-hosted-api-2021.json';
import { calculateEmbodied, createTableDatasets } from '../../src/index';
import { CloudInstancesTable } from '../../src/schemas';
import { defaultDatasets, hostedApi2021Datasets } from '../../src/embedded/index';
import { AWS_COEFFICIENTS } from '../fixtures/coefficients';

/**
 * Issue 22 item 5: the hosted API's embodied figures, which are 1.0122–1.0124× ours. The three figures the issue
 * quotes, with the activity that produced them:
 *
 * - AWS t2.micro, 1 h: 0.0008894 kg (hosted API, eu_central_1);
 * - AWS t3a.large, 24 h: 0.02327028 kg;
 * - AWS r5.2xlarge, 24 h: 0.12385962 kg.
 *
 * Finding (docs/api/calculate-embodied.md, "Difference from the hosted API"): every one is
 * `TE₀.₁ · (vCPU / platform vCPU) · hours · 0.0000289`, where TE₀.₁ is the Teads sheet's "Total Platform Scope 3
 * Emissions" to 0.1 kg (ccf-coefficients `data/aws-instances.csv` at a441667 … e31b0d5, column 36: t2.micro 1477.2,
 * t3a.large 1610.4, r5.2xlarge 2142.9; also the CCF app's tuples rounded to 0.1 kg: 1.4772368, 1.6103792,
 * 2.1429488 t) and 0.0000289 a per-hour amortisation constant in place of 1 / 35,040 h (0.0000285388…). As
 * 35,040 · 0.0000289 = 1.012656 exactly, a platform figure of TE₀.₁ · 1.012656 with the 35,040 h lifetime gives the
 * hosted figures digit for digit through the engine.
 */
const info = (id: string) => ({
  id,
  version: 'hosted-embodied-1',
  source: 'test',
  source_dataset: 'embodied hypotheses',
  licence: 'MIT',
  attribution: 'co2e-engine tests',
});

const TYPES = [
  // instance, vCPU, platform vCPU (ccf-coefficients), ccf-coefficients total (our default), Teads sheet total (0.1 kg)
  {
    instance: 't2.micro',
    vcpu: 1,
    platform: 48,
    ours: 1477.54,
    teads: '1477.2',
    hours: 1,
    hosted: 0.0008894,
  },
  {
    instance: 't3a.large',
    vcpu: 2,
    platform: 96,
    ours: 1610.79,
    teads: '1610.4',
    hours: 24,
    hosted: 0.02327028,
  },
  {
    instance: 'r5.2xlarge',
    vcpu: 8,
    platform: 96,
    ours: 2143.79,
    teads: '2142.9',
    hours: 24,
    hosted: 0.12385962,
  },
] as const;

/** Decimal places of a hosted figure as quoted (the hosted API answered to 8 decimals; the t2.micro figure has 7). */
const places = (figure: number): number => String(figure).split('.')[1]!.length;

function datasetsWith(platformFigure: (row: (typeof TYPES)[number]) => number, lifetime = 35040) {
  return createTableDatasets({
    cloudCoefficients: {
      dataset: info('coefficients'),
      providers: {
        aws: { ...AWS_COEFFICIENTS, server_lifetime_hours: lifetime },
      },
    },
    cloudRegions: {
      dataset: info('regions'),
      default_year: 2021,
      unit: 'kg/kWh',
      gwp: 'ar4',
      regions: [
        {
          provider: 'aws',
          region: 'eu-central-1',
          location: 'DE',
          grid_zone: 'DE',
          grid_factors: { '2021': 0.338 },
          grid_sources: { '2021': 'test' },
        },
      ],
    },
    cloudInstances: {
      dataset: info('instances'),
      default_year: 2021,
      gwp: 'ar4',
      years: [2021],
      instances: TYPES.map((row) => ({
        provider: 'aws' as const,
        instance: row.instance,
        vcpu: row.vcpu,
        memory_gib: 1,
        platform_vcpu: row.platform,
        platform_embodied_kgco2e: platformFigure(row),
      })),
    },
  });
}

const estimate = (datasets: ReturnType<typeof datasetsWith>, row: (typeof TYPES)[number]) =>
  calculateEmbodied('aws', { instance: row.instance, instance_count: 1, duration: row.hours }, datasets).co2e;

describe('the hosted API embodied figures (issue 22 item 5)', () => {
  it('are 1.0122–1.0124× ours with the default figures (the reported gap)', () => {
    const datasets = datasetsWith((row) => row.ours);
    const ratios = TYPES.map((row) => row.hosted / estimate(datasets, row));
    for (const ratio of ratios) expect(ratio).toBeGreaterThan(1.0122);
    for (const ratio of ratios) expect(ratio).toBeLessThan(1.0125);
    // Not one factor: a uniform cause (a lifetime, a unit) would give one ratio to the quoted digits.
    expect(Math.abs(ratios[1]! - ratios[2]!)).toBeGreaterThan(1e-4);
  });

  it('are the Teads sheet totals (0.1 kg) × vCPU share × hours × 0.0000289, to every quoted digit', () => {
    for (const row of TYPES) {
      // Worked by hand: 1477.2 / 48 · 1 · 0.0000289 = 0.0008893975 → 0.0008894 (7 places);
      // 1610.4 · 2 / 96 · 24 · 0.0000289 = 805.2 · 0.0000289 = 0.02327028; 2142.9 · 8 / 96 · 24 = 4285.8,
      // · 0.0000289 = 0.12385962.
      const datasets = datasetsWith((r) => Number(r.teads) * 1.012656);
      expect(estimate(datasets, row).toFixed(places(row.hosted))).toBe(
        row.hosted.toFixed(places(row.hosted)),
      );
    }
  });

  it('need both parts: the Teads totals with 1 / 35,040 h, or our totals with 0.0000289, miss', () => {
    const teadsOnly = datasetsWith((row) => Number(row.teads));
    const constantOnly = datasetsWith((row) => row.ours * 1.012656);
    for (const row of TYPES.slice(1)) {
      const digits = places(row.hosted);
      expect(estimate(teadsOnly, row).toFixed(digits)).not.toBe(row.hosted.toFixed(digits));
      expect(estimate(constantOnly, row).toFixed(digits)).not.toBe(row.hosted.toFixed(digits));
    }
  });

  it('are not a uniform lifetime: the lifetime each figure implies with our totals differs', () => {
    const implied = TYPES.map((row) => (row.ours * (row.vcpu / row.platform) * row.hours) / row.hosted);
    // t3a.large 34,610.46 h, r5.2xlarge 34,616.45 h (t2.micro's 4 digits allow 34,607–34,612).
    expect(implied[2]! - implied[1]!).toBeGreaterThan(5);
  });

  it('are what hostedApi2021Datasets answers, to every quoted digit (the correction shipped in that set only)', () => {
    expect(CloudInstancesTable.safeParse(instancesJson).error).toBeUndefined();
    for (const row of TYPES) {
      const hosted = calculateEmbodied(
        'aws',
        { instance: row.instance, instance_count: 1, duration: row.hours },
        hostedApi2021Datasets,
      ).co2e;
      expect(hosted.toFixed(places(row.hosted))).toBe(row.hosted.toFixed(places(row.hosted)));
    }
    // The default set keeps CCF's published coefficients: 1477.54 / 48 / 35040 kg per hour for t2.micro.
    const ours = calculateEmbodied(
      'aws',
      { instance: 't2.micro', instance_count: 1, duration: 1 },
      defaultDatasets,
    );
    expect(ours.co2e).toBe(1477.54 / 48 / 35040);
    // Other providers' types are the default table's.
    const gcp = (datasets: typeof hostedApi2021Datasets) =>
      calculateEmbodied('gcp', { instance: 'e2-standard-2', instance_count: 1, duration: 24 }, datasets).co2e;
    expect(gcp(hostedApi2021Datasets)).toBe(gcp(defaultDatasets));
  });
});
