import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateSpend, EmissionsError, type SpendRequest } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import regionsFactorsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';
import {
  Big,
  classWeightedFactor,
  exiobaseFactor,
  hasExiobaseFactor,
  mappedCodes,
  mappedProducts,
  outputWeight,
  toNumber,
} from './expected';
import { caught } from '../fixtures/caught';
import { eur1000, NO_MARGINS } from '../fixtures/requests';

/**
 * The 15 regions from OEFDB's working file, and the product rule of docs/spend.md ("Which product a code means"):
 * every expected factor comes from the source rows and the class-level mappings, never from the engine.
 */

const request = (activity: SpendRequest['activity'], region: string): SpendRequest =>
  eur1000(activity, region, NO_MARGINS);
const isic = (code: string, region: string) =>
  calculateSpend(
    request({ classification_type: 'isic4', classification_code: code }, region),
    defaultDatasets,
  );

const thrown = (run: () => unknown): EmissionsError => caught(EmissionsError, run);

describe('regions added from the working file', () => {
  const added = regionsFactorsJson.factors;

  it('answers every added row by its activity_id with the source row’s factor, as the source’s own activity', () => {
    expect(added.length).toBe(551);
    for (const row of added) {
      const result = calculateSpend(request({ activity_id: row.activity_id }, row.region), defaultDatasets);
      const factor = result.estimate.emission_factor;
      expect(factor?.factor, `${row.activity_id} ${row.region}`).toBe(row.kgco2e);
      expect(factor?.activity_id).toBe(row.activity_id);
      expect(factor?.name).toBe(row.name);
      expect(factor?.region).toBe(row.region);
      expect(factor?.source_dataset).toBe(regionsFactorsJson.dataset.source_dataset);
      expect(result.estimate.co2e_calculation_origin).toBe('source');
      expect(result.estimate.co2e).toBe(toNumber(new Big(row.kgco2e).times(1000)));
    }
  });

  it('FR, ES and CN answer ISIC 4711 (retail trade) with their own p52 row', () => {
    for (const region of ['FR', 'ES', 'CN']) {
      const result = isic('4711', region);
      expect(result.estimate.emission_factor?.factor).toBe(exiobaseFactor('p52', region).kgco2e);
      expect(result.estimate.emission_factor?.activity_id).toBe(exiobaseFactor('p52', region).activity_id);
      expect(result.estimate.co2e_calculation_origin).toBe('source');
      expect(result.notices).toEqual([]);
    }
    expect(isic('4711', 'FR').estimate.emission_factor?.factor).toBe(0.0349);
  });

  it('released rows keep their own dataset and factor id', () => {
    const result = isic('4711', 'DE');
    expect(result.estimate.emission_factor?.source_dataset).toBe(
      'EXIOBASE 3 via Climatiq OEFDB (commit 677c3be)',
    );
  });

  it('a product the region lacks fails with no_emission_factors_found listing what the region has', () => {
    // ISIC 6201 (computer programming) → p72; FR has 37 products, none of them services but p52, p70, p95, ...
    const error = thrown(() => isic('6201', 'FR'));
    expect(error.error_code).toBe('no_emission_factors_found');
    expect(error.path).toBe('activity');
    expect(error.message).toBe(
      'No factor in FR for 6201 (product p72) in exiobase-3-oefdb+exiobase-3-oefdb-regions. Try `--datasets ceda` (every sector in 148 countries).',
    );
    expect(error.valid_values).toHaveLength(37);
    expect(error.valid_values).toContain('p52');
    expect(error.valid_values).not.toContain('p72');
    for (const product of error.valid_values ?? [])
      expect(hasExiobaseFactor(String(product), 'FR')).toBe(true);
  });

  it('a region with no factor at all still lists the regions that have one', () => {
    const error = thrown(() => isic('4711', 'JP'));
    expect(error.error_code).toBe('no_emission_factors_found');
    expect(error.path).toBe('spend_region');
    expect(error.valid_values).toHaveLength(20);
  });
});

