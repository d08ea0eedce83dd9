import { describe, expect, it } from 'vitest';
import {
  calculateSpend,
  createTableDatasets,
  EmissionsError,
  type MarginsTable,
  type SpendDatasets,
  type SpendRequest,
} from '../../src/index';
import { defaultDatasets, useeioDatasets } from '../../src/embedded/index';
import { Big, classWeightedFactor, exiobaseFactor, outputWeight, toNumber } from './expected';
import { caught } from '../fixtures/caught';
import { RETAIL_DE } from '../fixtures/requests';

/**
 * SPEC.md's margin rules: all supplied (used and echoed), some supplied (the rest from the dataset's defaults for
 * the factor's region and products), none supplied (all defaults). The embedded margins table has US (BEA) rows only, so
 * the default path is tested on a small custom table next to the embedded spend tables.
 */

/** 1000 EUR of retail trade (ISIC 4711) in DE, 2019, with the case's changes. */
const spend = (overrides: Partial<SpendRequest> = {}): SpendRequest => ({ ...RETAIL_DE, ...overrides });

const INFO = {
  id: 'test-margins',
  version: '1',
  source: 'test',
  source_dataset: 'hand-made margins for tests',
  licence: 'MIT',
  attribution: 'none',
};
/** DE defaults for p52 and p50.b (the two products of ISIC 47); none for p15.* (food). */
const marginsTable: MarginsTable = {
  dataset: INFO,
  margins: [
    { region: 'DE', product: 'p52', tax_margin: 0.15, trade_margin: 0.2, transport_margin: 0.03 },
    { region: 'DE', product: 'p50.b', tax_margin: 0.4, trade_margin: 0.1, transport_margin: 0.05 },
  ],
};
const withMargins: SpendDatasets = { ...defaultDatasets, ...createTableDatasets({ margins: marginsTable }) };

const thrown = (run: () => unknown): EmissionsError => caught(EmissionsError, run);

type Source = 'supplied' | 'default' | 'none';
/** `margin_sources` as a result states it: where the tax, trade and transport margins came from. */
const sources = (tax: Source, trade: Source, transport: Source) => ({
  tax_margin: tax,
  trade_margin: trade,
  transport_margin: transport,
});

/** The tax, trade and transport margins used and where each came from, the basic-price EUR and the kg co2e. */
function expectMargins(
  result: ReturnType<typeof calculateSpend>,
  expected: { margins: [number, number, number]; from: [Source, Source, Source]; eur: number; co2e: number },
) {
  const [tax_margin, trade_margin, transport_margin] = expected.margins;
  expect(result.calculation_details).toMatchObject({
    tax_margin,
    trade_margin,
    transport_margin,
    margin_sources: sources(...expected.from),
  });
  expect(result.estimate.activity_data.activity_value).toBe(expected.eur);
  expect(result.estimate.co2e).toBe(expected.co2e);
}

describe('rule 1: all margins supplied', () => {
  it('uses and echoes them, even where the dataset has defaults', () => {
    // 1000 × (1 − 0.19 − 0.1 − 0.02) = 690 EUR; × 0.0272 = 18.768 kg. The custom defaults (0.15/0.2/0.03) are ignored.
    const result = calculateSpend(
      spend({ tax_margin: 0.19, trade_margin: 0.1, transport_margin: 0.02 }),
      withMargins,
    );
    expectMargins(result, {
      margins: [0.19, 0.1, 0.02],
      from: ['supplied', 'supplied', 'supplied'],
      eur: 690,
      co2e: 18.768,
    });
    expect(result.notices).toEqual([]);
  });

  it('a supplied 0 is a supplied margin, not a missing one', () => {
    const result = calculateSpend(
      spend({ tax_margin: 0, trade_margin: 0, transport_margin: 0 }),
      defaultDatasets,
    );
    expect(result.calculation_details.margin_sources).toEqual(sources('supplied', 'supplied', 'supplied'));
    expect(result.estimate.activity_data.activity_value).toBe(1000);
    expect(result.notices).toEqual([]);
  });
});

