import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateStorage,
  createTableDatasets,
} from '../../src/index';
import { defaultTables } from '../../src/embedded/index';

/**
 * Issue 23 item 5: cache keys must be structural. With keys joined by `|`, an instance named `x|us-east-1` in
 * `eu-west-1` and an instance `x` in a region named `us-east-1|eu-west-1` made the same key, so the second request
 * got the first one's cached figures.
 */

const base = defaultTables.cloudRegions.regions.find(
  (row) => row.provider === 'aws' && row.region === 'eu-west-1',
);
if (base === undefined) throw new Error('eu-west-1 missing from the embedded regions');
const region = base;

function tables() {
  return {
    ...defaultTables,
    cloudRegions: {
      ...defaultTables.cloudRegions,
      regions: [
        ...defaultTables.cloudRegions.regions,
        // A region whose name holds the separator, with a grid factor 3× eu-west-1's.
        {
          ...region,
          region: 'us-east-1|eu-west-1',
          grid_factors: Object.fromEntries(
            Object.entries(region.grid_factors).map(([year, factor]) => [year, factor * 3]),
          ),
        },
      ],
    },
    cloudInstances: {
      ...defaultTables.cloudInstances,
      instances: [
        ...defaultTables.cloudInstances.instances,
        {
          provider: 'aws',
          instance: 'x|us-east-1',
          vcpu: 2,
          memory_gib: 4,
          platform_vcpu: 48,
          platform_embodied_kgco2e: 1000,
        },
        {
          provider: 'aws',
          instance: 'x',
          vcpu: 8,
          memory_gib: 32,
          platform_vcpu: 48,
          platform_embodied_kgco2e: 1000,
        },
      ],
    },
  } as typeof defaultTables;
}

describe('cache keys are structural: names holding the separator get their own results (issue 23 item 5)', () => {
  it('instance: `x|us-east-1` in eu-west-1 and `x` in `us-east-1|eu-west-1` do not share a cached machine', () => {
    const datasets = createTableDatasets(tables());
    const request = (instance: string, region: string) => ({
      instance,
      region,
      duration: 1,
      duration_unit: 'h' as const,
      year: 2021,
    });
    const first = calculateInstance('aws', request('x|us-east-1', 'eu-west-1'), datasets);
    const second = calculateInstance('aws', request('x', 'us-east-1|eu-west-1'), datasets);
    // Each one alone, on fresh datasets (so an empty cache), is the truth.
    const secondAlone = calculateInstance(
      'aws',
      request('x', 'us-east-1|eu-west-1'),
      createTableDatasets(tables()),
    );
    expect(second).toEqual(secondAlone);
    expect(second.calculation_details.vcpu_cores).toBe(8);
    expect(first.calculation_details.vcpu_cores).toBe(2);
    // 4× the vCPUs on a grid 3× as dirty: the CPU part is 12× the first one's.
    expect(second.cpu_estimate.co2e / first.cpu_estimate.co2e).toBeCloseTo(12, 9);
  });

  it('cpu and storage: a region named `us-east-1|eu-west-1` does not share keys with its neighbours', () => {
    const datasets = createTableDatasets(tables());
    const fresh = () => createTableDatasets(tables());
    const cpu = (region: string, year: number) => ({ cpu_count: 1, region, duration: 1, year });
    calculateCpu('aws', cpu('eu-west-1', 2021), datasets);
    expect(calculateCpu('aws', cpu('us-east-1|eu-west-1', 2021), datasets)).toEqual(
      calculateCpu('aws', cpu('us-east-1|eu-west-1', 2021), fresh()),
    );
    const storage = (region: string) => ({
      region,
      storage_type: 'ssd' as const,
      data: 1,
      data_unit: 'TB' as const,
      duration: 1,
      year: 2021,
    });
    calculateStorage('aws', storage('eu-west-1'), datasets);
    expect(calculateStorage('aws', storage('us-east-1|eu-west-1'), datasets)).toEqual(
      calculateStorage('aws', storage('us-east-1|eu-west-1'), fresh()),
    );
  });

  it('embodied: `x|us-east-1` and `x` keep their own factors', () => {
    const datasets = createTableDatasets(tables());
    const request = (instance: string) => ({ instance, instance_count: 1, duration: 1, year: 2021 });
    const a = calculateEmbodied('aws', request('x|us-east-1'), datasets);
    const b = calculateEmbodied('aws', request('x'), datasets);
    expect(b.co2e / a.co2e).toBeCloseTo(4, 12);
  });
});
