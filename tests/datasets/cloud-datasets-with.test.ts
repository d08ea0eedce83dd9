import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateCpuBatch,
  calculateEmbodied,
  calculateInstance,
  calculateInstanceBatch,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
  DatasetError,
  EmissionsError,
  listCapabilities,
} from '../../src/index';
import { ccfGridRegionsTable } from '../../src/embedded/ccf-grid';
import { cloudDatasets, cloudDatasetsWith, cloudTables } from '../../src/embedded/cloud';
import { cloudInstancesTable } from '../../src/embedded/cloud-instances';
import { electricityMapsRegionsTable } from '../../src/embedded/electricitymaps-grid';
import { hostedApi2021Datasets } from '../../src/embedded/hosted-api-2021';
import { hostedApi2021RegionsTable } from '../../src/embedded/hosted-api-2021-grid';
import { ccfGridDatasets } from '../../src/embedded/index';
import { CLOUD_CASES } from '../udf/golden-cases';

const thrown = (call: () => unknown): unknown => {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

/**
 * `cloudDatasetsWith`: the cloud datasets from the tables an app chooses (one grid set, the instance table only
 * where needed) give exactly what the all-tables defaults give, and a missing instance table is a named error.
 */

const CALCULATORS = {
  cpu: calculateCpu,
  memory: calculateMemory,
  storage: calculateStorage,
  networking: calculateNetworking,
  embodied: calculateEmbodied,
  instance: calculateInstance,
} as const;
const run = (calculator: keyof typeof CALCULATORS, provider: string, request: unknown, datasets: object) =>
  (CALCULATORS[calculator] as (p: string, r: unknown, d: object) => unknown)(provider, request, datasets);

const USE_PHASE = ['cpu', 'memory', 'storage', 'networking'] as const;

describe('the subpath tables are the embedded defaults', () => {
  it('cloudTables is made of them', () => {
    expect(cloudTables.cloudRegions).toBe(electricityMapsRegionsTable);
    expect(cloudTables.cloudInstances).toBe(cloudInstancesTable);
    expect(ccfGridRegionsTable.dataset.id).toBe('ccf-grid-2024');
    expect(electricityMapsRegionsTable.dataset.id).toBe('electricitymaps-yearly');
    expect(cloudInstancesTable.dataset.id).toBe('ccf-coefficients-instances');
    expect(hostedApi2021RegionsTable.dataset.id).toBe('hosted-api-2021');
  });
});

describe('cloudDatasetsWith({ grid: electricityMapsRegionsTable, instances }) is cloudDatasets', () => {
  const datasets = cloudDatasetsWith({ grid: electricityMapsRegionsTable, instances: cloudInstancesTable });

  it.each(CLOUD_CASES.map((c) => [c.label, c] as const))('%s: the same estimate', (_label, c) => {
    expect(run(c.calculator, c.provider, c.request, datasets)).toEqual(
      run(c.calculator, c.provider, c.request, cloudDatasets),
    );
  });

  it('any CPU request gives the same estimate or the same error (property)', () => {
    const regions = datasets.cloudRegions.list('aws');
    fc.assert(
      fc.property(
        fc.constantFrom(...regions),
        fc.integer({ min: 1, max: 512 }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.constantFrom(undefined, 2021, 2022, 2025, 2030),
        (region, cpu_count, duration, year) => {
          const request = { cpu_count, region, duration, ...(year === undefined ? {} : { year }) };
          const outcome = (d: typeof datasets) => {
            try {
              return calculateCpu('aws', request, d);
            } catch (error) {
              return error;
            }
          };
          expect(outcome(datasets)).toEqual(outcome(cloudDatasets));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('cloudDatasetsWith({ grid: ccfGridRegionsTable }): CCF grid factors, no instance table', () => {
  const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable });

  it('gives the CCF-grid estimate (golden: 0.0024062 kWh × 0.379069 kg/kWh)', () => {
    const estimate = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, datasets);
    expect(estimate.co2e).toBe(0.0009121158278);
    expect(estimate.emission_factor?.year).toBe(2024);
    expect(estimate).toEqual(
      calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, ccfGridDatasets),
    );
  });

  it.each(USE_PHASE)('%s runs as with ccfGridDatasets', (calculator) => {
    for (const c of CLOUD_CASES.filter((candidate) => candidate.calculator === calculator)) {
      const request = { ...c.request, year: 2024 };
      expect(run(calculator, c.provider, request, datasets), c.label).toEqual(
        run(calculator, c.provider, request, ccfGridDatasets),
      );
    }
  });

  it.each([
    ['instance', 'calculateInstance'],
    ['embodied', 'calculateEmbodied'],
  ] as const)(
    '%s throws EmissionsError missing_dataset naming %s, the part and where to import it',
    (calculator, name) => {
      // Valid requests (the golden cases'), so only the table can be what is wrong.
      const golden = CLOUD_CASES.find((c) => c.calculator === calculator && c.provider === 'aws');
      expect(golden).toBeDefined();
      const error = thrown(() => run(calculator, 'aws', golden?.request, datasets));
      expect(error).toBeInstanceOf(EmissionsError);
      expect(error).toMatchObject({
        error_code: 'missing_dataset',
        status: 500,
        path: 'datasets.cloudInstances',
        valid_values: ['cloudInstances'],
      });
      expect((error as Error).message).toBe(
        `${name} needs the dataset part 'cloudInstances', which these datasets lack (the instance table: ` +
          'cloudDatasetsWith({ grid, instances: cloudInstancesTable }), with cloudInstancesTable from ' +
          "'co2e-engine/datasets/cloud/instances').",
      );
    },
  );

  it('the batch form throws it too (not a per-request error body: the datasets, not the request, are wrong)', () => {
    const call = () =>
      calculateInstanceBatch('aws', [{ instance: 't2.micro', region: 'us_east_1', duration: 1 }], datasets);
    expect(call).toThrow(EmissionsError);
    expect(call).toThrow(/^calculateInstance needs the dataset part 'cloudInstances'/);
    expect(
      calculateCpuBatch('aws', [{ cpu_count: 1, region: 'us_east_1', duration: 1 }], datasets),
    ).toHaveLength(1);
  });

  it('listCapabilities, which lists instance types, says the table is missing rather than listing none', () => {
    expect(() => listCapabilities(datasets)).toThrow(
      expect.objectContaining({ error_code: 'missing_dataset', path: 'datasets.cloudInstances' }),
    );
    expect(() => listCapabilities(datasets)).toThrow(
      /^listCapabilities needs the dataset part 'cloudInstances'/,
    );
    expect(
      listCapabilities(cloudDatasetsWith({ grid: ccfGridRegionsTable, instances: cloudInstancesTable }))
        .cloud,
    ).toBeDefined();
  });

  it('plants no stand-in: the datasets simply have no instance part', () => {
    expect(datasets.cloudInstances).toBeUndefined();
    expect(Object.keys(datasets).sort()).toEqual(['cloudCoefficients', 'cloudRegions']);
  });

  it('adding the instance table gives the default instance estimates, with CCF grid factors', () => {
    const withInstances = cloudDatasetsWith({ grid: ccfGridRegionsTable, instances: cloudInstancesTable });
    const request = {
      instance: 't2.micro',
      region: 'us_east_1',
      duration: 1,
      duration_unit: 'h',
      year: 2024,
    } as const;
    expect(calculateInstance('aws', request, withInstances)).toEqual(
      calculateInstance('aws', request, ccfGridDatasets),
    );
  });
});

it("cloudDatasetsWith({ grid: hostedApi2021RegionsTable, instances }) is hostedApi2021Datasets (the hosted API's 0.00079987)", () => {
  const datasets = cloudDatasetsWith({ grid: hostedApi2021RegionsTable, instances: cloudInstancesTable });
  const request = { cpu_count: 1, region: 'eu_central_1', duration: 1 };
  expect(calculateCpu('aws', request, datasets).co2e).toBe(0.00079987);
  expect(calculateCpu('aws', request, datasets)).toEqual(calculateCpu('aws', request, hostedApi2021Datasets));
});

describe('bad arguments are DatasetErrors that say what was expected', () => {
  it.each([
    ['no argument', undefined, /^cloudDatasetsWith: expected \{ grid, instances\? \}/],
    ['an array', [], /^cloudDatasetsWith: expected \{ grid, instances\? \}/],
    ['no grid', {}, /^cloudDatasetsWith at grid: expected a cloud regions table .*got undefined$/],
    [
      'the instance table as grid',
      { grid: cloudInstancesTable },
      /^cloudDatasetsWith at grid: expected a cloud regions table .*got an object with keys dataset, /,
    ],
    [
      'a datasets object as grid',
      { grid: ccfGridDatasets },
      /^cloudDatasetsWith at grid: expected a cloud regions table/,
    ],
    [
      'a grid table as instances',
      { grid: ccfGridRegionsTable, instances: ccfGridRegionsTable },
      /^cloudDatasetsWith at instances: expected a cloud instances table/,
    ],
    [
      'an unknown option (a typo)',
      { grid: ccfGridRegionsTable, instance: cloudInstancesTable },
      /^cloudDatasetsWith at instance: unknown option; valid: grid, instances$/,
    ],
  ])('%s', (_label, argument, message) => {
    const call = () => cloudDatasetsWith(argument as never);
    expect(call).toThrow(DatasetError);
    expect(call).toThrow(message);
  });
});
