import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { calculateSpend, type SpendRequest } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import classificationsJson from '../../datasets/spend/exiobase-classifications.json';
import marginsJson from '../../datasets/spend/exiobase-margins.json';
import { SHARED_DATA, skipWithoutSharedData } from '../shared-data';

/**
 * US default margins from the BEA 2017 detail margins (docs/spend.md, "Default margins for the United States").
 * Three products are pinned to figures worked out apart from the build (a Python decimal computation from the source
 * rows when this was written), and recomputed here from the source rows with the rule written out again.
 */

const BEA = 'bea-us-margins-2017@bea-2017-detail-before-redef+useeior-1565a70';

// product: [trade margin, transport margin], rounded to 6 decimals.
const GOLDEN = {
  p17: [0.199218, 0.037941], // textiles: 8996.0906 / 45157.0400 and 1713.3024 / 45157.0400 (million USD 2017)
  'p24.d': [0.190137, 0.029393], // chemicals nec (pharmaceuticals): 112214.1947 / 590173.9366 and 17346.9658 / 590173.9366
  'p15.i': [0.176667, 0.020187], // food products nec: 54618.5756 / 309161.5424 and 6241.0870 / 309161.5424
} as const;

const table = marginsJson.margins as {
  region: string;
  product: string;
  trade_margin: number;
  transport_margin: number;
}[];

describe('the BEA margins table', () => {
  for (const [product, [trade, transport]] of Object.entries(GOLDEN))
    it(`US ${product}: trade ${trade}, transport ${transport}`, () => {
      const row = table.find((r) => r.region === 'US' && r.product === product);
      expect(row).toEqual({ region: 'US', product, trade_margin: trade, transport_margin: transport });
    });

  it.skipIf(skipWithoutSharedData)('recomputed from the source rows by the documented rule', () => {
    const rows = parse(
      gunzipSync(
        readFileSync(resolve(SHARED_DATA, 'bea/bea_margins_2017_detail_before_redef.csv.gz')),
      ).toString(),
      { columns: true },
    ) as Record<string, string>[];
    // Intermediate uses: industries, not final demand (codes starting with F).
    const totals = new Map<string, number[]>();
    for (const r of rows) {
      if (r.IndustryCode!.startsWith('F')) continue;
      const t = totals.get(r.CommodityCode!) ?? [0, 0, 0];
      t[0]! += Number(r.Wholesale) + Number(r.Retail);
      t[1]! += Number(r.Transportation);
      t[2]! += Number(r.PurchasersValue);
      totals.set(r.CommodityCode!, t);
    }
    const naics = classificationsJson.mappings.naics2017 as Record<string, string[]>;
    const us = classificationsJson.weights.US as Record<string, number>;
    for (const [product, [trade, transport]] of Object.entries(GOLDEN)) {
      let [m, t, p] = [0, 0, 0];
      for (const [code, [margin, freight, purchasers]] of totals) {
        // The NAICS code is the BEA code's leading digits, shortened until the shipped mapping has it.
        let digits = /^\d*/.exec(code)![0];
        while (digits.length >= 2 && !naics[digits]) digits = digits.slice(0, -1);
        const products = digits.length >= 2 ? naics[digits]! : [];
        if (!products.includes(product)) continue;
        const output = products.reduce((sum, q) => sum + (us[q] ?? 0), 0);
        const share = output > 0 ? (us[product] ?? 0) / output : 1 / products.length;
        m += margin! * share;
        t += freight! * share;
        p += purchasers! * share;
      }
      expect(m / p).toBeCloseTo(trade, 6);
      expect(t / p).toBeCloseTo(transport, 6);
    }
  });
});

describe('a US goods purchase without margins gets the BEA defaults', () => {
  const request = (code: string, extra: Partial<SpendRequest> = {}): SpendRequest => ({
    activity: { classification_type: 'isic4', classification_code: code },
    spend_year: 2019,
    spend_region: 'US',
    money: 1000,
    money_unit: 'usd',
    ...extra,
  });

  for (const [code, product, label] of [
    ['13', 'p17', 'textiles'],
    ['2100', 'p24.d', 'pharmaceuticals'],
    ['1079', 'p15.i', 'food'],
  ] as const)
    it(`ISIC ${code} (${label}) → ${product}: non-zero trade and transport margins from BEA; no tax default`, () => {
      const [trade, transport] = GOLDEN[product];
      const result = calculateSpend(request(code), defaultDatasets);
      const details = result.calculation_details;
      expect(details.products?.map((p) => p.product)).toEqual([product]);
      expect([details.tax_margin, details.trade_margin, details.transport_margin]).toEqual([
        0,
        trade,
        transport,
      ]);
      expect(details.margin_sources).toEqual({
        tax_margin: 'none',
        trade_margin: 'default',
        transport_margin: 'default',
      });
      expect(details.margin_datasets).toEqual([BEA]);
      // activity = 1000 USD × eur 2019 0.8933 × (1 − trade − transport), no inflation (2019 is the factor year).
      expect(result.estimate.activity_data.activity_value).toBeCloseTo(893.3 * (1 - trade - transport), 9);
      expect(result.notices).toHaveLength(1);
      expect(result.notices[0]?.code).toBe('default_margins_unavailable');
      expect(result.notices[0]?.message).toContain('no default tax_margin (its source has none)');
      expect(result.notices[0]?.message).not.toMatch(/trade_margin|transport_margin/);
    });

  it('a supplied margin still wins; the others keep their defaults', () => {
    const result = calculateSpend(request('13', { trade_margin: 0.3, tax_margin: 0.07 }), defaultDatasets);
    const details = result.calculation_details;
    expect([details.tax_margin, details.trade_margin, details.transport_margin]).toEqual([
      0.07, 0.3, 0.037941,
    ]);
    expect(details.margin_sources).toEqual({
      tax_margin: 'supplied',
      trade_margin: 'supplied',
      transport_margin: 'default',
    });
    expect(result.notices).toEqual([]);
  });

  it('other regions have no default margins, as before', () => {
    const result = calculateSpend(request('13', { spend_region: 'DE' }), defaultDatasets);
    expect(result.calculation_details.margin_sources).toEqual({
      tax_margin: 'none',
      trade_margin: 'none',
      transport_margin: 'none',
    });
  });
});
