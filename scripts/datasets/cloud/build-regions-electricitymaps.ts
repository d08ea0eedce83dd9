/**
 * Builds `datasets/cloud/regions-electricitymaps.json`, the default grid: Electricity Maps yearly averages (bundled in
 * `@tgwf/co2`) for every region of `./regions.ts`. Runnable alone:
 *
 *   npx tsx scripts/datasets/cloud/build-regions-electricitymaps.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { decimal, div, toNumber } from '../../../src/core/decimal';
import { CloudRegionsTable } from '../../../src/datasets/tables';
import { assert, byProviderThen, compareStrings, isMain, readJson, repoPath, writeJson } from '../lib';
import { CCF_ATTRIBUTION, CLOUD_OUT_DIR } from './lib';
import {
  assertUniqueRegions,
  listRegions,
  readRegionsFile,
  type RegionRef,
  type UnsupportedRegion,
  unsupportedRegions,
} from './regions';

export const ELECTRICITY_MAPS_REGIONS_FILE = 'regions-electricitymaps.json';

/** The version SOURCES.md describes; bump both together. */
const TGWF_CO2_VERSION = '0.19.0';
const EM_LICENCE_STATEMENT =
  'The annual grid intensity data is republished from Electricity Maps under the Open Database License (ODbL)';

/** One `yearly_YYYY` module of `@tgwf/co2/data/electricity-maps`. */
const ElectricityMapsYearSchema = z.object({
  data: z.record(
    z.string(),
    z.object({
      carbonIntensity: z.object({ value: z.number().finite().nonnegative(), unit: z.literal('gCO2eq/kWh') }),
    }),
  ),
});

interface ElectricityMaps {
  version: string;
  /** year → zone → gCO2eq/kWh */
  years: Map<number, Map<string, number>>;
}

async function loadElectricityMaps(): Promise<ElectricityMaps> {
  const packageDir = repoPath('node_modules/@tgwf/co2');
  const { version } = z.object({ version: z.string() }).parse(readJson(`${packageDir}/package.json`));
  assert(
    version === TGWF_CO2_VERSION,
    `@tgwf/co2 is ${version}, expected ${TGWF_CO2_VERSION}; check its data licence and update SOURCES.md`,
  );
  assert(
    readFileSync(`${packageDir}/LICENSE`, 'utf8').includes(EM_LICENCE_STATEMENT),
    '@tgwf/co2 LICENSE no longer states the Electricity Maps ODbL terms; re-check the licence',
  );
  // A non-literal specifier: the package ships no type declarations, the shape is checked with zod instead.
  const specifier: string = '@tgwf/co2/data/electricity-maps';
  const module = (await import(specifier)) as Record<string, unknown>;
  const years = new Map<number, Map<string, number>>();
  for (const key of Object.keys(module).sort(compareStrings)) {
    const match = /^yearly(\d{4})$/.exec(key);
    if (!match) continue;
    const { data } = ElectricityMapsYearSchema.parse(module[key]);
    years.set(
      Number(match[1]),
      new Map(Object.entries(data).map(([zone, entry]) => [zone, entry.carbonIntensity.value])),
    );
  }
  for (const year of [2021, 2022, 2023, 2024]) assert(years.has(year), `Electricity Maps data lacks ${year}`);
  return { version, years };
}

/** g/kWh → kg/kWh, exactly (379 → 0.379). */
const gramsToKilograms = (grams: number): number => toNumber(div(decimal(grams), decimal(1000)));

