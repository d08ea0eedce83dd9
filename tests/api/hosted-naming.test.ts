/**
 * Factor names (issue 10 item 1): the engine's own factors are named as the hosted API named its factors, for every
 * provider and resource: `cpu-provider_azure-region_west_europe` / `AZURE (west-europe) CPU`,
 * `storage-provider_gcp-region_europe_west_1-type_ssd` / `GCP (europe-west-1) SSD storage`. Checked against every row
 * of `../shared/data/oefdb/ccf_cloud_factors.csv`, computed from the default grid tables (not the hosted 2021 set,
 * which states these names itself).
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CloudDatasets,
  type CloudProvider,
  calculateInstance,
  createTableDatasets,
  type Estimate,
  mergeDatasets,
} from '../../src/index';
import { ccfGridDatasets, cloudDatasets, defaultDatasets } from '../../src/embedded/index';
import { regionHostedSpelling, regionKey } from '../../src/datasets/keys';
import { segment } from '../../scripts/datasets/azure-words';
import { readSharedData, skipWithoutSharedData } from '../shared-data';
import { calculateCloud } from '../fixtures/cloud-calculators';

const rows = parse(readSharedData('oefdb/ccf_cloud_factors.csv'), { columns: true }) as Array<
  Record<string, string>
>;

const RESOURCES = ['cpu', 'memory', 'storage', 'networking'] as const;
type Resource = (typeof RESOURCES)[number];

/** One unit of the row's resource, asked for in `region` (any spelling). */
/** The request fields for one unit of each resource: 1 vCPU-hour, 1 GB-hour, 1 TB-hour (storage), 1 GB sent. */
const ONE_UNIT: Record<Resource, Record<string, unknown>> = {
  cpu: { cpu_count: 1, duration: 1 },
  memory: { data: 1, duration: 1 },
  storage: { data: 1, duration: 1 },
  networking: { data: 1 },
};

function estimate(
  resource: Resource,
  provider: CloudProvider,
  region: string,
  type: 'ssd' | 'hdd',
  datasets: CloudDatasets,
): Estimate {
  const request = {
    ...ONE_UNIT[resource],
    region,
    ...(resource === 'storage' ? { storage_type: type } : {}),
  };
  return calculateCloud(resource, provider, request, datasets) as Estimate;
}

const ACTIVITY =
  /^(cpu|memory|storage|networking)-provider_(aws|azure|gcp)-region_(\w+?)(?:-type_(ssd|hdd))?$/;

