/**
 * Builds `datasets/spend/exiobase-margins.json`: the default margins table.
 *
 *   npx tsx scripts/datasets/spend/build-margins.ts
 */
import { MarginsTableSchema, type MarginsTable } from '../../../src/datasets/tables';
import { Report, SPEND_OUT_DIR, isMain, writeTable } from './lib';

export const MARGINS_FILE = 'exiobase-margins.json';

export function buildMargins(report: Report): MarginsTable {
  report.info('  margins: 0 (no open default margins / valuation layer available)');
  return MarginsTableSchema.parse({
    dataset: {
      id: 'exiobase-3-margins',
      version: 'none-available',
      source: 'none',
      source_dataset:
        'No default margins: no open EXIOBASE margins/valuation layer (or other licensed default margin table) was available',
      licence: 'MIT',
      attribution:
        'No third-party data. Missing margins fall back to 0 (purchaser price treated as basic price) with a notice.',
    },
    margins: [],
  } satisfies MarginsTable);
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, MARGINS_FILE, buildMargins(report), report);
}
