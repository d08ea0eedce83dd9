import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateSpend, EmissionsError, type SpendRequest } from '../../src/index';
import {
  cedaFactorsGrid,
  cedaSpendDatasets,
  defaultDatasets,
  withDatasetPreset,
} from '../../src/embedded/index';
import { mergeDatasets } from '../../src/datasets/merge';
import { SHARED_DATA, skipWithoutSharedData } from '../shared-data';

/**
 * Open CEDA 2024 (`--datasets ceda`), issue 33's "Done when" figures. Factors are read straight from the source CSV
 * here (cp1252, `;`, decimal comma), apart from the build; the margins and price index are worked out by hand from
 * the BEA and World Bank source rows (a Python decimal computation when this was written).
 */

const ceda = withDatasetPreset(defaultDatasets, 'ceda');

/** The CEDA source's factor for (alpha-3 country, sector), as printed in the CSV. */
function sourceFactor(country: string, sector: string): number {
  const text = new TextDecoder('windows-1252').decode(
    readFileSync(resolve(SHARED_DATA, 'ceda/open_ceda_2024.csv')),
  );
  const lines = text.split('\r\n');
  const header = lines.find((line) => line.startsWith(';Country Code;'))!.split(';');
  const row = lines.find((line) => line.startsWith(`;${country};`))!.split(';');
  return Number(row[header.indexOf(sector)]!.replace(',', '.'));
}

const request = (overrides: Partial<SpendRequest> & Pick<SpendRequest, 'activity'>): SpendRequest => ({
  spend_year: 2022,
  spend_region: 'US',
  money: 1000,
  money_unit: 'usd',
  ...overrides,
});
const naics = (code: string) => ({ classification_type: 'naics2017', classification_code: code }) as const;
const NO_MARGINS = { tax_margin: 0, trade_margin: 0, transport_margin: 0 } as const;

describe.skipIf(skipWithoutSharedData)('Open CEDA goldens, from the source file', () => {
  it('US cement (NAICS 327310), 1,000 USD in 2022, margins 0: 1,000 × 8.872 kg', () => {
    expect(sourceFactor('USA', '327310')).toBe(8.872);
    const result = calculateSpend(request({ activity: naics('327310'), ...NO_MARGINS }), ceda);
    expect(result.estimate.co2e).toBe(8872);
    expect(result.estimate.emission_factor).toMatchObject({
      factor: 8.872,
      source: 'CEDA by Watershed',
      region: 'US',
      year: 2022,
      activity_id: 'ceda_2024-327310',
      data_quality_flags: ['ceda_rounded_3_decimals'],
    });
    expect(result.calculation_details.products).toEqual([
      { product: '327310', name: 'Cement manufacturing', factor: 8.872, weight: null },
    ]);
  });

  it("German custom programming (NAICS 541511), its own country's factor: 1,000 × 0.092", () => {
    expect(sourceFactor('DEU', '541511')).toBe(0.092);
    const result = calculateSpend(
      request({ activity: naics('541511'), spend_region: 'DE', ...NO_MARGINS }),
      ceda,
    );
    expect(result.estimate.co2e).toBe(92);
    expect(result.estimate.emission_factor?.region).toBe('DE');
    expect(result.notices).toEqual([]);
  });

  it('a 2019 row is inflated to 2022 dollars by the US CPI (World Bank), whatever its country', () => {
    // US CPI 2020 1.23358439630629 %, 2021 4.69785886363742 %, 2022 8.00279982052121 %:
    // 1.0123358439630629 × 1.0469785886363742 × 1.0800279982052121 = 1.1447151445179401931…
    const result = calculateSpend(
      request({ activity: naics('541511'), spend_region: 'DE', spend_year: 2019, ...NO_MARGINS }),
      ceda,
    );
    expect(result.calculation_details.inflation_years).toEqual([2020, 2021, 2022]);
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(1144.7151445179402, 9);
    expect(result.estimate.co2e).toBeCloseTo(105.3137932956505, 9);
    expect(result.notices.map((n) => n.code)).toEqual(['basis_region_price_index']);
    expect(result.notices[0]?.message).toContain("US's price index");
  });

  it('a purchaser-price row without margins has the BEA US defaults stripped (trade 0.120178, transport 0.147594)', () => {
    // BEA 2017, commodity 327310, intermediate uses: wholesale 1486 + retail 0, transportation 1825, purchasers 12365.
    const result = calculateSpend(request({ activity: naics('327310') }), ceda);
    expect(result.calculation_details).toMatchObject({
      trade_margin: 0.120178,
      transport_margin: 0.147594,
      tax_margin: 0,
      margin_sources: { tax_margin: 'none', trade_margin: 'default', transport_margin: 'default' },
    });
    // 1000 × (1 − 0.120178 − 0.147594) × 8.872 = 6496.326816
    expect(result.estimate.co2e).toBe(6496.326816);
    expect(result.notices.map((n) => n.code)).toEqual([
      'default_margins_unavailable',
      'basis_region_margins',
    ]);
  });

  it('the same US margins apply to every country (CEDA converts with US margins)', () => {
    const result = calculateSpend(request({ activity: naics('327310'), spend_region: 'DE' }), ceda);
    expect(sourceFactor('DEU', '327310')).toBe(3.882);
    expect(result.calculation_details.trade_margin).toBe(0.120178);
    expect(result.estimate.co2e).toBeCloseTo(1000 * (1 - 0.120178 - 0.147594) * 3.882, 9);
  });

  it('India custom programming is 0.301, US 0.049, as the source prints them', () => {
    for (const [country, region, value] of [
      ['IND', 'IN', 0.301],
      ['USA', 'US', 0.049],
    ] as const) {
      expect(sourceFactor(country, '541511')).toBe(value);
      const result = calculateSpend(
        request({ activity: naics('541511'), spend_region: region, ...NO_MARGINS }),
        ceda,
      );
      expect(result.estimate.emission_factor?.factor).toBe(value);
    }
  });
});

