/**
 * Builds `datasets/spend/exiobase-factors.oefdb-regions.json`: the factors of OEFDB's 20-region working file that
 * the released table lacks (CC BY-SA 4.0, kept as its own file).
 *
 *   npx tsx scripts/datasets/spend/build-exiobase-factors-regions.ts
 */
import { SpendFactorsTable } from '../../../src/datasets/tables';
import { buildOefdbFactors } from './build-exiobase-factors';
import {
  OEFDB_TABLE_SETTINGS,
  loadExioProducts,
  readOefdbExiobaseFactors,
  type ExioProducts,
} from './exiobase-products';
import {
  OEFDB_REGIONS_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  assert,
  byCodePoint,
  isMain,
  sharedDataDir,
  stableStringify,
  writeTable,
} from './lib';

export const EXIOBASE_FACTORS_REGIONS_FILE = 'exiobase-factors.oefdb-regions.json';

/**
 * The factors of OEFDB's 20-region working file (`257_2.csv`, blob 0df28c4) that the released table lacks. The
 * build fails unless every (product, region) both files hold has the identical row (same release and vintage), so
 * the supplement only adds regions and products, never changes a released value.
 */
export function buildOefdbRegionsSupplement(
  dataDir: string,
  products: ExioProducts,
  released: SpendFactorsTable,
  report: Report,
): SpendFactorsTable {
  const all = readOefdbExiobaseFactors(
    dataDir,
    'oefdb/exiobase_spend_factors_20_regions_partial.csv',
    734,
    products,
    report,
  );
  const releasedByKey = new Map(released.factors.map((f) => [`${f.product}|${f.region}`, f]));
  let overlaps = 0;
  const added = all.filter((factor) => {
    const twin = releasedByKey.get(`${factor.product}|${factor.region}`);
    if (twin === undefined) return true;
    assert(
      stableStringify(twin) === stableStringify(factor),
      `working-file row differs from the released row for ${factor.product} ${factor.region}: ${stableStringify(factor)} vs ${stableStringify(twin)}`,
    );
    overlaps++;
    return false;
  });
  const regions = [...new Set(added.map((f) => f.region))].sort(byCodePoint);
  report.info(
    `  supplement: ${overlaps} rows identical to the released table (dropped), ${added.length} added in ${regions.length} regions (${regions.join(' ')})`,
  );
  return SpendFactorsTable.parse({
    dataset: {
      id: 'exiobase-3-oefdb-regions',
      version: 'oefdb-0df28c4',
      source: 'EXIOBASE',
      source_dataset: 'EXIOBASE 3 via Climatiq OEFDB working file 257_2.csv (blob 0df28c4, commit 22eb64a)',
      licence: 'CC-BY-SA-4.0',
      attribution: OEFDB_REGIONS_ATTRIBUTION,
    },
    ...OEFDB_TABLE_SETTINGS,
    factors: added,
  } satisfies SpendFactorsTable);
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const products = loadExioProducts(dataDir);
  const released = buildOefdbFactors(dataDir, products, new Report(true));
  const table = buildOefdbRegionsSupplement(dataDir, products, released, report);
  writeTable(SPEND_OUT_DIR, EXIOBASE_FACTORS_REGIONS_FILE, table, report);
}
