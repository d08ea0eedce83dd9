/**
 * Builds `datasets/spend/exiobase-factors.oefdb.json`: EXIOBASE 3 spend factors of the released OEFDB table
 * (Climatiq OEFDB commit 677c3be, CC BY-SA 4.0, kept as its own file).
 *
 *   npx tsx scripts/datasets/spend/build-exiobase-factors.ts
 */
import { SpendFactorsTable } from '../../../src/datasets/tables';
import {
  OEFDB_TABLE_SETTINGS,
  loadExioProducts,
  readOefdbExiobaseFactors,
  type ExioProducts,
} from './exiobase-products';
import { OEFDB_ATTRIBUTION, Report, SPEND_OUT_DIR, isMain, sharedDataDir, writeTable } from './lib';

export const EXIOBASE_FACTORS_FILE = 'exiobase-factors.oefdb.json';

export function buildOefdbFactors(
  dataDir: string,
  products: ExioProducts,
  report: Report,
): SpendFactorsTable {
  const factors = readOefdbExiobaseFactors(
    dataDir,
    'oefdb/exiobase_spend_factors.csv',
    864,
    products,
    report,
  );
  return SpendFactorsTable.parse({
    dataset: {
      id: 'exiobase-3-oefdb',
      version: 'oefdb-677c3be',
      source: 'EXIOBASE',
      source_dataset: 'EXIOBASE 3 via Climatiq OEFDB (commit 677c3be)',
      licence: 'CC-BY-SA-4.0',
      attribution: OEFDB_ATTRIBUTION,
    },
    ...OEFDB_TABLE_SETTINGS,
    factors,
  } satisfies SpendFactorsTable);
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const table = buildOefdbFactors(dataDir, loadExioProducts(dataDir), report);
  writeTable(SPEND_OUT_DIR, EXIOBASE_FACTORS_FILE, table, report);
}
