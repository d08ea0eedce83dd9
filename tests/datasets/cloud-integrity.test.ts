/**
 * Integrity of the embedded cloud tables (datasets/cloud/*.json) and of the providers built from them: schemas,
 * years, uniqueness under the engine's lookup keys, specs of every instance, and that every region and every
 * instance of the defaults can actually be estimated.
 */
import { describe, expect, it } from 'vitest';
import coefficientsJson from '../../datasets/cloud/coefficients.json';
import instancesJson from '../../datasets/cloud/instances.json';
import ccfRegionsJson from '../../datasets/cloud/regions-ccf.json';
import electricityMapsRegionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateStorage,
  createTableDatasets,
  DatasetError,
} from '../../src/index';
import { CloudCoefficientsTable, CloudInstancesTable, CloudRegionsTable } from '../../src/schemas';
import { instanceKey, regionKey } from '../../src/datasets/create';
import { ccfGridDatasets, defaultDatasets, defaultTables } from '../../src/embedded/index';

const PROVIDERS = ['aws', 'azure', 'gcp'] as const;
const DEFAULT_YEARS = [2021, 2022, 2023, 2024];
const regionTables = { electricitymaps: electricityMapsRegionsJson, ccf: ccfRegionsJson };

/** Deep copy of a table to break on purpose. */
const clone = <T>(table: T): T => structuredClone(table);