describe('rule 2: some margins supplied', () => {
  it('fills the missing ones from the default table of (region, product)', () => {
    // tax 0.19 supplied; trade 0.2 and transport 0.03 from the DE p52 defaults.
    // 1000 × (1 − 0.19 − 0.2 − 0.03) = 1000 × 0.58 = 580 EUR; × 0.0272 = 15.776 kg.
    const result = calculateSpend(spend({ tax_margin: 0.19 }), withMargins);
    expectMargins(result, {
      margins: [0.19, 0.2, 0.03],
      from: ['supplied', 'default', 'default'],
      eur: 580,
      co2e: 15.776,
    });
    expect(result.notices).toEqual([]);
  });

  it('with the embedded (empty) defaults, the missing ones are 0 and a warning names them', () => {
    // tax 0.19 supplied; trade and transport have no default → 0. 1000 × 0.81 = 810 EUR; × 0.0272 = 22.032 kg.
    const result = calculateSpend(spend({ tax_margin: 0.19 }), defaultDatasets);
    expectMargins(result, {
      margins: [0.19, 0, 0],
      from: ['supplied', 'none', 'none'],
      eur: 810,
      co2e: 22.032,
    });
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]).toMatchObject({ code: 'default_margins_unavailable', severity: 'warning' });
    expect(result.notices[0]?.message).toContain('trade_margin, transport_margin');
    expect(result.notices[0]?.message).not.toContain('tax_margin');
    expect(result.notices[0]?.message).toContain('overstated');
  });
});