describe('Open CEDA regions and cells', () => {
  it("a country CEDA does not model gets CEDA's rest of world (WW), with a notice", () => {
    expect(cedaFactorsGrid.regions['VE']).toBeUndefined();
    const result = calculateSpend(
      request({ activity: naics('541511'), spend_region: 'VE', ...NO_MARGINS }),
      ceda,
    );
    expect(result.estimate.emission_factor?.region).toBe('WW');
    expect(result.estimate.emission_factor?.factor).toBe(
      cedaFactorsGrid.regions['WW']![cedaFactorsGrid.products.findIndex(([code]) => code === '541511')],
    );
    expect(result.notices[0]).toMatchObject({ code: 'rest_of_world_region', severity: 'warning' });
  });

  it('a code that is no ISO country is still an error', () => {
    expect(() =>
      calculateSpend(request({ activity: naics('541511'), spend_region: 'QQ' }), ceda),
    ).toThrowError(EmissionsError);
  });

  it('a cell reading 0.000 (below the rounding) is refused, never answered as 0', () => {
    const index = cedaFactorsGrid.products.findIndex(([code]) => code === '211000');
    expect(cedaFactorsGrid.regions['BE']![index]).toBeNull();
    let error: unknown;
    try {
      calculateSpend(request({ activity: naics('211120'), spend_region: 'BE' }), ceda);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EmissionsError);
    expect((error as EmissionsError).error_code).toBe('no_emission_factors_found');
  });

  it('CEDA and EXIOBASE factors never merge silently: the merge refuses', () => {
    expect(() => mergeDatasets(defaultDatasets, cedaSpendDatasets).spendFactors).toThrow(/differs/);
  });

  it('the default preset stays EXIOBASE', () => {
    const result = calculateSpend(request({ activity: naics('327310') }), defaultDatasets);
    expect(result.estimate.emission_factor?.source).not.toContain('CEDA');
  });
});

describe('Open CEDA properties', () => {
  const sectors = ['327310', '541511', '484110', '331110'];
  const regions = ['US', 'DE', 'IN', 'JP', 'BR', 'VN'];
  it('co2e scales linearly with money', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...sectors),
        fc.constantFrom(...regions),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 2, max: 50 }),
        (sector, region, money, times) => {
          const one = calculateSpend(request({ activity: naics(sector), spend_region: region, money }), ceda);
          const many = calculateSpend(
            request({ activity: naics(sector), spend_region: region, money: money * times }),
            ceda,
          );
          const expected = one.estimate.co2e! * times;
          expect(Math.abs(many.estimate.co2e! - expected)).toBeLessThanOrEqual(expected * 1e-12);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('with margins 0 and USD in 2022, co2e is money × the factor of the source', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cedaFactorsGrid.products.length - 1 }),
        fc.constantFrom(...Object.keys(cedaFactorsGrid.regions)),
        fc.integer({ min: 1, max: 1_000_000 }),
        (index, region, money) => {
          const [sector] = cedaFactorsGrid.products[index]!;
          const factor = cedaFactorsGrid.regions[region]![index];
          const call = () =>
            calculateSpend(
              {
                ...request({ activity: { activity_id: `ceda_2024-${sector.toLowerCase()}` } }),
                money,
                spend_region: region,
                ...NO_MARGINS,
              },
              ceda,
            );
          if (factor === null || factor === undefined) {
            expect(call).toThrowError(EmissionsError);
            return;
          }
          const co2e = call().estimate.co2e!;
          expect(Math.abs(co2e - money * factor)).toBeLessThanOrEqual(money * factor * 1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('merchant category codes on both presets', () => {
  const require = createRequire(import.meta.url);
  const codes = (require('mcc/mcc_codes.json') as { mcc: string; edited_description: string }[]).map(
    (entry) => entry,
  );
  it('the open list has 981 codes', () => expect(codes.length).toBe(981));
  for (const [name, datasets] of [
    ['default (EXIOBASE)', defaultDatasets],
    ['ceda', ceda],
  ] as const)
    it(`every listed MCC maps to an existing ISIC code with products: ${name}`, () => {
      const isic = new Set(datasets.classifications.codes?.('isic4'));
      for (const { mcc } of codes) {
        const note = datasets.classifications.note?.('mcc', mcc);
        const read = /is read as isic4 (\w+)/.exec(note ?? '')?.[1];
        expect(read, mcc).toBeDefined();
        expect(isic.has(read!), `${mcc} → ${read}`).toBe(true);
        expect(datasets.classifications.products('mcc', mcc)).toEqual(
          datasets.classifications.products('isic4', read!),
        );
      }
    });

  it('an MCC estimate cites the description and names the ISIC code, on both presets', () => {
    for (const datasets of [defaultDatasets, ceda]) {
      const result = calculateSpend(
        request({
          activity: { classification_type: 'mcc', classification_code: '5812' },
          spend_region: 'DE',
        }),
        datasets,
      );
      expect(result.notices).toContainEqual({
        code: 'classification_note',
        severity: 'info',
        message: 'Merchant category code 5812 (Eating places and Restaurants) is read as isic4 5610.',
      });
    }
  });

  it('a code too broad for one class says which level it maps to', () => {
    const result = calculateSpend(
      request({ activity: { classification_type: 'MCC', classification_code: '4900' }, spend_region: 'DE' }),
      ceda,
    );
    expect(result.notices.find((n) => n.code === 'classification_note')?.message).toMatch(
      /is read as isic4 D: too broad for one ISIC class: mapped to the section\.$/,
    );
  });
});
