/**
 * Builds `datasets/cloud/regions-ccf.json`, the alternative grid: CCF's grid emission factors (trunk 2024-03) for the
 * regions of `./regions.ts`. Runnable alone:
 *
 *   npx tsx scripts/datasets/cloud/build-regions-ccf.ts
 */
import { join } from 'node:path';
import * as z from 'zod';
import { decimal, mul, toNumber } from '../../../src/core/decimal';
import { type CloudProvider, CloudRegionsTable } from '../../../src/datasets/tables';
import { assert, byProviderThen, isMain, readJson, sharedPath, writeJson } from '../lib';
import { CCF_ATTRIBUTION, CCF_TRUNK, CLOUD_OUT_DIR } from './lib';
import {
  assertUniqueRegions,
  listRegions,
  readRegionsFile,
  type RegionRef,
  type RegionsFile,
  unsupportedRegions,
} from './regions';

export const CCF_REGIONS_FILE = 'regions-ccf.json';

const numberRecord = z.record(z.string(), z.number().finite().nonnegative());

const GridFileSchema = z.object({
  vintages: z.object({
    ccf_trunk_2024_03: z.object({
      us_nerc: numberRecord,
      aws: numberRecord,
      azure: numberRecord,
      gcp_grid: numberRecord,
    }),
  }),
});

/** t/kWh → kg/kWh, exactly (0.000379069 → 0.379069). */
const tonnesToKilograms = (tonnes: number): number => toNumber(mul(decimal(tonnes), decimal(1000)));

function buildFromCcfGrid(regions: RegionsFile, refs: RegionRef[]): CloudRegionsTable {
  const grid = GridFileSchema.parse(readJson(sharedPath('ccf/grid_emission_factors.json'))).vintages
    .ccf_trunk_2024_03;
  const refByRegion = new Map(refs.map((ref) => [`${ref.provider}/${ref.region}`, ref]));
  const nercByValue = new Map(Object.entries(grid.us_nerc).map(([nerc, value]) => [value, nerc]));

  // Azure keys are Consumption-API strings; resolve every alias to the region's lowercased name.
  const azureAlias = new Map<string, string>();
  for (const { name, options } of Object.values(regions.azure.regions)) {
    for (const alias of [name, ...options]) azureAlias.set(alias.toLowerCase(), name.toLowerCase());
  }
  const gcpAggregates = new Set([
    ...Object.values(regions.gcp.dual_regions),
    ...Object.values(regions.gcp.multi_regions),
  ]);

  const tonnes = new Map<string, { provider: CloudProvider; region: string; value: number }>();
  const add = (provider: CloudProvider, region: string, value: number, key: string) => {
    const id = `${provider}/${region}`;
    const seen = tonnes.get(id);
    assert(
      !seen || seen.value === value,
      `CCF grid: ${id} aliases disagree (${seen?.value} vs ${value} at ${key})`,
    );
    tonnes.set(id, { provider, region, value });
  };
  for (const [key, value] of Object.entries(grid.aws)) if (key !== 'Unknown') add('aws', key, value, key);
  for (const [key, value] of Object.entries(grid.azure)) {
    if (key === 'Unknown') continue;
    const region = azureAlias.get(key.toLowerCase());
    assert(region, `CCF grid: Azure key ${key} is not a region or alias in regions.json`);
    add('azure', region, value, key);
  }
  for (const [key, value] of Object.entries(grid.gcp_grid)) {
    if (key !== 'Unknown' && !gcpAggregates.has(key)) add('gcp', key, value, key);
  }

  const rows = [...tonnes.values()].map(({ provider, region, value }) => {
    const ref = refByRegion.get(`${provider}/${region}`);
    assert(ref, `CCF grid: ${provider}/${region} is not a region of regions.json`);
    let grid_zone: string;
    if (provider === 'gcp') {
      grid_zone = region; // Google publishes one grid intensity per region
    } else if (ref.location === 'US') {
      const nerc = nercByValue.get(value);
      assert(nerc, `CCF grid: US region ${provider}/${region} value ${value} is not a NERC factor`);
      grid_zone = `US-NERC-${nerc}`;
    } else if (provider === 'azure' && (region === 'asia' || region === 'asiapacific')) {
      grid_zone = 'Asia'; // a CCF average over Asian regions, not a country figure
    } else {
      grid_zone = ref.location;
    }
    return {
      provider,
      region,
      hosted_spelling: ref.hostedSpelling,
      location: ref.location,
      grid_zone,
      grid_factors: { '2024': tonnesToKilograms(value) },
      grid_sources: { '2024': `CCF grid emission factors, trunk ${CCF_TRUNK} (2024-03)` },
    };
  });
  const missing = refs.filter((ref) => !tonnes.has(`${ref.provider}/${ref.region}`));
  if (missing.length > 0) {
    console.log(
      `  CCF grid has no factor for: ${missing.map((r) => `${r.provider}/${r.region}`).join(', ')}`,
    );
  }
  const unsupported = missing.map(({ provider, region }) => ({
    provider,
    region,
    reason: `CCF's grid emission factors (trunk ${CCF_TRUNK}) have no figure for it`,
  }));
  return CloudRegionsTable.parse({
    dataset: {
      id: 'ccf-grid-2024',
      version: `2024.03-${CCF_TRUNK}`,
      source: 'CCF',
      source_dataset: `Cloud Carbon Footprint grid emission factors (trunk ${CCF_TRUNK}, 2024-03)`,
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. Grid factors as compiled by CCF from EPA eGRID2020 (US NERC regions), ` +
        `carbonfootprint.com and EEA (other AWS/Azure regions) and Google region carbon data (GCP). ` +
        `GWP basis is not stated by CCF and the sources are mixed; labelled AR4 nominally, as Climatiq's OEFDB ` +
        `labels CCF-derived factors.`,
    },
    default_year: 2024,
    unit: 'kg/kWh',
    gwp: 'ar4',
    regions: rows.sort(byProviderThen('region')),
    unsupported: unsupportedRegions(unsupported),
  });
}

/** The table as written, checked: region ids unique as looked up. */
export function buildCcfRegions(
  regions: RegionsFile = readRegionsFile(),
  refs: RegionRef[] = listRegions(regions),
): CloudRegionsTable {
  const ccfGrid = buildFromCcfGrid(regions, refs);
  assertUniqueRegions(ccfGrid);
  return ccfGrid;
}

/** Builds and writes the table to `outDir`; returns the path written. */
export function writeCcfRegions(outDir: string = CLOUD_OUT_DIR): string {
  const path = join(outDir, CCF_REGIONS_FILE);
  writeJson(path, buildCcfRegions());
  return path;
}

if (isMain(import.meta.url)) writeCcfRegions();