describe.skipIf(skipWithoutSharedData)("the hosted API's naming, over every row of its 2021 set", () => {
  const byResource = (resource: Resource) =>
    rows.flatMap((row) => {
      const match = ACTIVITY.exec(row.activity_id ?? '');
      if (match?.[1] !== resource) return [];
      const [, , provider, hosted, type] = match as unknown as [
        string,
        Resource,
        CloudProvider,
        string,
        string?,
      ];
      return [{ row, provider, hosted, type: (type ?? 'ssd') as 'ssd' | 'hdd' }];
    });

  it('reads 340 rows: 68 regions × cpu, memory, networking and storage (SSD, HDD)', () => {
    expect(RESOURCES.map((resource) => byResource(resource).length)).toEqual([68, 68, 136, 68]);
  });

  for (const resource of RESOURCES) {
    it(`${resource}: the same activity_id and name, in the provider's own spelling and the hosted one`, () => {
      const mismatches: string[] = [];
      for (const { row, provider, hosted, type } of byResource(resource)) {
        for (const datasets of [defaultDatasets, ccfGridDatasets]) {
          // The provider's own id (`westeurope`, `europe-west1`) and the hosted spelling name the same factor.
          const own = datasets.cloudRegions.get(provider, hosted)?.region;
          for (const region of [hosted, own ?? hosted]) {
            const factor = estimate(resource, provider, region, type, datasets).emission_factor;
            if (factor?.activity_id !== row.activity_id || factor?.name !== row.name)
              mismatches.push(
                `${region}: ${factor?.activity_id} ${factor?.name} ≠ ${row.activity_id} ${row.name}`,
              );
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

describe('hosted spellings of the embedded regions', () => {
  const regions = (['aws', 'azure', 'gcp'] as const).flatMap((provider) =>
    cloudDatasets.cloudRegions.list(provider).map((id) => {
      const record = cloudDatasets.cloudRegions.get(provider, id);
      if (record === undefined) throw new Error(`${provider}/${id} listed but not found`);
      return { provider, record };
    }),
  );

  it('every region has one: lowercase words and numbers joined by _, spelling the same region', () => {
    for (const { record } of regions) {
      const hosted = regionHostedSpelling(record.region, record.hosted_spelling);
      expect(hosted).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
      expect(regionKey(hosted)).toBe(regionKey(record.region));
    }
  });

  it('Azure words are split (germanywestcentral, southeastasia, eastus2euap), AWS and GCP derived', () => {
    const of = (provider: CloudProvider, id: string) => {
      const record = cloudDatasets.cloudRegions.get(provider, id);
      return record && regionHostedSpelling(record.region, record.hosted_spelling);
    };
    expect(of('azure', 'germanywestcentral')).toBe('germany_west_central');
    expect(of('azure', 'southeastasia')).toBe('southeast_asia');
    expect(of('azure', 'eastus2euap')).toBe('east_us_2_euap');
    expect(of('azure', 'southafricanorth')).toBe('south_africa_north');
    expect(of('aws', 'us-gov-west-1')).toBe('us_gov_west_1');
    expect(of('gcp', 'northamerica-northeast2')).toBe('northamerica_northeast_2');
    expect(
      regions.filter(({ record }) => record.hosted_spelling !== undefined).map((r) => r.provider),
    ).toEqual(expect.arrayContaining(['azure']));
    expect(regions.some(({ provider, record }) => provider !== 'azure' && record.hosted_spelling)).toBe(
      false,
    );
  });

  it('the grid estimate of the instance calculator is named the same way', () => {
    const vm = calculateInstance(
      'azure',
      { instance: 'Standard_D2s_v3', region: 'westeurope', duration: 1 },
      defaultDatasets,
    );
    expect(vm.cpu_estimate.emission_factor?.activity_id).toBe(
      'electricity-supply_grid-provider_azure-region_west_europe',
    );
    expect(vm.cpu_estimate.emission_factor?.name).toMatch(
      /^Electricity supplied from grid: AZURE \(west-europe\), zone /,
    );
  });

  it('a user table without hosted_spelling names Azure factors by the id; merged over the defaults, keeps theirs', () => {
    const table = {
      dataset: {
        id: 'mine',
        version: '1',
        source: 'me',
        source_dataset: 'my grid',
        licence: 'MIT',
        attribution: 'me',
      },
      default_year: 2022,
      unit: 'kg/kWh' as const,
      gwp: 'ar5' as const,
      regions: [
        {
          provider: 'azure' as const,
          region: 'westeurope',
          location: 'NL',
          grid_zone: 'NL',
          grid_factors: { '2022': 0.3 },
          grid_sources: { '2022': 'mine' },
        },
      ],
    };
    const mine = createTableDatasets({ cloudRegions: table });
    // Alone (with the embedded coefficients and instances): nothing states the split, so the id names it.
    const alone: CloudDatasets = { ...cloudDatasets, cloudRegions: mine.cloudRegions };
    expect(estimate('cpu', 'azure', 'west_europe', 'ssd', alone).emission_factor?.name).toBe(
      'AZURE (westeurope) CPU',
    );
    // Layered over the defaults, the region keeps the hosted spelling the embedded table states.
    const merged = mergeDatasets(cloudDatasets, mine);
    const factor = estimate('cpu', 'azure', 'westeurope', 'ssd', merged).emission_factor;
    expect(factor?.name).toBe('AZURE (west-europe) CPU');
    expect(factor?.source_dataset).toContain('my grid');
    expect(() =>
      createTableDatasets({
        cloudRegions: {
          ...table,
          regions: [{ ...table.regions[0]!, hosted_spelling: 'north_europe' }],
        },
      }),
    ).toThrow(/hosted_spelling/);
  });
});

describe('the word split of the dataset build (scripts/datasets/azure-words.ts)', () => {
  const vocabulary = new Set(['west', 'east', 'south', 'southeast', 'asia', 'us', 'europe', 'central']);

  it.each([
    ['westeurope', 'west europe', 0],
    ['southeastasia', 'southeast asia', 0],
    ['eastus2', 'east us 2', 0],
    ['westcentralus', 'west central us', 0],
    ['unitedstates', 'unitedstates', 12],
  ])('%s → %s (%i letters uncovered)', (name, words, unknown) => {
    expect(segment(name, vocabulary)).toEqual({ unknown, pieces: words.split(' ') });
  });

  it('the pieces always spell the name again', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{0,24}$/), (name) => {
        expect(segment(name, vocabulary).pieces.join('')).toBe(name);
      }),
    );
  });
});
