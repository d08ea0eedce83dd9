/**
 * Unsupported regions and excluded instance types travel with their tables: through createTableDatasets, a merge
 * (where a layer that supplies a region or type takes it off the list) and listCapabilities.
 */
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import {
  calculateCpu,
  calculateEmbodied,
  createTableDatasets,
  listCapabilities,
  mergeDatasets,
  type CloudInstancesTable,
  type CloudRegionsTable,
  type DatasetInfo,
} from '../../src/index';

const info: DatasetInfo = {
  id: 'acme',
  version: '1',
  source: 'ACME',
  source_dataset: 'ACME cloud',
  licence: 'internal',
  attribution: 'ACME',
};

const regions: CloudRegionsTable = {
  dataset: info,
  default_year: 2022,
  unit: 'kg/kWh',
  gwp: 'ar5',
  regions: [
    {
      provider: 'azure',
      region: 'usgovarizona',
      location: 'US',
      grid_zone: 'US-SW-AZPS',
      grid_factors: { '2022': 0.474 },
      grid_sources: { '2022': 'our PPA' },
    },
  ],
  unsupported: [{ provider: 'aws', region: 'us-isob-east-1', reason: 'classified' }],
};

const instances: CloudInstancesTable = {
  dataset: info,
  default_year: 2021,
  gwp: 'ar4',
  years: [2021],
  instances: [
    {
      provider: 'aws',
      instance: 'c7i-flex.large',
      vcpu: 2,
      memory_gib: 4,
      platform_vcpu: 384,
      platform_embodied_kgco2e: 2500,
    },
  ],
  excluded: [
    { provider: 'aws', source: 'our list', reason: 'no figure yet', instances: ['z9.large', 'y9.large'] },
  ],
};

describe('a table’s unsupported regions and excluded types', () => {
  const own = createTableDatasets({ cloudRegions: regions, cloudInstances: instances });

  it('are listed per provider, sorted, and empty for a provider the table names none for', () => {
    expect(own.cloudRegions.unsupported?.('aws')).toEqual([
      { provider: 'aws', region: 'us-isob-east-1', reason: 'classified' },
    ]);
    expect(own.cloudRegions.unsupported?.('gcp')).toEqual([]);
    expect(own.cloudInstances.excluded?.('aws').map((r) => r.instance)).toEqual(['y9.large', 'z9.large']);
    expect(own.cloudInstances.excluded?.('aws')[0]).toEqual({
      provider: 'aws',
      instance: 'y9.large',
      source: 'our list',
      reason: 'no figure yet',
    });
  });

  it('are absent for a table without them, and listCapabilities then omits the fields', () => {
    const { unsupported: _u, ...plainRegions } = regions;
    const { excluded: _e, ...plainInstances } = instances;
    const plain = createTableDatasets({ cloudRegions: plainRegions, cloudInstances: plainInstances });
    expect(plain.cloudRegions.unsupported).toBeUndefined();
    expect(plain.cloudInstances.excluded).toBeUndefined();
    const aws = listCapabilities({ ...defaultDatasets, ...plain }).cloud?.providers[0];
    expect(Object.keys(aws ?? {})).toEqual(['provider', 'name', 'regions', 'instances']);
  });

  it('in a merge, lose what a layer supplies: our Arizona factor and our c7i-flex figure', () => {
    const merged = mergeDatasets(
      defaultDatasets,
      createTableDatasets({ cloudRegions: regions, cloudInstances: instances }),
    );
    const azure = merged.cloudRegions.unsupported?.('azure').map((r) => r.region);
    expect(azure).not.toContain('usgovarizona');
    expect(azure).toContain('usgovtexas');
    expect(merged.cloudRegions.unsupported?.('aws')).toEqual([
      { provider: 'aws', region: 'us-isob-east-1', reason: 'classified' },
    ]);
    expect(
      calculateCpu('azure', { cpu_count: 1, region: 'usgovarizona', duration: 1 }, merged).co2e,
    ).toBeGreaterThan(0);

    const excluded = merged.cloudInstances.excluded?.('aws').map((r) => r.instance) ?? [];
    expect(excluded).not.toContain('c7i-flex.large');
    expect(excluded).toContain('c7i-flex.xlarge');
    expect(excluded).toContain('z9.large');
    expect(
      calculateEmbodied('aws', { instance: 'c7i-flex.large', instance_count: 1, duration: 1 }, merged).co2e,
    ).toBeGreaterThan(0);
  });

  it('are refused when malformed, like the rest of the table', () => {
    const bad = { ...instances, excluded: [{ provider: 'aws', source: 'x', reason: 'y', instances: [] }] };
    expect(() => createTableDatasets({ cloudInstances: bad as CloudInstancesTable })).toThrow();
    const badRegion = { ...regions, unsupported: [{ provider: 'ibm', region: 'x', reason: 'y' }] };
    expect(() => createTableDatasets({ cloudRegions: badRegion as unknown as CloudRegionsTable })).toThrow();
  });
});
