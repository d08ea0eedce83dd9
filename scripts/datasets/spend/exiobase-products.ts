/**
 * The 200 EXIOBASE 3 products and the OEFDB (Climatiq) rows read as EXIOBASE factors: shared by the two OEFDB
 * factor builders and the classifications builder.
 */
import type { SpendFactorsTable } from '../../../src/datasets/tables';
import { assert, byCodePoint, col, num, readTable, type Report } from './lib';

export interface ExioProduct {
  index: number;
  code: string;
  name: string;
}

export function loadExioProducts(dataDir: string) {
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
export type ExioProducts = ReturnType<typeof loadExioProducts>;

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

export type Factor = SpendFactorsTable['factors'][number];

/**
 * The EXIOBASE rows of an OEFDB file as factors, one per (product, region), in EXIOBASE product order. Rows of other
 * sources (EPA, BEIS, GHG Protocol in the working file) are skipped: only `source == EXIOBASE` is read.
 */
export function readOefdbExiobaseFactors(
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

export const OEFDB_TABLE_SETTINGS = {
  currency: 'eur',
  factor_year: 2019,
  price_basis: 'basic',
  gwp: 'ar5',
  product_classification: 'exiobase3p',
} as const;
