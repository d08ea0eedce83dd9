import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  calculateSpend,
  createTableDatasets,
  EmissionsError,
  mergeDatasets,
  type SpendDatasets,
  type SpendRequest,
} from '../../src/index';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import {
  EXIOBASE_COUNTRIES,
  EXIOBASE_REGION_COUNTRIES,
  exiobaseRegionOf,
  REST_OF_WORLD_COUNTRIES,
} from '../../src/spend/exiobase-regions';
import { readSharedData, skipWithoutSharedData } from '../shared-data';

/**
 * Every country maps to its EXIOBASE region (DESIGN.md §7b): the 44 countries themselves, the rest to WA, WE, WF, WL
 * or WM by EXIOBASE's grouping (country_converter's EXIO3 column). With data that holds the region, a country is
 * computed with it and a notice names it; without, the error names the region and the command that gets it.
 */

const COMMAND = 'co2e-engine datasets fetch exiobase';

const request = (region: string, extra: Partial<SpendRequest> = {}): SpendRequest => ({
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2019,
  spend_region: region,
  money: 1000,
  money_unit: 'eur',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
  ...extra,
});

function outcome(region: string, datasets: SpendDatasets = defaultDatasets) {
  try {
    return { result: calculateSpend(request(region), datasets) };
  } catch (error) {
    if (error instanceof EmissionsError) return { error };
    throw error;
  }
}

/** The 249 ISO 3166-1 alpha-2 codes of Debian iso-codes (when installed), else of the shared country list. */
function isoCountries(): string[] {
  const debian = '/usr/share/iso-codes/json/iso_3166-1.json';
  if (existsSync(debian)) {
    const json = JSON.parse(readFileSync(debian, 'utf8')) as { '3166-1': { alpha_2: string }[] };
    return json['3166-1'].map((c) => c.alpha_2).sort();
  }
  return readSharedData('fx/country_currency.csv')
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[0]!)
    .filter((code) => /^[A-Z]{2}$/.test(code) && code !== 'XK')
    .sort();
}

describe('the country table', () => {
  it('44 EXIOBASE countries and five rest-of-world regions, 250 codes (249 ISO and XK), each once', () => {
    expect(EXIOBASE_COUNTRIES).toHaveLength(44);
    const rest = Object.values(REST_OF_WORLD_COUNTRIES).flat();
    expect(rest.length + 44).toBe(250);
    expect(new Set([...rest, ...EXIOBASE_COUNTRIES]).size).toBe(250);
    expect(EXIOBASE_REGION_COUNTRIES).toHaveLength(250);
  });

  it.skipIf(skipWithoutSharedData && !existsSync('/usr/share/iso-codes/json/iso_3166-1.json'))(
    'covers every ISO 3166-1 country',
    () => {
      const iso = isoCountries();
      expect(iso).toHaveLength(249);
      expect(iso.filter((code) => exiobaseRegionOf(code) === undefined)).toEqual([]);
    },
  );

  it.each([
    ['VN', 'WA'],
    ['NZ', 'WA'],
    ['WF', 'WA'], // Wallis and Futuna, not Rest of World Africa
    ['CH', 'CH'],
    ['UA', 'WE'],
    ['NG', 'WF'],
    ['AR', 'WL'],
    ['SA', 'WM'],
    ['ZA', 'ZA'],
    ['UK', 'GB'],
    ['EL', 'GR'],
    ['XK', 'WE'],
  ])('%s → %s', (country, region) => expect(exiobaseRegionOf(country)).toBe(region));
});

