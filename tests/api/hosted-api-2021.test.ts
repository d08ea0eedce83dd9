/**
 * The hosted API's 2021 cloud factor set (`hostedApi2021Datasets`): every row of
 * `../shared/data/oefdb/ccf_cloud_factors.csv`, asked for in the hosted spelling, gives that row's factor, id, name
 * and location code.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
  createTableDatasets,
  EmissionsError,
  type Estimate,
  type CloudProvider,
  type StorageType,
} from '../../src/index';
import { hostedApi2021Datasets, hostedApi2021RegionsTable } from '../../src/embedded/index';
import { readSharedData, skipWithoutSharedData } from '../shared-data';

const ds = hostedApi2021Datasets;
const rows = parse(readSharedData('oefdb/ccf_cloud_factors.csv'), {
  columns: true,
}) as Array<Record<string, string>>;

/** The request for one unit of the row's activity, in the region spelled as the hosted API spelled it. */
function estimateFor(activityId: string): Estimate {
  const [, kind, provider, region, type] = /^(\w+)-provider_(\w+?)-region_(\w+?)(?:-type_(ssd|hdd))?$/.exec(
    activityId,
  ) as unknown as [string, string, CloudProvider, string, StorageType | undefined];
  switch (kind) {
    case 'cpu':
      return calculateCpu(provider, { cpu_count: 1, region, duration: 1, duration_unit: 'h' }, ds);
    case 'memory':
      return calculateMemory(provider, { data: 1, data_unit: 'gb', region, duration: 1 }, ds);
    case 'storage':
      return calculateStorage(
        provider,
        { storage_type: type as StorageType, data: 1, data_unit: 'tb', region, duration: 1 },
        ds,
      );
    case 'networking':
      return calculateNetworking(provider, { data: 1, data_unit: 'gb', region }, ds);
  }
  throw new Error(`unexpected ${activityId}`);
}

describe.skipIf(skipWithoutSharedData)('hostedApi2021Datasets', () => {
  it('is a valid regions table of 68 regions (validated like any user table)', () => {
    expect(() => createTableDatasets({ cloudRegions: hostedApi2021RegionsTable })).not.toThrow();
    expect(hostedApi2021RegionsTable.regions).toHaveLength(68);
    expect(rows).toHaveLength(340);
  });

  it("gives every row's factor, activity id, name and location code for 2021 (the default year)", () => {
    const mismatches: string[] = [];
    for (const row of rows) {
      const estimate = estimateFor(row.activity_id as string);
      const factor = estimate.emission_factor;
      const expected = {
        co2e: Number(row['kgCO2e-AR4']),
        factor: Number(row['kgCO2e-AR4']),
        activity_id: row.activity_id,
        name: row.name,
        region: row.region,
        year: 2021,
        unit: row.activity_unit,
        method: 'ar4',
      };
      const actual = {
        co2e: estimate.co2e,
        factor: factor?.factor,
        activity_id: factor?.activity_id,
        name: factor?.name,
        region: factor?.region,
        year: factor?.year,
        unit: estimate.activity_data.activity_unit,
        method: estimate.co2e_calculation_method,
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        mismatches.push(`${row.activity_id}: ${JSON.stringify(actual)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('has the 2021 grid the rows were derived from: memory = 0.000392 kWh/GB-h × PUE × grid', () => {
    const pue = { aws: 1.135, azure: 1.125, gcp: 1.1 } as Record<string, number>;
    for (const region of hostedApi2021RegionsTable.regions) {
      const memory = region.published_factors?.memory?.factor as number;
      const derived = 0.000392 * (pue[region.provider] as number) * (region.grid_factors['2021'] as number);
      // The rows are rounded to 7 or 8 decimals.
      expect(Math.abs(derived - memory), `${region.provider} ${region.region}`).toBeLessThanOrEqual(1e-8);
    }
  });

  it('computes what the set does not state: another CPU utilisation, an instance', () => {
    const at50 = calculateCpu('aws', { cpu_count: 1, region: 'eu-central-1', duration: 1 }, ds);
    const at80 = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'eu-central-1', duration: 1, average_vcpu_utilization: 0.8 },
      ds,
    );
    expect(at80.emission_factor?.activity_id).toBe('cpu-provider_aws-region_eu_central_1');
    expect(at80.emission_factor?.id).not.toBe(at50.emission_factor?.id);
    // (0.74 + 0.8 × (3.5 − 0.74)) W / 1000 × PUE 1.135 × grid 0.338 kg/kWh
    expect(at80.co2e).toBeCloseTo(((0.74 + 0.8 * 2.76) / 1000) * 1.135 * 0.338, 12);
    const vm = calculateInstance('aws', { instance: 't3.micro', region: 'eu_central_1', duration: 1 }, ds);
    expect(vm.cpu_estimate.emission_factor?.factor).toBe(0.338);
  });

  it('has no other year and no region outside the set', () => {
    expect(() =>
      calculateCpu('aws', { cpu_count: 1, region: 'eu_central_1', duration: 1, year: 2022 }, ds),
    ).toThrow(EmissionsError);
    expect(() => calculateCpu('aws', { cpu_count: 1, region: 'me_central_1', duration: 1 }, ds)).toThrow(
      /not a known aws region/,
    );
  });
});
