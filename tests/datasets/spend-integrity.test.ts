import { describe, expect, it } from 'vitest';
import { createTableDatasets } from '../../src/index';
import {
  ClassificationsTable,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
} from '../../src/schemas';
import classificationsJson from '../../datasets/spend/exiobase-classifications.json';
import factorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import regionsFactorsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';
import marginsJson from '../../datasets/spend/exiobase-margins.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import useeioClassificationsJson from '../../datasets/spend/useeio-classifications.json';
import useeioFactorsJson from '../../datasets/spend/useeio-factors.json';

/**
 * The embedded spend tables, read from the JSON files as shipped: each parses with its schema, and the tables agree
 * with each other (every product a code maps to exists, factors and rates are sane, the expected coverage is there).
 */

const spendTables = [
  ['exiobase-factors.oefdb.json', SpendFactorsTable, factorsJson],
  ['exiobase-factors.oefdb-regions.json', SpendFactorsTable, regionsFactorsJson],
  ['useeio-factors.json', SpendFactorsTable, useeioFactorsJson],
  ['exiobase-classifications.json', ClassificationsTable, classificationsJson],
  ['useeio-classifications.json', ClassificationsTable, useeioClassificationsJson],
  ['exiobase-margins.json', MarginsTable, marginsJson],
  ['inflation-worldbank.json', InflationTable, inflationJson],
  ['fx-imf.json', FxTable, fxJson],
] as const;

const exiobase = SpendFactorsTable.parse(factorsJson);
const exiobaseRegions = SpendFactorsTable.parse(regionsFactorsJson);
const useeio = SpendFactorsTable.parse(useeioFactorsJson);
const exiobaseClassifications = ClassificationsTable.parse(classificationsJson);
const useeioClassifications = ClassificationsTable.parse(useeioClassificationsJson);
const margins = MarginsTable.parse(marginsJson);
const inflation = InflationTable.parse(inflationJson);
const fx = FxTable.parse(fxJson);

const FACTOR_REGIONS = ['BR', 'DE', 'GB', 'NO', 'US'];

describe('every spend table parses with its schema', () => {
  for (const [file, schema, table] of spendTables) {
    it(file, () => {
      const result = schema.safeParse(table);
      expect(result.success ? [] : result.error.issues.slice(0, 3)).toEqual([]);
    });
  }

  it('the tables build providers through createTableDatasets (validation and unique keys)', () => {
    expect(() =>
      createTableDatasets({
        spendFactors: exiobase,
        classifications: exiobaseClassifications,
        margins,
        inflation,
        fx,
      }),
    ).not.toThrow();
    expect(() => createTableDatasets({ spendFactors: exiobaseRegions })).not.toThrow();
    expect(() =>
      createTableDatasets({ spendFactors: useeio, classifications: useeioClassifications }),
    ).not.toThrow();
  });
});

