import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { decimal, mul, toNumber } from '../../src/core/decimal';
import { regionHostedSpelling, regionKey } from '../../src/datasets/keys';
import { type CloudProvider, CloudRegionsTable } from '../../src/datasets/tables';
import { assert, byProviderThen, readCsv, readJson, repoPath, sharedPath, writeJson } from './lib';

/**
 * `datasets/cloud/regions-hosted-api-2021.json`: the hosted API's own 2021 cloud factors (Climatiq's CCF-derived
 * rows of OEFDB, `oefdb/ccf_cloud_factors.csv`) as a regions table whose `published_factors` the calculators use
 * as they are, with the 2021 CCF grid factors (`ccf/ccf-coefficients/grid-emissions-factors-*.csv`, the inputs
 * those rows were derived from) for what the rows do not cover (the instance calculator, other utilisations).
 * Run by `scripts/datasets/build-all.ts`.
 */

const OEFDB_COMMIT = '677c3beadcb6bf1199b89ff168c4495356ddea65';
const ACTIVITY_ID =
  /^(cpu|memory|storage|networking)-provider_(aws|azure|gcp)-region_([a-z0-9_]+?)(?:-type_(ssd|hdd))?$/;
const UNIT = { cpu: 'CPU-hour', memory: 'GB-hour', storage: 'TB-hour', networking: 'GB' } as const;

type Resource = 'cpu' | 'memory' | 'storage_ssd' | 'storage_hdd' | 'networking';
interface Published {
  year: number;
  factor: number;
  activity_id: string;
  name: string;
  location: string;
}

/** Provider region ids of the default regions table, by lookup key, to name each hosted region as its provider does. */
function providerRegionIds(): Map<string, string> {
  const table = readJson(repoPath('datasets/cloud/regions-electricitymaps.json')) as CloudRegionsTable;
  return new Map(table.regions.map((row) => [`${row.provider}/${regionKey(row.region)}`, row.region]));
}

/** 2021 CCF grid factors in kg/kWh by `provider/regionKey`, with the NERC region of US ones. */
function ccfGrid2021(): Map<string, { kg: number; nerc: string | undefined }> {
  const grid = new Map<string, { kg: number; nerc: string | undefined }>();
  for (const provider of ['aws', 'azure', 'gcp'] as const) {
    const text = readFileSync(
      sharedPath(`ccf/ccf-coefficients/grid-emissions-factors-${provider}.csv`),
      'utf8',
    );
    // relax_column_count: one Azure row (Finland Central) has a stray extra column; it is no hosted region, and
    // every row used is checked below to have a plain decimal factor.
    const rows = parse(text, { columns: true, bom: true, relax_column_count: true }) as Record<
      string,
      string
    >[];
    for (const row of rows) {
      const tonnes = row['CO2e (metric ton/kWh)'];
      if (!row.Region || !tonnes || !/^0\.\d+$/.test(tonnes)) continue;
      grid.set(`${provider}/${regionKey(row.Region)}`, {
        kg: toNumber(mul(decimal(tonnes), decimal(1000))),
        nerc: row['NERC Region'] || undefined,
      });
    }
  }
  return grid;
}