function countBy<T>(rows: readonly T[], key: (row: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[key(row)] = (counts[key(row)] ?? 0) + 1;
  return counts;
}

function duplicates(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((key) => (seen.has(key) ? true : (seen.add(key), false)));
}

describe('schemas', () => {
  it('every cloud table parses with its zod schema', () => {
    expect(CloudCoefficientsTable.safeParse(coefficientsJson).error).toBeUndefined();
    expect(CloudInstancesTable.safeParse(instancesJson).error).toBeUndefined();
    expect(CloudRegionsTable.safeParse(electricityMapsRegionsJson).error).toBeUndefined();
    expect(CloudRegionsTable.safeParse(ccfRegionsJson).error).toBeUndefined();
  });

  it('the defaults are these files', () => {
    expect(defaultTables.cloudCoefficients).toBe(coefficientsJson);
    expect(defaultTables.cloudRegions).toBe(electricityMapsRegionsJson);
    expect(defaultTables.cloudInstances).toBe(instancesJson);
  });

  it('every table names its source, version and licence', () => {
    for (const table of [coefficientsJson, instancesJson, electricityMapsRegionsJson, ccfRegionsJson]) {
      for (const field of ['id', 'version', 'source', 'source_dataset', 'licence', 'attribution'] as const) {
        expect(table.dataset[field].length).toBeGreaterThan(0);
      }
    }
    expect(electricityMapsRegionsJson.dataset.licence).toBe('ODbL-1.0');
    expect(coefficientsJson.dataset.licence).toBe('Apache-2.0');
  });
});

describe('coefficients', () => {
  it('covers the three providers with positive, sensible values', () => {
    expect(Object.keys(coefficientsJson.providers).sort()).toEqual([...PROVIDERS]);
    for (const provider of PROVIDERS) {
      const c = coefficientsJson.providers[provider];
      expect(c.min_watts).toBeGreaterThan(0);
      expect(c.max_watts).toBeGreaterThan(c.min_watts);
      expect(c.pue).toBeGreaterThanOrEqual(1);
      expect(c.server_lifetime_hours).toBe(35040);
    }
  });
});

describe.each(Object.entries(regionTables))('regions (%s)', (_name, json) => {
  const table = json as CloudRegionsTable;

  it('every region has its default year; grid sources cover every year with a factor', () => {
    for (const region of table.regions) {
      expect(region.grid_factors, `${region.provider} ${region.region}`).toHaveProperty(
        String(table.default_year),
      );
      expect(Object.keys(region.grid_sources).sort()).toEqual(Object.keys(region.grid_factors).sort());
    }
  });

  it('no negative, NaN or implausible grid factors (0..2 kg/kWh)', () => {
    for (const region of table.regions) {
      for (const [year, factor] of Object.entries(region.grid_factors)) {
        expect(
          Number.isFinite(factor) && factor >= 0 && factor < 2,
          `${region.provider} ${region.region} ${year}: ${factor}`,
        ).toBe(true);
      }
    }
  });

  it('(provider, region) is unique under the engine lookup key (regionKey)', () => {
    const keys = table.regions.map((row) => `${row.provider} ${regionKey(row.region)}`);
    expect(duplicates(keys)).toEqual([]);
  });

  it('has many regions for every provider', () => {
    const counts = countBy(table.regions, (row) => row.provider);
    expect(counts.aws).toBeGreaterThanOrEqual(25);
    expect(counts.azure).toBeGreaterThanOrEqual(60);
    expect(counts.gcp).toBeGreaterThanOrEqual(30);
  });
});

describe('default grid factors (Electricity Maps)', () => {
  it('every region has every year 2021–2024 and the default year 2022', () => {
    expect(electricityMapsRegionsJson.default_year).toBe(2022);
    const table = electricityMapsRegionsJson as CloudRegionsTable;
    for (const region of table.regions) {
      for (const year of [...DEFAULT_YEARS, table.default_year]) {
        expect(region.grid_factors[String(year)], `${region.provider} ${region.region} ${year}`).toBeTypeOf(
          'number',
        );
      }
    }
  });

  it('the CCF alternative has one year, 2024, its default', () => {
    expect(ccfRegionsJson.default_year).toBe(2024);
    for (const region of (ccfRegionsJson as CloudRegionsTable).regions)
      expect(Object.keys(region.grid_factors)).toEqual(['2024']);
  });
});

describe('instances', () => {
  const table = instancesJson as CloudInstancesTable;

  it('every instance has vCPU, memory, platform vCPU and embodied emissions, all positive', () => {
    for (const row of table.instances) {
      const where = `${row.provider} ${row.instance}`;
      expect(Number.isInteger(row.vcpu) && row.vcpu > 0, where).toBe(true);
      expect(row.memory_gib > 0, where).toBe(true);
      expect(Number.isInteger(row.platform_vcpu) && row.platform_vcpu > 0, where).toBe(true);
      expect(row.platform_embodied_kgco2e > 0, where).toBe(true);
      // An instance cannot have more vCPUs than the platform it runs on (its share of TE would exceed 1).
      expect(row.vcpu <= row.platform_vcpu, where).toBe(true);
    }
  });

  it('(provider, instance) is unique under the engine lookup key (instanceKey)', () => {
    const keys = table.instances.map((row) => `${row.provider} ${instanceKey(row.provider, row.instance)}`);
    expect(duplicates(keys)).toEqual([]);
  });

  it('has several hundred AWS and Azure types and over a hundred GCP types', () => {
    const counts = countBy(table.instances, (row) => row.provider);
    expect(counts.aws).toBeGreaterThanOrEqual(500);
    expect(counts.azure).toBeGreaterThanOrEqual(300);
    expect(counts.gcp).toBeGreaterThan(100);
  });

  it('embodied years include the default 2021 and 2021–2024', () => {
    expect(table.default_year).toBe(2021);
    for (const year of DEFAULT_YEARS) expect(table.years).toContain(year);
  });
});

describe('createTableDatasets validation', () => {
  /** Runs `build`, which must throw a DatasetError naming `table` and `location`. */
  function expectDatasetError(build: () => unknown, table: string, location: string | RegExp) {
    let thrown: unknown;
    try {
      build();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DatasetError);
    const error = thrown as DatasetError;
    expect(error.table).toBe(table);
    if (typeof location === 'string') expect(error.location).toBe(location);
    else expect(error.location).toMatch(location);
    expect(error.message).toContain(table);
    return error;
  }

  it('accepts the embedded tables and gives the same results as the defaults', () => {
    const rebuilt = createTableDatasets({
      cloudCoefficients: clone(defaultTables.cloudCoefficients),
      cloudRegions: clone(defaultTables.cloudRegions),
      cloudInstances: clone(defaultTables.cloudInstances),
    });
    const request = { instance: 'm5.large', region: 'us-east-1', duration: 5 };
    expect(calculateInstance('aws', request, rebuilt)).toEqual(
      calculateInstance('aws', request, defaultDatasets),
    );
  });

  it('rejects a negative grid factor, naming table and path', () => {
    const regions = clone(defaultTables.cloudRegions);
    (regions.regions[0] as { grid_factors: Record<string, number> }).grid_factors['2022'] = -0.1;
    expectDatasetError(
      () => createTableDatasets({ cloudRegions: regions }),
      'cloudRegions',
      'regions.0.grid_factors.2022',
    );
  });

  it('rejects a zero vCPU count and a missing field', () => {
    const instances = clone(defaultTables.cloudInstances);
    (instances.instances[3] as { vcpu: number }).vcpu = 0;
    expectDatasetError(
      () => createTableDatasets({ cloudInstances: instances }),
      'cloudInstances',
      'instances.3.vcpu',
    );
    const missing = clone(defaultTables.cloudInstances);
    delete (missing.instances[5] as Partial<(typeof missing.instances)[number]>).platform_embodied_kgco2e;
    expectDatasetError(
      () => createTableDatasets({ cloudInstances: missing }),
      'cloudInstances',
      'instances.5.platform_embodied_kgco2e',
    );
  });

  it('rejects a non-numeric coefficient, an unknown provider and a malformed year key', () => {
    const coefficients = clone(defaultTables.cloudCoefficients) as unknown as {
      providers: Record<string, Record<string, unknown>>;
    };
    (coefficients.providers.aws as Record<string, unknown>).pue = '1.1';
    expectDatasetError(
      () => createTableDatasets({ cloudCoefficients: coefficients as never }),
      'cloudCoefficients',
      'providers.aws.pue',
    );
    const regions = clone(defaultTables.cloudRegions);
    (regions.regions[0] as { provider: string }).provider = 'ibm';
    expectDatasetError(
      () => createTableDatasets({ cloudRegions: regions }),
      'cloudRegions',
      'regions.0.provider',
    );
    const years = clone(defaultTables.cloudRegions);
    (years.regions[1] as { grid_factors: Record<string, number> }).grid_factors['22'] = 0.3;
    expectDatasetError(
      () => createTableDatasets({ cloudRegions: years }),
      'cloudRegions',
      /^regions\.1\.grid_factors/,
    );
  });

  it('rejects two rows that are the same region or instance under the lookup keys', () => {
    const regions = clone(defaultTables.cloudRegions);
    const first = regions.regions[0] as (typeof regions.regions)[number];
    regions.regions.push({ ...first, region: first.region.toUpperCase().replaceAll('-', '_') });
    const error = expectDatasetError(
      () => createTableDatasets({ cloudRegions: regions }),
      'cloudRegions',
      String(regions.regions.length - 1),
    );
    expect(error.problem).toContain('duplicate');
    const instances = clone(defaultTables.cloudInstances);
    const azure = instances.instances.find(
      (row) => row.instance === 'Standard_D2s_v3',
    ) as (typeof instances.instances)[number];
    instances.instances.push({ ...azure, instance: 'D2s_v3' });
    expectDatasetError(
      () => createTableDatasets({ cloudInstances: instances }),
      'cloudInstances',
      String(instances.instances.length - 1),
    );
  });

  it('rejects an unknown dataset part', () => {
    expectDatasetError(() => createTableDatasets({ cloudGrid: {} } as never), 'cloudGrid', '');
  });
});

describe('the default datasets work everywhere', () => {
  it('every region of every provider gives a CPU and a storage estimate for each of its years', () => {
    let estimates = 0;
    for (const provider of PROVIDERS) {
      const regions = defaultDatasets.cloudRegions.list(provider);
      expect(regions.length).toBe(
        electricityMapsRegionsJson.regions.filter((row) => row.provider === provider).length,
      );
      for (const region of regions) {
        const years = Object.keys(defaultDatasets.cloudRegions.get(provider, region)?.grid_factors ?? {});
        expect(years.length).toBeGreaterThanOrEqual(DEFAULT_YEARS.length);
        for (const year of years) {
          const cpu = calculateCpu(
            provider,
            { cpu_count: 1, region, duration: 1, year: Number(year) },
            defaultDatasets,
          );
          expect(cpu.co2e).toBeGreaterThan(0);
          expect(cpu.emission_factor?.year).toBe(Number(year));
          estimates++;
        }
        expect(
          calculateStorage(provider, { region, storage_type: 'hdd', data: 1, duration: 1 }, defaultDatasets)
            .co2e,
        ).toBeGreaterThan(0);
      }
    }
    expect(estimates).toBeGreaterThan(140 * 4);
  });

  it('every region of the CCF-grid alternative gives an estimate for 2024', () => {
    for (const provider of PROVIDERS) {
      for (const region of ccfGridDatasets.cloudRegions.list(provider)) {
        expect(
          calculateCpu(provider, { cpu_count: 1, region, duration: 1 }, ccfGridDatasets).emission_factor
            ?.year,
        ).toBe(2024);
      }
    }
  });

  it.each([
    ['aws', 'us_east_1'],
    ['azure', 'westeurope'],
    ['gcp', 'europe_west1'],
  ] as const)('every %s instance gives an instance and an embodied estimate (in %s)', (provider, region) => {
    const instances = defaultDatasets.cloudInstances.list(provider);
    expect(instances.length).toBe(instancesJson.instances.filter((row) => row.provider === provider).length);
    const ids = new Set<string>();
    for (const instance of instances) {
      const vm = calculateInstance(provider, { instance, region, duration: 1 }, defaultDatasets);
      expect(vm.total_co2e).toBeGreaterThan(0);
      expect(vm.embodied_cpu_estimate.co2e).toBeGreaterThan(0);
      const embodied = calculateEmbodied(
        provider,
        { instance, instance_count: 1, duration: 1 },
        defaultDatasets,
      );
      expect(embodied.co2e).toBe(vm.embodied_cpu_estimate.co2e);
      ids.add(embodied.emission_factor?.id as string);
    }
    // Every instance type has its own embodied factor id.
    expect(ids.size).toBe(instances.length);
  });

  it('CPU factor ids are unique across every (provider, region, year)', () => {
    const ids = new Map<string, string>();
    for (const provider of PROVIDERS) {
      for (const region of defaultDatasets.cloudRegions.list(provider)) {
        for (const year of DEFAULT_YEARS) {
          const id = calculateCpu(provider, { cpu_count: 1, region, duration: 1, year }, defaultDatasets)
            .emission_factor?.id as string;
          expect(id).toMatch(/^[0-9a-f]{32}$/);
          expect(ids.get(id), `${provider} ${region} ${year}`).toBeUndefined();
          ids.set(id, `${provider} ${region} ${year}`);
        }
      }
    }
  });
});
