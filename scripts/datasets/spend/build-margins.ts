/**
 * Builds `datasets/spend/exiobase-margins.json`: default trade and transport margins for the United States per
 * EXIOBASE product, from the BEA's 2017 detail margins (public domain). No tax margin: BEA has no tax column.
 *
 *   npx tsx scripts/datasets/spend/build-margins.ts
 *
 * The rule (docs/spend.md, "Default margins for the United States"):
 * 1. Intermediate uses only: rows whose IndustryCode does not start with `F` (F codes are final uses).
 * 2. Per BEA commodity, sum Transportation, Wholesale, Retail and PurchasersValue over those rows.
 * 3. A commodity reaches EXIOBASE products through its NAICS code: the leading digits of the BEA code (`311111`,
 *    `1111A0` → `1111`), shortened until the shipped NAICS 2017 → EXIOBASE mapping has them (`230301` → `23`).
 *    Codes without leading digits (government `S00101`, `GSLGE`, used goods `S00401`, `V00100`...) are left out.
 * 4. A commodity that reaches several products is split among them in proportion to their 2019 US output (the
 *    classifications table's weights), equally when they all have none.
 * 5. Per product: trade margin = Σ (Wholesale + Retail) / Σ PurchasersValue and transport margin = Σ Transportation /
 *    Σ PurchasersValue over its commodity parts, rounded to 6 decimals. Products whose parts have no positive
 *    purchasers' value are left out.
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { MarginsTable, type ClassificationsTable } from '../../../src/datasets/tables';
import {
  type Decimal,
  ZERO,
  ONE,
  add,
  decimal,
  div,
  isPositive,
  isZero,
  mul,
} from '../../../src/core/decimal';
import { buildExiobaseClassifications } from './build-exiobase-classifications';
import { loadExioProducts } from './exiobase-products';
import {
  Report,
  SPEND_OUT_DIR,
  assert,
  byCodePoint,
  isMain,
  num,
  roundedNumber,
  sharedDataDir,
  writeTable,
  type Row,
} from './lib';

export const MARGINS_FILE = 'exiobase-margins.json';
export const BEA_MARGINS_SOURCE = 'bea/bea_margins_2017_detail_before_redef.csv.gz';
export const BEA_ATTRIBUTION =
  'U.S. Bureau of Economic Analysis, Margins Before Redefinitions 2017 (detail), via US EPA useeior (public domain).';

/** Intermediate-use totals of one BEA commodity, million USD 2017. */
export interface CommodityTotals {
  code: string;
  transportation: Decimal;
  wholesale: Decimal;
  retail: Decimal;
  purchasers: Decimal;
}

/** The BEA rows, summed per commodity over intermediate uses (industry codes not starting with `F`). */
export function readBeaCommodities(dataDir: string): Map<string, CommodityTotals> {
  const text = gunzipSync(readFileSync(join(dataDir, BEA_MARGINS_SOURCE))).toString('utf8');
  const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  assert(rows.length === 58051, `58051 BEA margin rows, got ${rows.length}`);
  const out = new Map<string, CommodityTotals>();
  for (const r of rows) {
    if (r.IndustryCode!.startsWith('F')) continue;
    const code = r.CommodityCode!;
    const entry = out.get(code) ?? {
      code,
      transportation: ZERO,
      wholesale: ZERO,
      retail: ZERO,
      purchasers: ZERO,
    };
    for (const [field, column] of [
      ['transportation', 'Transportation'],
      ['wholesale', 'Wholesale'],
      ['retail', 'Retail'],
      ['purchasers', 'PurchasersValue'],
    ] as const) {
      const value = r[column]!;
      num(value, `BEA ${code} ${column}`); // a plain decimal
      entry[field] = add(entry[field], decimal(value));
    }
    out.set(code, entry);
  }
  return out;
}

/** The NAICS prefix through which a BEA commodity code reaches EXIOBASE products, or undefined. */
export function beaNaicsPrefix(
  code: string,
  naics: Readonly<Record<string, readonly string[]>>,
): string | undefined {
  let digits = /^\d+/.exec(code)?.[0] ?? '';
  while (digits.length >= 2) {
    if (naics[digits] !== undefined) return digits;
    digits = digits.slice(0, -1);
  }
  return undefined;
}

export function buildMargins(
  dataDir: string,
  classifications: ClassificationsTable,
  report: Report,
): MarginsTable {
  const naics = classifications.mappings.naics2017;
  assert(naics, 'naics2017 mappings in the classifications table');
  const usOutput = classifications.weights.US ?? {};
  const commodities = readBeaCommodities(dataDir);

  const parts = new Map<string, { trade: Decimal; transport: Decimal; purchasers: Decimal }>();
  const unmapped: string[] = [];
  for (const c of [...commodities.values()].sort((a, b) => byCodePoint(a.code, b.code))) {
    const prefix = beaNaicsPrefix(c.code, naics);
    if (prefix === undefined) {
      unmapped.push(c.code);
      continue;
    }
    const products = naics[prefix]!;
    const weights = products.map((p) => decimal(usOutput[p] ?? 0));
    const total = weights.reduce(add, ZERO);
    products.forEach((product, index) => {
      const share = isPositive(total) ? div(weights[index]!, total) : div(ONE, decimal(products.length));
      if (isZero(share)) return;
      const entry = parts.get(product) ?? { trade: ZERO, transport: ZERO, purchasers: ZERO };
      entry.trade = add(entry.trade, mul(add(c.wholesale, c.retail), share));
      entry.transport = add(entry.transport, mul(c.transportation, share));
      entry.purchasers = add(entry.purchasers, mul(c.purchasers, share));
      parts.set(product, entry);
    });
  }

  const index = new Map(Object.keys(classifications.products).map((code, i) => [code, i]));
  const margins: MarginsTable['margins'] = [];
  for (const [product, { trade, transport, purchasers }] of [...parts].sort(
    ([a], [b]) => index.get(a)! - index.get(b)!,
  )) {
    if (!isPositive(purchasers)) continue;
    const tradeMargin = roundedNumber(div(trade, purchasers), 6);
    const transportMargin = roundedNumber(div(transport, purchasers), 6);
    assert(tradeMargin >= 0 && transportMargin >= 0, `negative BEA margin for ${product}`);
    assert(tradeMargin + transportMargin < 1, `BEA margins of ${product} leave no basic price`);
    margins.push({ region: 'US', product, trade_margin: tradeMargin, transport_margin: transportMargin });
  }
  report.info(
    `  margins: US, ${margins.length} EXIOBASE products from ${commodities.size - unmapped.length} BEA commodities ` +
      `(intermediate uses); no NAICS code, left out: ${unmapped.join(' ')}`,
  );

  return MarginsTable.parse({
    dataset: {
      id: 'bea-us-margins-2017',
      version: 'bea-2017-detail-before-redef+useeior-1565a70',
      source: 'U.S. Bureau of Economic Analysis (BEA)',
      source_dataset:
        'BEA Margins Before Redefinitions 2017, Detail (intermediate uses), mapped to EXIOBASE 3 products through NAICS 2017',
      licence: 'Public domain (US Government work)',
      attribution: BEA_ATTRIBUTION,
    },
    margins,
  } satisfies MarginsTable);
}

if (isMain(import.meta.url)) {
  const dataDir = sharedDataDir();
  const report = new Report();
  const classifications = buildExiobaseClassifications(dataDir, loadExioProducts(dataDir), new Report(true));
  writeTable(SPEND_OUT_DIR, MARGINS_FILE, buildMargins(dataDir, classifications, report), report);
}