describe('spend factors', () => {
  for (const [name, table, classifications] of [
    ['EXIOBASE', exiobase, exiobaseClassifications],
    ['EXIOBASE working file', exiobaseRegions, exiobaseClassifications],
    ['USEEIO', useeio, useeioClassifications],
  ] as const) {
    it(`${name}: no negative or non-finite factor`, () => {
      const bad = table.factors.filter((row) => !(Number.isFinite(row.kgco2e) && row.kgco2e >= 0));
      expect(bad).toEqual([]);
    });

    it(`${name}: (product, region) is unique`, () => {
      const keys = table.factors.map((row) => `${row.product} ${row.region}`);
      const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
      expect(duplicates).toEqual([]);
    });

    it(`${name}: every product in the factor table exists in the classification products`, () => {
      const unknown = [...new Set(table.factors.map((row) => row.product))].filter(
        (product) => !(product in classifications.products),
      );
      expect(unknown).toEqual([]);
    });

    it(`${name}: an activity_id names one product only`, () => {
      const products = new Map<string, Set<string>>();
      for (const row of table.factors)
        products.set(row.activity_id, (products.get(row.activity_id) ?? new Set()).add(row.product));
      expect([...products].filter(([, set]) => set.size > 1).map(([id]) => id)).toEqual([]);
    });

    it(`${name}: the table and the classifications name the same product classification`, () => {
      expect(table.product_classification).toBe(classifications.product_classification);
    });
  }

  it('EXIOBASE: 2019 EUR at basic price, AR5, factors for exactly BR, DE, GB, NO, US', () => {
    expect(exiobase).toMatchObject({ currency: 'eur', factor_year: 2019, price_basis: 'basic', gwp: 'ar5' });
    expect([...new Set(exiobase.factors.map((row) => row.region))].sort()).toEqual(FACTOR_REGIONS);
    // Each region has factors for most of the 200 EXIOBASE products.
    for (const region of FACTOR_REGIONS)
      expect(exiobase.factors.filter((row) => row.region === region).length).toBeGreaterThanOrEqual(150);
  });

  it('EXIOBASE working file: the released settings, 15 new regions, and only (product, region) pairs the released table lacks', () => {
    const { factors, dataset, ...settings } = exiobaseRegions;
    const { factors: released, dataset: releasedDataset, ...releasedSettings } = exiobase;
    expect(settings).toEqual(releasedSettings);
    expect(dataset.licence).toBe('CC-BY-SA-4.0');
    expect(dataset.id).not.toBe(releasedDataset.id);
    expect([...new Set(factors.map((row) => row.region))].sort()).toEqual(
      // Its rows for BR, DE, GB, NO and US all equal released rows, so it adds 15 regions (MANIFEST.md).
      'AT AU BE BG CA CH CN CY CZ DK EE ES FI FR GR'.split(' '),
    );
    const releasedKeys = new Set(released.map((row) => `${row.product} ${row.region}`));
    expect(factors.filter((row) => releasedKeys.has(`${row.product} ${row.region}`))).toEqual([]);
    // 734 EXIOBASE rows in the working file, 183 of them identical to released rows (MANIFEST.md).
    expect(factors).toHaveLength(734 - 183);
  });

  it('EXIOBASE: an activity_id names one product across both files', () => {
    const products = new Map<string, Set<string>>();
    for (const row of [...exiobase.factors, ...exiobaseRegions.factors])
      products.set(row.activity_id, (products.get(row.activity_id) ?? new Set()).add(row.product));
    expect([...products].filter(([, set]) => set.size > 1).map(([id]) => id)).toEqual([]);
  });

  it('USEEIO: 2022 USD at purchaser price, US only, ≥ 1000 NAICS products', () => {
    expect(useeio).toMatchObject({ currency: 'usd', factor_year: 2022, price_basis: 'purchaser' });
    expect([...new Set(useeio.factors.map((row) => row.region))]).toEqual(['US']);
    expect(useeio.factors.length).toBeGreaterThanOrEqual(1000);
  });
});

describe('classifications', () => {
  for (const [name, table] of [
    ['EXIOBASE', exiobaseClassifications],
    ['USEEIO', useeioClassifications],
  ] as const) {
    it(`${name}: every mapping of every type names only known products`, () => {
      const unknown: string[] = [];
      for (const [type, codes] of Object.entries(table.mappings)) {
        for (const [code, products] of Object.entries(codes)) {
          for (const product of products)
            if (!(product in table.products)) unknown.push(`${type} ${code} → ${product}`);
        }
      }
      expect(unknown).toEqual([]);
    });

    it(`${name}: every ISIC class (4-digit code) maps to products that exist`, () => {
      const isic = table.mappings.isic4 ?? {};
      const classes = Object.entries(isic).filter(([code]) => /^\d{4}$/.test(code));
      expect(classes.length).toBeGreaterThan(300);
      const unknown = classes.flatMap(([code, products]) =>
        products.filter((product) => !(product in table.products)).map((product) => `${code} → ${product}`),
      );
      expect(unknown).toEqual([]);
    });

    it(`${name}: no negative or non-finite weight`, () => {
      const bad = Object.entries(table.weights).flatMap(([region, byProduct]) =>
        Object.entries(byProduct)
          .filter(([, weight]) => !(Number.isFinite(weight) && weight >= 0))
          .map(([product]) => `${region} ${product}`),
      );
      expect(bad).toEqual([]);
    });
  }

  it('EXIOBASE: isic4, nace2 and naics2017 mappings; ISIC at every level (section, division, group, class)', () => {
    expect(Object.keys(exiobaseClassifications.mappings).sort()).toEqual(['isic4', 'nace2', 'naics2017']);
    const isic = Object.keys(exiobaseClassifications.mappings.isic4 ?? {});
    expect(isic.filter((code) => /^[A-U]$/.test(code)).length).toBe(21);
    expect(isic.filter((code) => /^\d{2}$/.test(code)).length).toBeGreaterThanOrEqual(80);
    expect(isic.filter((code) => /^\d{3}$/.test(code)).length).toBeGreaterThanOrEqual(200);
    expect(isic.filter((code) => /^\d{4}$/.test(code)).length).toBeGreaterThanOrEqual(400);
    // NACE codes are dotted below the division: 47.1, 47.11.
    const nace = Object.keys(exiobaseClassifications.mappings.nace2 ?? {});
    expect(nace).toContain('47.11');
    expect(nace.filter((code) => /^\d{4}$/.test(code))).toEqual([]);
  });

  it('EXIOBASE: every factor region has an output weight for every product it has a factor for', () => {
    const missing = exiobase.factors
      .filter((row) => exiobaseClassifications.weights[row.region]?.[row.product] === undefined)
      .map((row) => `${row.region} ${row.product}`);
    expect(missing).toEqual([]);
  });
});

