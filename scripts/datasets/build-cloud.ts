/**
 * Builds the embedded cloud datasets in `datasets/cloud/` from `../shared/data` (see its MANIFEST.md §2) and the
 * Electricity Maps yearly averages bundled in `@tgwf/co2`. Deterministic: same inputs, same bytes.
 * Provenance, licences and caveats of every output are described in `datasets/SOURCES.md`. Each table has its own
 * builder in `scripts/datasets/cloud/` (runnable alone), sharing `scripts/datasets/cloud/lib.ts` and the region list
 * of `scripts/datasets/cloud/regions.ts`:
 *
 *   npx tsx scripts/datasets/build-cloud.ts
 *
 *   coefficients.json             build-coefficients.ts             CCF energy coefficients, GPU watts
 *   regions-electricitymaps.json  build-regions-electricitymaps.ts  Electricity Maps yearly averages (default grid)
 *   regions-ccf.json              build-regions-ccf.ts              CCF grid emission factors (alternative grid)
 *   instances.json                build-instances.ts                CCF ccf-coefficients instances, additions, GPUs
 *
 * The other tables of `datasets/cloud/` have their own scripts beside this one (`build-all.ts` runs them after it).
 */
import { join } from 'node:path';
import { COEFFICIENTS_FILE, buildCoefficients } from './cloud/build-coefficients';
import { INSTANCES_FILE, buildInstances } from './cloud/build-instances';
import { CCF_REGIONS_FILE, buildCcfRegions } from './cloud/build-regions-ccf';
import {
  ELECTRICITY_MAPS_REGIONS_FILE,
  buildElectricityMapsRegions,
} from './cloud/build-regions-electricitymaps';
import { CLOUD_OUT_DIR, countByProvider } from './cloud/lib';
import { listRegions, logZoneChoices, readRegionsFile } from './cloud/regions';
import { isMain, writeJson } from './lib';

export { ADDED_REGIONS, CORRECTED_ZONES, UNSUPPORTED_REGIONS } from './cloud/regions';

/** Builds every table, then writes them to `outDir` (default `datasets/cloud/`); returns the paths written. */
export async function buildCloud(options: { outDir?: string } = {}): Promise<string[]> {
  const outDir = options.outDir ?? CLOUD_OUT_DIR;
  console.log('cloud datasets');
  const regionsFile = readRegionsFile();
  const refs = listRegions(regionsFile);
  logZoneChoices(refs);

  const coefficients = buildCoefficients();
  const grid = await buildElectricityMapsRegions(refs);
  const ccfGrid = buildCcfRegions(regionsFile, refs);
  const instances = buildInstances();

  console.log(`  regions (Electricity Maps): ${countByProvider(grid.regions)}`);
  console.log(`  regions (CCF grid): ${countByProvider(ccfGrid.regions)}`);
  console.log(`  instances: ${countByProvider(instances.instances)}`);
  const written: string[] = [];
  for (const [file, table] of [
    [COEFFICIENTS_FILE, coefficients],
    [ELECTRICITY_MAPS_REGIONS_FILE, grid],
    [CCF_REGIONS_FILE, ccfGrid],
    [INSTANCES_FILE, instances],
  ] as const) {
    const path = join(outDir, file);
    writeJson(path, table);
    written.push(path);
  }
  return written;
}

if (isMain(import.meta.url)) await buildCloud();
