/**
 * Builds `datasets/spend/useeio-factors.json`: US EPA Supply Chain GHG Emission Factors v1.3 (NAICS-6, 2022 USD,
 * purchaser price; public domain).
 *
 *   npx tsx scripts/datasets/spend/build-useeio-factors.ts
 */
import { SpendFactorsTable } from '../../../src/datasets/tables';
import {
  EPA_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  assert,
  byCodePoint,
  col,
  isMain,
  num,
  readTable,
  sharedDataDir,
  writeTable,
} from './lib';

export const USEEIO_FACTORS_FILE = 'useeio-factors.json';

export function buildUseeioFactors(dataDir: string, report: Report): SpendFactorsTable {
  const rows = readTable(dataDir, 'useeio/SupplyChainGHGEmissionFactors_v1.3.0_NAICS_CO2e_USD2022.csv');
  type Factor = SpendFactorsTable['factors'][number];
  const factors: Factor[] = [];
  const titles = new Map<string, string>();
  for (const r of rows) {
    const code = col(r, '2017 NAICS Code');
    assert(/^\d{6}$/.test(code), `USEEIO NAICS code ${code}`);
    assert(!titles.has(code), `duplicate USEEIO NAICS ${code}`);
    assert(col(r, 'GHG') === 'All GHGs', 'USEEIO GHG All GHGs');
    assert(col(r, 'Unit') === 'kg CO2e/2022 USD, purchaser price', `USEEIO unit ${col(r, 'Unit')}`);
    const title = col(r, '2017 NAICS Title').trim();
    titles.set(code, title);
    factors.push({
      product: code,
      region: 'US',
      kgco2e: num(col(r, 'Supply Chain Emission Factors with Margins'), `USEEIO ${code}`),
      name: title,
      activity_id: `useeio-naics_${code}`,
      data_quality_flags: [],
    });
  }
  factors.sort((a, b) => byCodePoint(a.product, b.product));
  const f445110 = factors.find((f) => f.product === '445110');
  assert(f445110?.kgco2e === 0.186, `USEEIO 445110 = 0.186, got ${f445110?.kgco2e}`);

  report.info(`  useeio: ${factors.length} factors (US, usd 2022, purchaser)`);
  return SpendFactorsTable.parse({
    dataset: {
      id: 'epa-useeio-supply-chain',
      version: 'v1.3.0-NAICS-USD2022',
      source: 'U.S. Environmental Protection Agency',
      source_dataset:
        'Supply Chain Greenhouse Gas Emission Factors v1.3 by NAICS-6 (USEEIO v2.2, GHG year 2022, 2022 USD purchaser price, with margins)',
      licence: 'Public domain (US Government work)',
      attribution: EPA_ATTRIBUTION,
    },
    currency: 'usd',
    factor_year: 2022,
    price_basis: 'purchaser',
    gwp: 'ar5',
    product_classification: 'naics2017',
    factors,
  } satisfies SpendFactorsTable);
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, USEEIO_FACTORS_FILE, buildUseeioFactors(sharedDataDir(), report), report);
}
