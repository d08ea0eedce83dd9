/**
 * Builds every embedded SPEND dataset in `datasets/spend/` from the source files in `../shared/data` (see its
 * MANIFEST.md; override the folder with env `CO2E_SHARED_DATA`). Each table has its own builder in
 * `scripts/datasets/spend/` (runnable alone), sharing `scripts/datasets/spend/lib.ts`:
 *
 *   npx tsx scripts/datasets/build-spend.ts
 *
 *   exiobase-factors.oefdb.json          build-exiobase-factors.ts          EXIOBASE 3 via Climatiq OEFDB (CC BY-SA 4.0)
 *   exiobase-factors.oefdb-regions.json  build-exiobase-factors-regions.ts  15 more regions, OEFDB working file
 *   exiobase-classifications.json        build-exiobase-classifications.ts  ISIC4 / NACE2 / NAICS2017 → EXIOBASE + x weights
 *   exiobase-margins.json                build-margins.ts                   default margins
 *   inflation-worldbank.json             build-inflation.ts                 World Bank CPI inflation, annual %
 *   fx-imf.json                          build-fx.ts                        annual average rates (units per USD)
 *   useeio-factors.json                  build-useeio-factors.ts            US EPA supply-chain factors v1.3
 *   useeio-classifications.json          build-useeio-classifications.ts    NAICS2017 / ISIC4 → NAICS-6 products
 *   ceda-factors.json                    build-ceda.ts                      Open CEDA 2024 grid (CC BY-SA 4.0)
 *   ceda-classifications.json            build-ceda.ts                      NAICS2017 / ISIC4 / NACE2 → CEDA sectors
 *   ceda-margins.json                    build-ceda.ts                      BEA US margins per CEDA sector
 *   mcc-isic4.json                       build-mcc.ts                       merchant category codes → ISIC4 (both
 *                                                                           classifications tables get type `mcc`)
 *
 * Every table is validated with its schema from `src/datasets/tables.ts` before it is written. Deterministic: keys
 * are sorted, arrays are sorted by explicit rules, no timestamps, so two runs give byte-identical files. Problems
 * found in the sources are printed; figures are never invented.
 */
import { join } from 'node:path';
import {
  buildExiobaseClassifications,
  EXIOBASE_CLASSIFICATIONS_FILE,
} from './spend/build-exiobase-classifications';
import { buildOefdbFactors, EXIOBASE_FACTORS_FILE } from './spend/build-exiobase-factors';
import {
  buildOefdbRegionsSupplement,
  EXIOBASE_FACTORS_REGIONS_FILE,
} from './spend/build-exiobase-factors-regions';
import {
  buildCedaClassifications,
  buildCedaFactors,
  buildCedaMargins,
  CEDA_CLASSIFICATIONS_FILE,
  CEDA_FACTORS_FILE,
  CEDA_MARGINS_FILE,
  gridJson,
} from './spend/build-ceda';
import { buildFx, FX_FILE } from './spend/build-fx';
import { buildMccConcordance, MCC_FILE, withMcc } from './spend/build-mcc';
import { buildInflation, INFLATION_FILE } from './spend/build-inflation';
import { buildMargins, MARGINS_FILE } from './spend/build-margins';
import {
  buildUseeioClassifications,
  USEEIO_CLASSIFICATIONS_FILE,
} from './spend/build-useeio-classifications';
import { buildUseeioFactors, USEEIO_FACTORS_FILE } from './spend/build-useeio-factors';
import { loadExioProducts } from './spend/exiobase-products';
import {
  REPO_ROOT,
  Report,
  assert,
  assertNoNegative,
  isMain,
  sharedDataDir,
  writeTable,
  writeText,
} from './spend/lib';

export { stableStringify } from './spend/lib';

export interface BuildSpendResult {
  files: { path: string; bytes: number }[];
  report: string[];
}

