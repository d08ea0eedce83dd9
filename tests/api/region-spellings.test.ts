/**
 * Region spellings (issue 10): every provider accepts its own region name, the hosted API's (words split by `_`),
 * any case; the echoed region is the provider's own; an unknown region gets "did you mean".
 */
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
  EmissionsError,
  type CloudProvider,
  type CloudProviderSpelling,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { readSharedData, skipWithoutSharedData } from '../shared-data';
import { caught } from '../fixtures/caught';

const ds = defaultDatasets;
const cpu = (provider: CloudProviderSpelling, region: string) =>
  calculateCpu(provider, { cpu_count: 1, region, duration: 1, duration_unit: 'h' }, ds);

/**
 * Each family: the provider's own spelling, the hosted API's (which the factor's activity id and name use), then
 * spellings that must find the same region.
 */
const FAMILIES: Array<{
  family: string;
  provider: CloudProviderSpelling;
  own: string;
  hosted: string;
  spellings: string[];
}> = [
  {
    family: 'AWS hyphens to underscores, any case',
    provider: 'aws',
    own: 'us-east-1',
    hosted: 'us_east_1',
    spellings: ['us_east_1', 'US-EAST-1', 'Us_East_1'],
  },
  {
    family: 'Azure words split as the hosted API split them',
    provider: 'azure',
    own: 'westeurope',
    hosted: 'west_europe',
    spellings: ['west_europe', 'WestEurope', 'West Europe', 'WEST_EUROPE'],
  },
  {
    family: 'Azure with a trailing number',
    provider: 'azure',
    own: 'eastus2',
    hosted: 'east_us_2',
    spellings: ['east_us_2', 'East US 2', 'EASTUS2'],
  },
  {
    family: 'GCP with and without the separator before the number',
    provider: 'gcp',
    own: 'europe-west1',
    hosted: 'europe_west_1',
    spellings: ['europe_west1', 'europe_west_1', 'EUROPE-WEST1', 'europe-west-1'],
  },
];

describe('region alias families', () => {
  for (const { family, provider, own, hosted, spellings } of FAMILIES) {
    it(`${family}: ${spellings.join(', ')} → ${own}`, () => {
      const expected = cpu(provider, own);
      expect(expected.emission_factor?.activity_id).toBe(`cpu-provider_${provider}-region_${hosted}`);
      expect(expected.emission_factor?.name).toBe(
        `${provider.toUpperCase()} (${hosted.replaceAll('_', '-')}) CPU`,
      );
      for (const spelling of spellings) expect(cpu(provider, spelling)).toEqual(expected);
      expect(() => cpu(provider, ` ${own}`)).toThrow(EmissionsError);
    });
  }

  it('does not confuse regions that differ only by a number (europe-west1 and europe-west10)', () => {
    expect(cpu('gcp', 'europe_west_10').emission_factor?.name).toBe('GCP (europe-west-10) CPU');
    expect(cpu('gcp', 'europe_west10').emission_factor?.name).toBe('GCP (europe-west-10) CPU');
    expect(cpu('gcp', 'europe_west_1').emission_factor?.name).toBe('GCP (europe-west-1) CPU');
  });
});

describe('unknown region', () => {
  const thrown = (provider: CloudProviderSpelling, region: string) =>
    caught(EmissionsError, () => cpu(provider, region));

  it('suggests the closest regions ("did you mean") and still lists every valid one', () => {
    const error = thrown('azure', 'west_europa');
    expect(error.error_code).toBe('unknown_region');
    expect(error.message).toMatch(/Did you mean: westeurope[,?]/);
    expect(error.toJSON().valid_values).toContain('westeurope');
  });

  it('suggests nothing for a spelling close to no region', () => {
    const error = thrown('aws', 'zz');
    expect(error.error_code).toBe('unknown_region');
    expect(error.message).not.toContain('Did you mean');
  });

  it('keeps a region of another provider unknown', () => {
    expect(thrown('aws', 'westeurope').error_code).toBe('unknown_region');
  });
});

/** The regions of the hosted API's 2021 set, as it spelled them (`region_east_us_2`). */
const HOSTED_REGIONS: Array<{ provider: CloudProvider; region: string }> = (() => {
  const csv = readSharedData('oefdb/ccf_cloud_factors.csv');
  const seen = new Map<string, { provider: CloudProvider; region: string }>();
  for (const match of csv.matchAll(/,cpu-provider_(\w+?)-region_(\w+),/g)) {
    const [, provider, region] = match as unknown as [string, CloudProvider, string];
    seen.set(`${provider}/${region}`, { provider, region });
  }
  return [...seen.values()];
})();

describe.skipIf(skipWithoutSharedData)("every region of the hosted API's 2021 set", () => {
  it('is read from the file (25 AWS, 19 Azure, 24 GCP regions)', () => {
    const count = (provider: string) => HOSTED_REGIONS.filter((row) => row.provider === provider).length;
    expect([count('aws'), count('azure'), count('gcp')]).toEqual([25, 19, 24]);
  });

  it('is accepted in the hosted spelling by every cloud calculator', () => {
    const rejected: string[] = [];
    for (const { provider, region } of HOSTED_REGIONS) {
      const instance = { aws: 't3.micro', azure: 'Standard_D2s_v3', gcp: 'e2-standard-2' }[
        provider
      ] as string;
      const calls = [
        () => calculateCpu(provider, { cpu_count: 1, region, duration: 1 }, ds),
        () => calculateMemory(provider, { data: 1, data_unit: 'gb', region, duration: 1 }, ds),
        () =>
          calculateStorage(
            provider,
            { storage_type: 'ssd', data: 1, data_unit: 'tb', region, duration: 1 },
            ds,
          ),
        () => calculateNetworking(provider, { data: 1, data_unit: 'gb', region }, ds),
        () => calculateInstance(provider, { instance, region, duration: 1 }, ds),
      ];
      calls.forEach((call, index) => {
        try {
          call();
        } catch (error) {
          rejected.push(`${provider} ${region} (call ${index}): ${(error as Error).message.slice(0, 80)}`);
        }
      });
    }
    expect(rejected).toEqual([]);
  });
});