describe('rule 3: no margins supplied', () => {
  it('uses all three defaults', () => {
    // 1000 × (1 − 0.15 − 0.2 − 0.03) = 620 EUR; × 0.0272 = 16.864 kg.
    const result = calculateSpend(spend(), withMargins);
    expectMargins(result, {
      margins: [0.15, 0.2, 0.03],
      from: ['default', 'default', 'default'],
      eur: 620,
      co2e: 16.864,
    });
    expect(result.notices).toEqual([]);
  });

  it('weights the defaults like the factor for a code with several products', () => {
    // ISIC 47 → p50.b (DE output 3912.595811, all of its 1 class in 47) and p52 (56278.4188676, 24 of its 29
    // classes in 47): w50 = 3912.595811, w52 = 56278.4188676 × 24/29 ≈ 46575.243202; Σ w ≈ 50487.839013.
    // tax       = (0.4  × w50 + 0.15 × w52) / Σ w = (1565.038324 + 6986.286480) / 50487.839013 ≈ 0.169374
    // trade     = (0.1  × w50 + 0.2  × w52) / Σ w = (391.259581 + 9315.048640) / 50487.839013 ≈ 0.192250
    // transport = (0.05 × w50 + 0.03 × w52) / Σ w = (195.629791 + 1397.257296) / 50487.839013 ≈ 0.031550
    // activity = 1000 × (1 − tax − trade − transport) ≈ 1000 × 0.606826 ≈ 606.826 EUR.
    const w50 = new Big(outputWeight('DE', 'p50.b'));
    const w52 = new Big(outputWeight('DE', 'p52')).times(24).div(29);
    const total = w50.plus(w52);
    const mean = (a: number, b: number) => w50.times(a).plus(w52.times(b)).div(total);
    const tax = mean(0.4, 0.15);
    const trade = mean(0.1, 0.2);
    const transport = mean(0.05, 0.03);
    const activity = new Big(1000).times(new Big(1).minus(tax).minus(trade).minus(transport));
    const { factor } = classWeightedFactor('isic4', '47', 'DE');

    const result = calculateSpend(
      spend({ activity: { classification_type: 'isic4', classification_code: '47' } }),
      withMargins,
    );
    expect(result.calculation_details.tax_margin).toBe(toNumber(tax));
    expect(result.calculation_details.trade_margin).toBe(toNumber(trade));
    expect(result.calculation_details.transport_margin).toBe(toNumber(transport));
    expect(result.calculation_details.tax_margin).toBeCloseTo(0.169374, 6);
    expect(result.calculation_details.trade_margin).toBeCloseTo(0.19225, 6);
    expect(result.calculation_details.transport_margin).toBeCloseTo(0.03155, 5);
    expect(result.calculation_details.margin_sources).toEqual(sources('default', 'default', 'default'));
    expect(result.estimate.activity_data.activity_value).toBe(toNumber(activity));
    expect(result.estimate.activity_data.activity_value).toBeCloseTo(606.826, 3);
    expect(result.estimate.co2e).toBe(toNumber(activity.times(factor)));
  });

  it('when one product of a code has no default, the margins are 0 with a notice (never a partial mean)', () => {
    // ISIC 10 → p15.*: none has a default in the custom table, so all three margins are 0; 1000 EUR stays 1000.
    const result = calculateSpend(
      spend({ activity: { classification_type: 'isic4', classification_code: '10' } }),
      withMargins,
    );
    expect(result.calculation_details.margin_sources).toEqual(sources('none', 'none', 'none'));
    expect(result.estimate.activity_data.activity_value).toBe(1000);
    expect(result.notices.map((notice) => notice.code)).toEqual(['default_margins_unavailable']);
    expect(result.notices[0]?.message).toContain('tax_margin, trade_margin, transport_margin');
  });

  it('a region without defaults gets 0 with a notice', () => {
    // GB has no rows in the custom table. 1000 EUR, GB p52 0.0469: co2e = 1000 × 0.0469 = 46.9 kg.
    expect(exiobaseFactor('p52', 'GB').kgco2e).toBe(0.0469);
    const result = calculateSpend(spend({ spend_region: 'GB' }), withMargins);
    expect(result.estimate.co2e).toBe(46.9);
    expect(result.notices.map((notice) => notice.code)).toEqual(['default_margins_unavailable']);
  });

  it('with the embedded (empty) defaults: all 0, never silently', () => {
    // 1000 EUR × 1 × 0.0272 = 27.2 kg.
    const result = calculateSpend(spend(), defaultDatasets);
    expect(result.calculation_details).toMatchObject({ tax_margin: 0, trade_margin: 0, transport_margin: 0 });
    expect(result.calculation_details.margin_sources).toEqual(sources('none', 'none', 'none'));
    expect(result.estimate.co2e).toBe(27.2);
    expect(result.notices).toEqual([
      {
        code: 'default_margins_unavailable',
        severity: 'warning',
        message: expect.stringContaining(
          'no default tax_margin, trade_margin, transport_margin for DE and p52, so 0 was used',
        ),
      },
    ]);
  });

  it('purchaser-price factors (USEEIO) need no margins: 0 with an info notice, not a missing-default warning', () => {
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
    expect(result.notices.map((notice) => notice.code)).toEqual(['purchaser_price_factors']);
    expect(result.calculation_details.margin_sources).toEqual(sources('none', 'none', 'none'));
  });
});