function buildFromElectricityMaps(refs: RegionRef[], em: ElectricityMaps): CloudRegionsTable {
  const years = [...em.years.keys()].sort((a, b) => a - b);
  const via = `(via @tgwf/co2 ${em.version})`;
  const fallbacks: string[] = [];
  // An added region whose zone lacks a year is unsupported, not filled from its country.
  const unsupported: UnsupportedRegion[] = [];
  const supported = refs.filter((ref) => {
    if (ref.zoneBy !== 'added') return true;
    const missing = years.filter((year) => !em.years.get(year)!.has(ref.zone));
    if (missing.length === 0) return true;
    unsupported.push({
      provider: ref.provider,
      region: ref.region,
      reason: `Electricity Maps (via @tgwf/co2 ${em.version}) has no ${missing.join(', ')} figure for its zone ${ref.zone}`,
    });
    return false;
  });
  const regions = supported.map((ref) => {
    const grid_factors: Record<string, number> = {};
    const grid_sources: Record<string, string> = {};
    for (const year of years) {
      const data = em.years.get(year)!;
      let zone = ref.zone;
      let note = '';
      if (!data.has(zone)) {
        zone = ref.location;
        note = ` (country zone: ${ref.zone} has no ${year} value)`;
        fallbacks.push(`${ref.provider}/${ref.region} ${year}: ${ref.zone} → ${zone}`);
      }
      const grams = data.get(zone);
      assert(
        grams !== undefined,
        `${ref.provider}/${ref.region}: no ${year} value for ${ref.zone} or ${zone}`,
      );
      grid_factors[String(year)] = gramsToKilograms(grams);
      grid_sources[String(year)] = `Electricity Maps yearly average ${year}, zone ${zone}${note} ${via}`;
    }
    return {
      provider: ref.provider,
      region: ref.region,
      hosted_spelling: ref.hostedSpelling,
      location: ref.location,
      grid_zone: ref.zone,
      grid_factors,
      grid_sources,
    };
  });
  if (fallbacks.length > 0)
    console.log(`  Electricity Maps country fallbacks:\n    ${fallbacks.join('\n    ')}`);
  const first = years[0]!;
  const last = years[years.length - 1]!;
  return CloudRegionsTable.parse({
    dataset: {
      id: 'electricitymaps-yearly',
      version: `${first}-${last}@tgwf-co2-${em.version}`,
      source: 'Electricity Maps',
      source_dataset: `Electricity Maps yearly averages ${first}-${last} (via @tgwf/co2 ${em.version})`,
      licence: 'ODbL-1.0',
      attribution:
        `Grid carbon intensity: Electricity Maps (https://www.electricitymaps.com), yearly lifecycle averages ` +
        `${first}-${last}, republished in CO2.js (@tgwf/co2 ${em.version}, The Green Web Foundation) under the Open ` +
        `Database License (ODbL) 1.0, https://opendatacommons.org/licenses/odbl/1-0/. This table is a derivative ` +
        `database under the same licence. Lifecycle emission factors per Electricity Maps methodology (IPCC 2014, ` +
        `AR5). Region-to-zone mapping from ${CCF_ATTRIBUTION}, with additions and corrections by co2e-engine (datasets/SOURCES.md).`,
    },
    default_year: 2022,
    unit: 'kg/kWh',
    gwp: 'ar5',
    regions: regions.sort(byProviderThen('region')),
    unsupported: unsupportedRegions(unsupported),
  });
}

/** The table as written, checked: every region has a factor and a source for 2021-2024; ids unique as looked up. */
export async function buildElectricityMapsRegions(
  refs: RegionRef[] = listRegions(readRegionsFile()),
): Promise<CloudRegionsTable> {
  const grid = buildFromElectricityMaps(refs, await loadElectricityMaps());
  const usEast1 = grid.regions.find((r) => r.provider === 'aws' && r.region === 'us-east-1');
  assert(usEast1?.grid_factors['2022'] !== undefined, 'AWS us-east-1 must have a 2022 grid factor');
  for (const region of grid.regions) {
    for (const year of ['2021', '2022', '2023', '2024']) {
      assert(region.grid_factors[year] !== undefined, `${region.provider}/${region.region} lacks ${year}`);
      assert(
        region.grid_sources[year] !== undefined,
        `${region.provider}/${region.region} lacks a ${year} source`,
      );
    }
  }
  assertUniqueRegions(grid);
  return grid;
}

/** Builds and writes the table to `outDir`; returns the path written. */
export async function writeElectricityMapsRegions(outDir: string = CLOUD_OUT_DIR): Promise<string> {
  const path = join(outDir, ELECTRICITY_MAPS_REGIONS_FILE);
  writeJson(path, await buildElectricityMapsRegions());
  return path;
}

if (isMain(import.meta.url)) await writeElectricityMapsRegions();