describe('margins', () => {
  it('no negative trade or transport margin, and each row leaves a positive basic price', () => {
    const bad = margins.margins.filter(
      (row) =>
        row.trade_margin < 0 ||
        row.transport_margin < 0 ||
        (row.tax_margin ?? 0) + row.trade_margin + row.transport_margin >= 1,
    );
    expect(bad).toEqual([]);
  });

  it('the embedded margins are BEA trade and transport margins for the US only, without a tax margin', () => {
    expect(margins.dataset.id).toBe('bea-us-margins-2017');
    expect(new Set(margins.margins.map((row) => row.region))).toEqual(new Set(['US']));
    expect(margins.margins.length).toBe(172);
    expect(margins.margins.filter((row) => row.tax_margin !== undefined)).toEqual([]);
  });
});

describe('inflation', () => {
  it('has DE, GB, US, NO and BR for every year 1990..2024', () => {
    const missing: string[] = [];
    for (const region of FACTOR_REGIONS) {
      for (let year = 1990; year <= 2024; year++) {
        if (inflation.country[region]?.[String(year)] === undefined) missing.push(`${region} ${year}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every rate is finite and above −100 %', () => {
    const bad = Object.entries(inflation.country).flatMap(([region, rates]) =>
      Object.entries(rates)
        .filter(([, rate]) => !(Number.isFinite(rate) && rate > -100))
        .map(([year]) => `${region} ${year}`),
    );
    expect(bad).toEqual([]);
  });

  it('covers at least 180 countries', () => {
    expect(Object.keys(inflation.country).length).toBeGreaterThanOrEqual(180);
  });
});

describe('exchange rates', () => {
  const years = [...new Set(Object.values(fx.rates).flatMap((rates) => Object.keys(rates)))].sort();

  it('usd is 1 in every year any currency has a rate', () => {
    expect(years[0]).toBe('1990');
    expect(years.filter((year) => fx.rates.usd?.[year] !== 1)).toEqual([]);
  });

  it('has eur for 2019 (the EXIOBASE factor year) and usd for 2022 (the USEEIO factor year)', () => {
    expect(fx.rates.eur?.['2019']).toBeGreaterThan(0.8);
    expect(fx.rates.eur?.['2019']).toBeLessThan(1);
    expect(fx.rates.usd?.['2022']).toBe(1);
  });

  it('no zero, negative or non-finite rate', () => {
    const bad = Object.entries(fx.rates).flatMap(([currency, rates]) =>
      Object.entries(rates)
        .filter(([, rate]) => !(Number.isFinite(rate) && rate > 0))
        .map(([year]) => `${currency} ${year}`),
    );
    expect(bad).toEqual([]);
  });

  it('covers at least 150 currencies, including those of every factor region', () => {
    expect(Object.keys(fx.rates).length).toBeGreaterThanOrEqual(150);
    for (const currency of ['eur', 'usd', 'gbp', 'nok', 'brl']) {
      for (let year = 1995; year <= 2025; year++)
        expect(fx.rates[currency]?.[String(year)], `${currency} ${year}`).toBeGreaterThan(0);
    }
  });
});