export function buildHostedApi2021(): CloudRegionsTable {
  const ids = providerRegionIds();
  const grid = ccfGrid2021();
  const regions = new Map<
    string,
    {
      provider: CloudProvider;
      region: string;
      /** The region as the hosted API's activity ids spell it (`west_europe`). */
      hosted: string;
      location: string;
      factors: Partial<Record<Resource, Published>>;
    }
  >();
  const rows = readCsv(sharedPath('oefdb/ccf_cloud_factors.csv'));
  assert(rows.length === 340, `ccf_cloud_factors.csv: expected 340 rows, read ${rows.length}`);
  for (const row of rows) {
    const match = ACTIVITY_ID.exec(row.activity_id ?? '');
    assert(match, `ccf_cloud_factors.csv: unexpected activity_id ${row.activity_id}`);
    const [, kind, provider, hostedRegion, type] = match as unknown as [
      string,
      keyof typeof UNIT,
      CloudProvider,
      string,
      'ssd' | 'hdd' | undefined,
    ];
    assert(row.activity_unit === UNIT[kind], `${row.activity_id}: unit ${row.activity_unit}`);
    assert(row.year_released === '2021', `${row.activity_id}: year ${row.year_released}`);
    const factor = row['kgCO2e-AR4'];
    assert(factor && /^\d+(\.\d+)?(e-\d+)?$/i.test(factor), `${row.activity_id}: factor ${factor}`);
    const region = ids.get(`${provider}/${regionKey(hostedRegion)}`);
    assert(region, `${row.activity_id}: no ${provider} region ${hostedRegion} in the default regions table`);
    const entry = regions.get(`${provider}/${region}`) ?? {
      provider,
      region,
      hosted: hostedRegion,
      location: row.region as string,
      factors: {},
    };
    assert(entry.location === row.region, `${row.activity_id}: location ${row.region} vs ${entry.location}`);
    assert(entry.hosted === hostedRegion, `${row.activity_id}: region ${hostedRegion} vs ${entry.hosted}`);
    const resource: Resource = kind === 'storage' ? `storage_${type as 'ssd' | 'hdd'}` : kind;
    assert(!entry.factors[resource], `${row.activity_id}: duplicate`);
    entry.factors[resource] = {
      year: 2021,
      factor: Number(factor),
      activity_id: row.activity_id as string,
      name: row.name as string,
      location: row.region as string,
    };
    regions.set(`${provider}/${region}`, entry);
  }
  const table = [...regions.values()].map(({ provider, region, hosted, location, factors }) => {
    const electricity = grid.get(`${provider}/${regionKey(region)}`);
    assert(electricity, `no 2021 CCF grid factor for ${provider}/${region}`);
    return {
      provider,
      region,
      // Stated only where the derivation from the id would not give it (Azure's run-together names).
      hosted_spelling: hosted === regionHostedSpelling(region) ? undefined : hosted,
      location,
      grid_zone: electricity.nerc ? `US-NERC-${electricity.nerc}` : provider === 'gcp' ? region : location,
      grid_factors: { '2021': electricity.kg },
      grid_sources: { '2021': `CCF grid emission factors 2021 (ccf-coefficients, ${provider})` },
      published_factors: {
        cpu: factors.cpu,
        memory: factors.memory,
        storage_ssd: factors.storage_ssd,
        storage_hdd: factors.storage_hdd,
        networking: factors.networking,
      },
    };
  });
  assert(table.length === 68, `expected 68 regions, built ${table.length}`);
  return CloudRegionsTable.parse({
    dataset: {
      id: 'hosted-api-2021',
      version: `oefdb-${OEFDB_COMMIT.slice(0, 7)}`,
      source: 'CCF',
      source_dataset: `Hosted API 2021 cloud factors (Climatiq OEFDB, CCF method, commit ${OEFDB_COMMIT.slice(0, 7)})`,
      licence: 'CC-BY-SA-4.0',
      attribution:
        'Contains data from the Open Emission Factors Database (OEFDB), Climatiq and contributors, ' +
        `https://github.com/climatiq/Open-Emission-Factors-DB, licensed CC BY-SA 4.0 (commit ${OEFDB_COMMIT}). ` +
        'Factors derived by Climatiq from Cloud Carbon Footprint (© 2021 Thoughtworks, Inc., Apache License 2.0); ' +
        '2021 grid factors from cloud-carbon-footprint/ccf-coefficients (Apache License 2.0).',
    },
    default_year: 2021,
    unit: 'kg/kWh',
    gwp: 'ar4',
    regions: table.sort(byProviderThen('region')),
  });
}

/** Writes the table; `npx tsx scripts/datasets/build-hosted-api-2021.ts`. */
export function writeHostedApi2021(options: { outDir?: string } = {}): void {
  writeJson(
    join(options.outDir ?? repoPath('datasets/cloud'), 'regions-hosted-api-2021.json'),
    buildHostedApi2021(),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) writeHostedApi2021();
