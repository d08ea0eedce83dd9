import type { SpendDatasets } from '../datasets/types';
import { EXIOBASE_COUNTRY_CURRENCIES } from './exiobase-regions';

const MARGIN_NAMES = ['tax_margin', 'trade_margin', 'transport_margin'] as const;

/** What the spend datasets hold for one region with factors. */
export interface SpendRegionCoverage {
  region: string;
  /** Products with a factor in the region. */
  products: number;
  /** Where the region's default margins come from (`id@version` of the table), and which margins it gives; null: none. */
  margins: { dataset: string; margins: Array<(typeof MARGIN_NAMES)[number]>; products: number } | null;
  /** The region's own currency (lowercase ISO 4217), where known. */
  currency: string | null;
  /** Newest year with an exchange rate for that currency, and the months it covers if only part of the year. */
  fx_latest_year: number | null;
  fx_latest_partial?: string;
  /** Newest year with a CPI inflation rate for the region. */
  inflation_latest_year: number | null;
}

/** Years probed for the newest inflation rate (the inflation provider does not list its years). */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2100;

/**
 * Coverage of the spend datasets per region with factors: how many products have a factor, where the default
 * margins come from, and the newest year of exchange-rate and inflation data. `co2e-engine list coverage`, the
 * procurement metadata route and the coverage table of docs/spend.md show it.
 *
 * @example
 * ```ts
 * import { spendCoverage } from 'co2e-engine/datasets/spend';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 *
 * spendCoverage(defaultDatasets).find((row) => row.region === 'US');
 * // { region: 'US', products: 174, margins: { dataset: 'bea-us-margins-2017@…', margins: ['trade_margin',
 * //   'transport_margin'], products: 170 }, currency: 'usd', fx_latest_year: 2025, inflation_latest_year: 2024 }
 * ```
 */
export function spendCoverage(
  datasets: Pick<SpendDatasets, 'spendFactors' | 'margins' | 'fx' | 'inflation'>,
): SpendRegionCoverage[] {
  const { spendFactors, margins, fx, inflation } = datasets;
  return spendFactors.regions.map((region) => {
    const products = spendFactors.productsIn?.(region) ?? [];
    // Factors priced in one country's money everywhere (CEDA: US) take that country's margins and price index.
    const basis = spendFactors.basisRegion ?? region;
    const sources = new Map<string, number>();
    const given = new Set<(typeof MARGIN_NAMES)[number]>();
    for (const product of products) {
      const record = margins.get(basis, product);
      if (record === undefined) continue;
      const info = margins.recordDataset?.(basis, product) ?? margins.info;
      const key = `${info.id}@${info.version}`;
      sources.set(key, (sources.get(key) ?? 0) + 1);
      for (const name of MARGIN_NAMES) if (record[name] !== undefined) given.add(name);
    }
    const currency = EXIOBASE_COUNTRY_CURRENCIES[region] ?? null;
    const fxYears = currency === null ? [] : fx.years(currency);
    const fxLatest = fxYears.length > 0 ? (fxYears[fxYears.length - 1] as number) : null;
    const partial = fxLatest === null || currency === null ? undefined : fx.partialYear?.(currency, fxLatest);
    let inflationLatest: number | null = null;
    if (inflation.hasRegion(basis))
      for (let year = LAST_YEAR; year >= FIRST_YEAR && inflationLatest === null; year--)
        if (inflation.countryRate(basis, year) !== undefined) inflationLatest = year;
    return {
      region,
      products: products.length,
      margins:
        sources.size === 0
          ? null
          : {
              dataset: [...sources.keys()].sort().join(', '),
              margins: MARGIN_NAMES.filter((name) => given.has(name)),
              products: [...sources.values()].reduce((a, b) => a + b, 0),
            },
      currency,
      fx_latest_year: fxLatest,
      ...(partial !== undefined && { fx_latest_partial: partial }),
      inflation_latest_year: inflationLatest,
    };
  });
}

/**
 * The coverage as flat text rows (`co2e-engine list coverage [region]`): region, products, margins, currency, newest
 * FX year (marked `partial` with its months), newest inflation year.
 *
 * @example
 * ```ts
 * coverageRows(spendCoverage(defaultDatasets), 'US');
 * // [{ region: 'US', products: '174', margins: 'bea-us-margins-2017@… (trade, transport; 172 products)', … }]
 * ```
 */
export function coverageRows(
  coverage: readonly SpendRegionCoverage[],
  region?: string,
): Array<Record<string, string>> {
  return coverage
    .filter((row) => region === undefined || row.region === region.toUpperCase())
    .map((row) => ({
      region: row.region,
      products: String(row.products),
      margins:
        row.margins === null
          ? 'none'
          : `${row.margins.dataset} (${row.margins.margins.map((m) => m.replace('_margin', '')).join(', ')}; ${row.margins.products} products)`,
      currency: row.currency ?? '',
      fx_latest_year:
        row.fx_latest_year === null
          ? ''
          : `${row.fx_latest_year}${row.fx_latest_partial ? ` partial: ${row.fx_latest_partial}` : ''}`,
      inflation_latest_year: row.inflation_latest_year === null ? '' : String(row.inflation_latest_year),
    }));
}