export function buildSpend(options: { dataDir?: string; outDir?: string } = {}): BuildSpendResult {
  const dataDir = options.dataDir ?? sharedDataDir();
  const outDir = options.outDir ?? join(REPO_ROOT, 'datasets', 'spend');
  const report = new Report();
  report.info(`build-spend: reading ${dataDir}`);

  const products = loadExioProducts(dataDir);
  report.info(EXIOBASE_FACTORS_FILE);
  const exioFactors = buildOefdbFactors(dataDir, products, report);
  report.info(EXIOBASE_FACTORS_REGIONS_FILE);
  const exioRegions = buildOefdbRegionsSupplement(dataDir, products, exioFactors, report);
  report.info(EXIOBASE_CLASSIFICATIONS_FILE);
  const exioClassIsic = buildExiobaseClassifications(dataDir, products, report);
  report.info(MCC_FILE);
  const mcc = buildMccConcordance(dataDir, report);
  const exioClass = withMcc(exioClassIsic, mcc, 'exiobase');
  report.info(MARGINS_FILE);
  const margins = buildMargins(dataDir, exioClass, report);
  report.info(INFLATION_FILE);
  const inflation = buildInflation(dataDir, report);
  report.info(FX_FILE);
  const fx = buildFx(dataDir, report);
  report.info(`${USEEIO_FACTORS_FILE}, ${USEEIO_CLASSIFICATIONS_FILE}`);
  const useeioFactors = buildUseeioFactors(dataDir, report);
  const useeioClassifications = buildUseeioClassifications(dataDir, useeioFactors, report);
  report.info(`${CEDA_FACTORS_FILE}, ${CEDA_CLASSIFICATIONS_FILE}, ${CEDA_MARGINS_FILE}`);
  const cedaGrid = buildCedaFactors(dataDir, report);
  const cedaClassifications = withMcc(buildCedaClassifications(dataDir, cedaGrid, report), mcc, 'ceda');
  const cedaMargins = buildCedaMargins(dataDir, cedaGrid, report);

  // Spot checks across tables.
  const p52 = exioFactors.factors.find((f) => f.product === 'p52' && f.region === 'DE');
  assert(p52?.kgco2e === 0.0272, `DE p52 (retail trade) = 0.0272 AR5, got ${p52?.kgco2e}`);
  const deProducts = new Set(exioFactors.factors.filter((f) => f.region === 'DE').map((f) => f.product));
  const isic4711 = exioClass.mappings.isic4?.['4711'] ?? [];
  assert(
    isic4711.some((p) => deProducts.has(p)),
    `ISIC 4711 (${isic4711.join(' ')}) maps to a product with a DE factor`,
  );
  report.info(
    `spot checks passed: DE p52 = 0.0272; ISIC 4711 -> ${isic4711.join(' ')}; USEEIO 445110 = 0.186`,
  );

  const outputs: [string, unknown][] = [
    [EXIOBASE_FACTORS_FILE, exioFactors],
    [EXIOBASE_FACTORS_REGIONS_FILE, exioRegions],
    [EXIOBASE_CLASSIFICATIONS_FILE, exioClass],
    [MARGINS_FILE, margins],
    [INFLATION_FILE, inflation],
    [FX_FILE, fx],
    [USEEIO_FACTORS_FILE, useeioFactors],
    [USEEIO_CLASSIFICATIONS_FILE, useeioClassifications],
    [CEDA_CLASSIFICATIONS_FILE, cedaClassifications],
    [CEDA_MARGINS_FILE, cedaMargins],
    [MCC_FILE, mcc],
  ];
  // Inflation is exempt: deflation years are negative by nature.
  for (const [name, table] of outputs) if (name !== INFLATION_FILE) assertNoNegative(table, name);
  for (const t of [exioFactors, exioRegions, useeioFactors]) {
    const keys = new Set(t.factors.map((f) => `${f.product}|${f.region}`));
    assert(keys.size === t.factors.length, `unique (product, region) in ${t.dataset.id}`);
  }

  assertNoNegative(cedaGrid.regions, CEDA_FACTORS_FILE);
  const files = outputs.map(([name, table]) => writeTable(outDir, name, table, report));
  // The CEDA grid keeps each region's factors on one line.
  files.push(writeText(outDir, CEDA_FACTORS_FILE, gridJson(cedaGrid), report));
  return { files, report: report.lines };
}

if (isMain(import.meta.url)) buildSpend();