describe('which product a code means: five worked codes (docs/spend.md)', () => {
  it('ISIC 85 in DE: education is 7 of 7 classes of p80 and 1 of 32 classes of p74', () => {
    // w80 = 191378.773424 × 7/7; w74 = 460802.530162 × 1/32 = 14400.079067...
    // factor = (0.063 × w80 + 0.1686 × w74) / (w80 + w74) ≈ 0.0703897 kg/EUR (the old whole-output mean: 0.1376,
    // 2.2 × the education factor 0.063).
    const w80 = new Big(outputWeight('DE', 'p80'));
    const w74 = new Big(outputWeight('DE', 'p74')).div(32);
    const factor = w80.times(0.063).plus(w74.times(0.1686)).div(w80.plus(w74));
    expect(toNumber(factor)).toBeCloseTo(0.0703897, 7);
    const result = isic('85', 'DE');
    expect(result.estimate.emission_factor?.factor).toBe(toNumber(factor));
    expect(result.calculation_details.products.map((share) => [share.product, share.weight])).toEqual([
      ['p74', toNumber(w74)],
      ['p80', toNumber(w80)],
    ]);
    expect(result.estimate.co2e_calculation_origin).toBe('co2e-engine');
  });

  it('ISIC 0111 in FR: cereals and oil seeds, with vegetables (12 classes) counted at 1/12', () => {
    // p01.b 8885.56144536 × 1/5 at 1.054; p01.c 8013.70306532 × 1/5 at 1.0522; p01.d 18253.2438679 × 1/12 at 0.2275;
    // p01.e 4407.74399926 × 1/5 at 1.4252 → ≈ 0.8926779 kg/EUR (whole outputs would give 0.7136).
    const parts: Array<[string, number, number]> = [
      ['p01.b', 5, 1.054],
      ['p01.c', 5, 1.0522],
      ['p01.d', 12, 0.2275],
      ['p01.e', 5, 1.4252],
    ];
    let numerator = new Big(0);
    let denominator = new Big(0);
    for (const [product, classes, kgco2e] of parts) {
      expect(exiobaseFactor(product, 'FR').kgco2e).toBe(kgco2e);
      const weight = new Big(outputWeight('FR', product)).div(classes);
      numerator = numerator.plus(weight.times(kgco2e));
      denominator = denominator.plus(weight);
    }
    const factor = numerator.div(denominator);
    expect(toNumber(factor)).toBeCloseTo(0.8926779, 7);
    expect(isic('0111', 'FR').estimate.emission_factor?.factor).toBe(toNumber(factor));
  });

  it('ISIC 47 in FR: p50.b has no FR factor, so p52 alone answers, with a warning of the weight it covers', () => {
    // Weight of p52 in 47: 58968.6914839 × 24/29 = 48801.68950...; of p50.b: 3765.78906646 × 1/1.
    // Covered: 48801.68950 / (48801.68950 + 3765.78907) = 92.836 % → "92.8%".
    const result = isic('47', 'FR');
    expect(result.estimate.emission_factor?.factor).toBe(0.0349);
    expect(result.estimate.emission_factor?.activity_id).toBe(exiobaseFactor('p52', 'FR').activity_id);
    expect(result.estimate.co2e_calculation_origin).toBe('source');
    expect(result.notices).toEqual([
      {
        code: 'products_without_factor',
        severity: 'warning',
        message:
          "47 maps to 2 products; 1 has no factor in FR and is left out of the mean: p50.b Retail trade services of motor fuel. The products used carry 92.8% of the code's weight in FR, so the factor stands for that part only.",
      },
    ]);
  });

  it('ISIC 1610 in DE: wood waste (p20.w) has no DE output, so sawmilling is the p20 row itself', () => {
    expect(mappedProducts('isic4', '1610')).toEqual(['p20', 'p20.w']);
    expect(outputWeight('DE', 'p20.w')).toBe(0);
    const result = isic('1610', 'DE');
    expect(result.estimate.emission_factor?.factor).toBe(0.3286);
    expect(result.estimate.emission_factor?.activity_id).toBe(exiobaseFactor('p20', 'DE').activity_id);
    expect(result.estimate.co2e_calculation_origin).toBe('source');
  });

  it('ISIC 47 in DE matches the class-level computation', () => {
    expect(isic('47', 'DE').estimate.emission_factor?.factor).toBe(
      toNumber(classWeightedFactor('isic4', '47', 'DE').factor),
    );
  });
});

describe('product rule properties', () => {
  const regions = defaultDatasets.spendFactors.regions;
  const isicCodes = mappedCodes('isic4');

  it('a code’s factor lies between the smallest and largest factor of its products in the region', () => {
    fc.assert(
      fc.property(fc.constantFrom(...isicCodes), fc.constantFrom(...regions), (code, region) => {
        let result;
        try {
          result = isic(code, region);
        } catch (error) {
          expect((error as EmissionsError).error_code).toBe('no_emission_factors_found');
          return;
        }
        const factors = mappedProducts('isic4', code)
          .filter((product) => hasExiobaseFactor(product, region))
          .map((product) => exiobaseFactor(product, region).kgco2e);
        const factor = result.estimate.emission_factor?.factor as number;
        expect(factor).toBeGreaterThanOrEqual(Math.min(...factors));
        expect(factor).toBeLessThanOrEqual(Math.max(...factors));
      }),
      { numRuns: 400 },
    );
  });

  it('a code with one product returns that product’s factor exactly, as the source’s activity', () => {
    const single = isicCodes.filter((code) => mappedProducts('isic4', code).length === 1);
    fc.assert(
      fc.property(fc.constantFrom(...single), fc.constantFrom(...regions), (code, region) => {
        const [product] = mappedProducts('isic4', code) as [string];
        if (!hasExiobaseFactor(product, region)) return;
        const result = isic(code, region);
        expect(result.estimate.emission_factor?.factor).toBe(exiobaseFactor(product, region).kgco2e);
        expect(result.estimate.co2e_calculation_origin).toBe('source');
      }),
      { numRuns: 300 },
    );
  });
});
