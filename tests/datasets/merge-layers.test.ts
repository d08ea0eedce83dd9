import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDatasets, hostedApi2021Datasets } from '../../src/embedded/index';
import {
  calculateCpu,
  calculateMemory,
  EmissionsError,
  createTableDatasets,
  mergeDatasets,
  type CloudDatasets,
  type CloudProvider,
  type CloudRegionsTable,
  type DatasetInfo,
} from '../../src/index';

const info = (id: string): DatasetInfo => ({
  id,
  version: '1',
  source: `${id} source`,
  source_dataset: `${id} dataset`,
  licence: 'internal',
  attribution: id,
});

const regionsTable = (id: string, regions: CloudRegionsTable['regions']): CloudRegionsTable => ({
  dataset: info(id),
  default_year: 2021,
  unit: 'kg/kWh',
  gwp: 'ar4',
  regions,
});

describe('mergeDatasets: layering a region never removes what a lower layer published for other years', () => {
  // Issue 23 item 4: one 2030 grid row for us-east-1 over the hosted API's 2021 set dropped the region's published
  // 2021 factors, so the 2021 CPU estimate became a computed one (0.001000389681) with another factor id.
  const row2030 = regionsTable('acme-2030', [
    {
      provider: 'aws',
      region: 'us-east-1',
      location: 'US-VA',
      grid_zone: 'US-VA',
      grid_factors: { '2030': 0.2 },
      grid_sources: { '2030': 'ACME 2030 forecast' },
    },
  ]);
  const merged = mergeDatasets(hostedApi2021Datasets, createTableDatasets({ cloudRegions: row2030 }));
  const cpu = { cpu_count: 1, region: 'us_east_1', duration: 1 };

  it('keeps the 2021 CPU estimate and its factor exactly as published', () => {
    const before = calculateCpu('aws', { ...cpu, year: 2021 }, hostedApi2021Datasets);
    // The hosted API's published 2021 factor for AWS us-east-1 CPU (datasets/cloud/regions-hosted-api-2021.json).
    expect(before.co2e).toBe(0.00098387);
    expect(calculateCpu('aws', { ...cpu, year: 2021 }, merged)).toEqual(before);
    expect(
      calculateMemory(
        'aws',
        { data: 1, data_unit: 'GB', region: 'us_east_1', duration: 1, year: 2021 },
        merged,
      ),
    ).toEqual(
      calculateMemory(
        'aws',
        { data: 1, data_unit: 'GB', region: 'us_east_1', duration: 1, year: 2021 },
        hostedApi2021Datasets,
      ),
    );
  });

  it('computes the added year from the added grid factor', () => {
    const estimate = calculateCpu('aws', { ...cpu, year: 2030 }, merged);
    expect(estimate.emission_factor?.year).toBe(2030);
    expect(estimate.emission_factor?.source_dataset).toContain('acme-2030 dataset');
  });

  it('an override of the published year replaces the published factor by one computed from its grid factor', () => {
    const row2021 = regionsTable('acme-2021', [
      { ...row2030.regions[0]!, grid_factors: { '2021': 0.2 }, grid_sources: { '2021': 'ACME 2021' } },
    ]);
    const over = mergeDatasets(hostedApi2021Datasets, createTableDatasets({ cloudRegions: row2021 }));
    const alone = { ...hostedApi2021Datasets, ...createTableDatasets({ cloudRegions: row2021 }) };
    expect(calculateCpu('aws', { ...cpu, year: 2021 }, over)).toEqual(
      calculateCpu('aws', { ...cpu, year: 2021 }, alone),
    );
  });

  it('an override publishing a resource for another year keeps the lower layer’s published year', () => {
    const base = hostedApi2021Datasets.cloudRegions.get('aws', 'us-east-1')!;
    const published2030 = regionsTable('acme-published-2030', [
      {
        ...row2030.regions[0]!,
        published_factors: {
          cpu: {
            year: 2030,
            factor: 0.0005,
            activity_id: 'acme-cpu-2030',
            name: 'ACME CPU 2030',
            location: 'US-VA',
          },
        },
      },
    ]);
    const over = mergeDatasets(hostedApi2021Datasets, createTableDatasets({ cloudRegions: published2030 }));
    expect(calculateCpu('aws', { ...cpu, year: 2021 }, over)).toEqual(
      calculateCpu('aws', { ...cpu, year: 2021 }, hostedApi2021Datasets),
    );
    const ours = calculateCpu('aws', { ...cpu, year: 2030 }, over);
    expect([ours.co2e, ours.emission_factor?.activity_id]).toEqual([0.0005, 'acme-cpu-2030']);
    expect(base.published_factors?.cpu?.year).toBe(2021);
  });
});

describe('mergeDatasets: a region spelled two ways is listed once', () => {
  it('lists westeurope once when an override spells it west-europe, as the winning layer spells it', () => {
    const base = defaultDatasets.cloudRegions.list('azure');
    expect(base.filter((id) => id.replaceAll('_', '') === 'westeurope')).toEqual(['westeurope']);
    const override = regionsTable('acme-azure', [
      {
        provider: 'azure',
        region: 'west-europe',
        location: 'NL',
        grid_zone: 'NL',
        grid_factors: { '2021': 0.3 },
        grid_sources: { '2021': 'ACME' },
      },
    ]);
    const override2 = { ...override, gwp: defaultDatasets.cloudRegions.gwp };
    const merged = mergeDatasets(defaultDatasets, createTableDatasets({ cloudRegions: override2 }));
    const list = merged.cloudRegions.list('azure');
    expect(list.filter((id) => id.replaceAll('_', '') === 'westeurope')).toEqual(['west_europe']);
    expect(list.length).toBe(base.length);
  });
});