describe('margin bounds', () => {
  it('a negative tax margin (subsidy) is allowed and raises the basic price', () => {
    // 1000 × (1 − (−0.1) − 0.1 − 0.02) = 1000 × 0.98 = 980 EUR; × 0.0272 = 26.656 kg.
    const result = calculateSpend(
      spend({ tax_margin: -0.1, trade_margin: 0.1, transport_margin: 0.02 }),
      defaultDatasets,
    );
    expect(result.calculation_details.tax_margin).toBe(-0.1);
    expect(result.estimate.activity_data.activity_value).toBe(980);
    expect(result.estimate.co2e).toBe(26.656);
  });

  it('a large subsidy can make the basic price exceed the purchaser price', () => {
    // 1000 × (1 − (−0.5)) = 1500 EUR; × 0.0272 = 40.8 kg.
    const result = calculateSpend(
      spend({ tax_margin: -0.5, trade_margin: 0, transport_margin: 0 }),
      defaultDatasets,
    );
    expect(result.estimate.activity_data.activity_value).toBe(1500);
    expect(result.estimate.co2e).toBe(40.8);
  });

  /** Each refused request: invalid_request, at the path and with the words given (where the case names them). */
  const REFUSED: Array<[string, SpendRequest, SpendDatasets, { path?: string; message?: string }]> = [
    [
      'a negative trade margin is invalid_request at trade_margin',
      spend({ trade_margin: -0.01 }),
      defaultDatasets,
      { path: 'trade_margin', message: 'must not be negative' },
    ],
    [
      'a negative transport margin is invalid_request at transport_margin',
      spend({ transport_margin: -0.5 }),
      defaultDatasets,
      { path: 'transport_margin' },
    ],
    [
      'margins summing to exactly 1 are invalid_request (nothing would be left of the price)',
      spend({ tax_margin: 0.5, trade_margin: 0.3, transport_margin: 0.2 }),
      defaultDatasets,
      { message: 'must be below 1', path: 'tax_margin' },
    ],
    [
      'margins summing to more than 1 are invalid_request',
      spend({ tax_margin: 0.6, trade_margin: 0.5, transport_margin: 0 }),
      defaultDatasets,
      { message: 'sum to 1.1' },
    ],
    // tax 0.77 supplied + default trade 0.2 + transport 0.03 = 1.
    [
      'a supplied margin plus defaults summing to 1 or more is invalid_request too',
      spend({ tax_margin: 0.77 }),
      withMargins,
      { path: 'tax_margin' },
    ],
    [
      'a single margin above 1 is invalid_request at that margin',
      spend({ tax_margin: 1.5 }),
      defaultDatasets,
      { path: 'tax_margin', message: 'at most 1' },
    ],
    [
      'a margin that is not a number is invalid_request',
      { ...spend(), trade_margin: '0.1' } as unknown as SpendRequest,
      defaultDatasets,
      { path: 'trade_margin' },
    ],
  ];
  it.each(REFUSED)('%s', (_, request, datasets, expected) => {
    const error = thrown(() => calculateSpend(request, datasets));
    expect(error.error_code).toBe('invalid_request');
    if (expected.path !== undefined) expect(error.path).toBe(expected.path);
    if (expected.message !== undefined) expect(error.message).toContain(expected.message);
  });
});

describe('default margins are worked out once per factor and margins table', () => {
  it('a caller changing a result’s margin sources or datasets does not change the next result', () => {
    const first = calculateSpend(spend(), withMargins);
    expect(first.calculation_details.margin_datasets).toEqual(['test-margins@1']);
    first.calculation_details.margin_sources.tax_margin = 'none';
    first.calculation_details.margin_datasets?.push('tampered@0');
    const second = calculateSpend(spend(), withMargins);
    expect(second.calculation_details.margin_sources).toEqual(sources('default', 'default', 'default'));
    expect(second.calculation_details.margin_datasets).toEqual(['test-margins@1']);
  });

  it('another margins table over the same factors gives its own defaults, before and after', () => {
    const otherTable: MarginsTable = {
      dataset: { ...INFO, id: 'other-margins' },
      margins: marginsTable.margins.map((row) => ({ ...row, tax_margin: 0.05 })),
    };
    const withOther: SpendDatasets = { ...withMargins, ...createTableDatasets({ margins: otherTable }) };
    // Same factor and classification tables, so the same cached factor selection serves both.
    expect(withOther.spendFactors).toBe(withMargins.spendFactors);
    for (let round = 0; round < 2; round++) {
      expect(calculateSpend(spend(), withMargins).calculation_details).toMatchObject({
        tax_margin: 0.15,
        margin_datasets: ['test-margins@1'],
      });
      expect(calculateSpend(spend(), withOther).calculation_details).toMatchObject({
        tax_margin: 0.05,
        margin_datasets: ['other-margins@1'],
      });
    }
  });
});