describe('with the embedded data (20 regions, no rest-of-world region)', () => {
  it('every ISO country either answers or names its EXIOBASE region and the command that gets it', () => {
    const unclear: string[] = [];
    let answered = 0;
    for (const country of EXIOBASE_REGION_COUNTRIES) {
      const { result, error } = outcome(country);
      if (result) {
        answered++;
        expect(result.estimate.emission_factor?.region).toBe(country);
        continue;
      }
      const region = exiobaseRegionOf(country)!;
      expect(error.error_code).toBe('no_emission_factors_found');
      expect(error.path).toBe('spend_region');
      // Short (issue 33: at most 200 characters), naming the region that would answer and both next steps.
      if (
        !error.message.includes(region) ||
        !error.message.includes(COMMAND) ||
        !error.message.includes('`--datasets ceda`') ||
        error.message.length > 200
      )
        unclear.push(`${country}: ${error.message}`);
    }
    expect(unclear).toEqual([]);
    expect(answered).toBe(20);
  });

  it('JP names itself (an EXIOBASE country this data lacks), VN names WA', () => {
    expect(outcome('JP').error?.message).toBe(
      `exiobase-3-oefdb+exiobase-3-oefdb-regions (20 regions) has no factors for JP. Use \`--datasets ceda\` (148 countries) or \`${COMMAND}\` (49 regions).`,
    );
    expect(outcome('VN').error?.message).toBe(
      `VN is in EXIOBASE's WA (Rest of World Asia and Pacific), which these factors lack. Use \`--datasets ceda\` (148 countries) or \`${COMMAND}\` (49 regions).`,
    );
  });

  it('a code that is no ISO country says so', () => {
    const { error } = outcome('ZZ');
    expect(error?.error_code).toBe('no_emission_factors_found');
    expect(error?.message).toContain("'ZZ' is no ISO 3166-1 country");
    expect(error?.valid_values).toContain('DE');
  });

  it('UK and EL are read as GB and GR', () => {
    expect(outcome('UK').result).toEqual(outcome('GB').result);
    expect(outcome('el').result).toEqual(outcome('GR').result);
    expect(outcome('UK').result?.estimate.emission_factor?.region).toBe('GB');
  });
});

describe('with data that holds the rest-of-world regions', () => {
  // A user's table with WA and WF factors for retail (p52), beside the embedded ones: 0.05 and 0.07 kg/EUR.
  const table = (regions: Record<string, number>) =>
    createTableDatasets({
      spendFactors: {
        ...defaultTables.spendFactors,
        dataset: { ...defaultTables.spendFactors.dataset, id: 'rest-of-world', version: 'test' },
        factors: Object.entries(regions).map(([region, kgco2e]) => ({
          product: 'p52',
          region,
          kgco2e,
          name: 'Retail trade',
          activity_id: 'retail',
          data_quality_flags: [],
        })),
      },
    });
  const datasets = mergeDatasets(defaultDatasets, table({ WA: 0.05, WF: 0.07, VN: 0.09 }));
  const withoutVn = mergeDatasets(defaultDatasets, table({ WA: 0.05, WF: 0.07 }));

  it("TH is computed with WA's factor, and a notice names WA", () => {
    const { result } = outcome('TH', withoutVn);
    // 1000 EUR in 2019, no margins, no inflation: activity 1000 EUR × 0.05 = 50 kg.
    expect(result?.estimate.co2e).toBe(50);
    expect(result?.estimate.emission_factor?.region).toBe('WA');
    expect(result?.notices.map((n) => n.code)).toEqual(['rest_of_world_region']);
    expect(result?.notices[0]?.message).toBe(
      "TH has no factors of its own: EXIOBASE counts it in WA (Rest of World Asia and Pacific), whose factors are used. They average the region's countries.",
    );
  });

  it('a country the data holds itself keeps its own factors (VN 0.09)', () => {
    const { result } = outcome('VN', datasets);
    expect(result?.estimate.co2e).toBe(90);
    expect(result?.notices).toEqual([]);
  });

  it('WF is Wallis and Futuna: WA, not Rest of World Africa; NG is Africa: WF', () => {
    expect(outcome('WF', datasets).result?.estimate.co2e).toBe(50);
    expect(outcome('NG', datasets).result?.estimate.co2e).toBe(70);
    expect(outcome('NG', datasets).result?.notices[0]?.message).toContain('WF (Rest of World Africa)');
  });

  it('a rest-of-world code that is no country (WA) asks for the region itself, without a notice', () => {
    const { result } = outcome('WA', datasets);
    expect(result?.estimate.co2e).toBe(50);
    expect(result?.notices).toEqual([]);
  });

  it('inflation stays the country’s own: a 2023 TH spend on WA factors is deflated by Thai CPI', () => {
    const { result } = { result: calculateSpend(request('TH', { spend_year: 2023 }), withoutVn) };
    expect(result.calculation_details.inflation_years).toEqual([2020, 2021, 2022, 2023]);
    const th = defaultTables.inflation.country.TH!;
    const level = [2020, 2021, 2022, 2023].reduce((p, y) => p * (1 + th[String(y)]! / 100), 1);
    expect(result.calculation_details.inflation_applied).toBeCloseTo(level - 1, 12);
  });
});