// --- properties over random layers of regions ---

const PROVIDERS: readonly CloudProvider[] = ['aws', 'gcp'];
/** A region pool with two spellings of one region, so keys and listings are exercised across spellings. */
const REGIONS = ['us-east-1', 'US_EAST_1', 'eu-west-1', 'europe-west1'] as const;
const YEARS = [2020, 2021, 2022, 2023] as const;
const key = (region: string) => region.toLowerCase().replaceAll(/[-_]/g, '');
/** One location per region (the region-level fields come from the last layer; the records vary by year). */
const location = (region: string) => `US-${key(region).slice(0, 4).toUpperCase()}`;

const factor = fc.double({ min: 0, max: 2, noNaN: true, noDefaultInfinity: true });
const regionRow = fc
  .record({
    provider: fc.constantFrom(...PROVIDERS),
    region: fc.constantFrom(...REGIONS),
    years: fc.uniqueArray(fc.constantFrom(...YEARS), { minLength: 1, maxLength: 3 }),
    factors: fc.array(factor, { minLength: 3, maxLength: 3 }),
    published: fc.option(fc.record({ year: fc.constantFrom(...YEARS), factor })),
  })
  .map(({ provider, region, years, factors, published }) => ({
    provider,
    region,
    location: location(region),
    grid_zone: location(region),
    grid_factors: Object.fromEntries(years.map((year, i) => [String(year), factors[i] as number])),
    grid_sources: Object.fromEntries(years.map((year) => [String(year), `source ${year}`])),
    ...(published && {
      published_factors: {
        cpu: {
          year: published.year,
          factor: published.factor,
          activity_id: `cpu-${key(region)}-${published.year}`,
          name: `CPU ${region} ${published.year}`,
          location: location(region),
        },
      },
    }),
  }));
/** A layer: rows with one row per (provider, region key). */
const layer = (id: string) =>
  fc
    .uniqueArray(regionRow, { maxLength: 4, selector: (row) => `${row.provider} ${key(row.region)}` })
    .map((rows) => regionsTable(id, rows));
const build = (table: CloudRegionsTable) => createTableDatasets({ cloudRegions: table });

const coefficients = {
  cloudCoefficients: defaultDatasets.cloudCoefficients,
  cloudInstances: defaultDatasets.cloudInstances,
};

/** What every estimate over the pool comes out as: a result, or the error code (messages may name all layers). */
function outcomes(datasets: CloudDatasets) {
  const out: Record<string, unknown> = {};
  for (const provider of PROVIDERS)
    for (const region of REGIONS)
      for (const year of YEARS) {
        const request = { cpu_count: 2, region, duration: 1, year };
        try {
          out[`${provider} ${region} ${year}`] = calculateCpu(provider, request, datasets);
        } catch (error) {
          if (!(error instanceof EmissionsError)) throw error;
          out[`${provider} ${region} ${year}`] = error.error_code;
        }
      }
  return out;
}
const asCloud = (d: object) => ({ ...coefficients, ...d }) as CloudDatasets;

describe('mergeDatasets properties over random region layers', () => {
  it('is associative: merge(merge(a, b), c), merge(a, merge(b, c)) and merge(a, b, c) give the same estimates', () => {
    fc.assert(
      fc.property(layer('a'), layer('b'), layer('c'), (...tables) => {
        const [a, b, c] = tables.map(build) as [
          ReturnType<typeof build>,
          ReturnType<typeof build>,
          ReturnType<typeof build>,
        ];
        const flat = outcomes(asCloud(mergeDatasets(a, b, c)));
        expect(outcomes(asCloud(mergeDatasets(mergeDatasets(a, b), c)))).toEqual(flat);
        expect(outcomes(asCloud(mergeDatasets(a, mergeDatasets(b, c))))).toEqual(flat);
        for (const provider of PROVIDERS) {
          const list = mergeDatasets(a, b, c).cloudRegions!.list(provider);
          expect(mergeDatasets(mergeDatasets(a, b), c).cloudRegions!.list(provider)).toEqual(list);
          expect(mergeDatasets(a, mergeDatasets(b, c)).cloudRegions!.list(provider)).toEqual(list);
          expect(new Set(list.map(key)).size).toBe(list.length);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('an estimate that touches no record of the override is identical before and after the merge', () => {
    fc.assert(
      fc.property(layer('a'), layer('b'), layer('o'), (...tables) => {
        const [a, b, o] = tables.map(build) as [
          ReturnType<typeof build>,
          ReturnType<typeof build>,
          ReturnType<typeof build>,
        ];
        const before = asCloud(mergeDatasets(a, b));
        const after = asCloud(mergeDatasets(a, b, o));
        const was = outcomes(before);
        const now = outcomes(after);
        for (const provider of PROVIDERS)
          for (const region of REGIONS)
            for (const year of YEARS) {
              const row = o.cloudRegions.get(provider, region);
              // Touched: the override has this year's grid factor or a published factor for it.
              if (row?.grid_factors[String(year)] !== undefined || row?.published_factors?.cpu?.year === year)
                continue;
              const id = `${provider} ${region} ${year}`;
              // A region only the override has: before, no estimate (unknown_region); after, an untouched year
              // still has none, or the same error.
              if (typeof was[id] === 'string' && row !== undefined) continue;
              expect(now[id], id).toEqual(was[id]);
            }
      }),
      { numRuns: 150 },
    );
  });
});
