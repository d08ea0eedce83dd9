import { describe, expect, it } from 'vitest';
import {
  calculateNetworking,
  calculateNetworkingBatch,
  calculateSpend,
  createTableDatasets,
  DatasetError,
  EmissionsError,
  isErrorBody,
} from '../../src/index';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { parseTableCsv } from '../../src/loaders/index';

/**
 * No Infinity and no 0-by-underflow leaves the engine: tables whose figures would produce one are refused at load
 * with their place, and a result that still falls outside a JSON number is an error, never Infinity or 0.
 */
const dataset = {
  id: 'acme',
  version: '1',
  source: 'ACME',
  source_dataset: 'ACME rates',
  licence: 'internal',
  attribution: 'ACME Ltd.',
};

function caught<E extends Error>(type: new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}

describe('tables with implausible rates are refused at load, naming the place', () => {
  it('an inflation rate of 1e100 % in a CSV: file, line and column', () => {
    const text = 'region,year,rate\nDE,2022,6.9\nDE,2023,1e100\n';
    const error = caught(DatasetError, () =>
      parseTableCsv('inflation', text, { meta: { dataset }, file: 'rates.csv' }),
    );
    expect(error.message).toContain('rates.csv');
    expect(error.line).toBe(3);
    expect(error.column).toBe(3);
    expect(error.problem).toContain('1,000,000 %');
  });

  it('an exchange rate of 1e20 units per USD in a table given to createTableDatasets', () => {
    const error = caught(DatasetError, () =>
      createTableDatasets({ fx: { dataset, rates: { eur: { '2023': 0.92 }, xyz: { '2023': 1e20 } } } }),
    );
    expect(error.message).toContain('rates.xyz.2023');
    expect(error.problem).toContain('1e15');
  });

  it('the embedded tables are within the bounds (the highest rates are kept)', () => {
    expect(() =>
      createTableDatasets({ inflation: defaultTables.inflation, fx: defaultTables.fx }),
    ).not.toThrow();
  });
});

describe('a result beyond a JSON number is an error, never 0 or Infinity', () => {
  it('networking data of 1e-323 GB: co2e would underflow to 0', () => {
    const request = { region: 'us_east_1', data: 1e-323 };
    const error = caught(EmissionsError, () => calculateNetworking('aws', request, defaultDatasets));
    expect(error.error_code).toBe('invalid_request');
    expect(error.message).toContain('cannot be written as a JSON number');
    const [bad, good] = calculateNetworkingBatch(
      'aws',
      [request, { region: 'us_east_1', data: 1 }],
      defaultDatasets,
    );
    expect(isErrorBody(bad)).toBe(true);
    expect(isErrorBody(good)).toBe(false);
  });

  it('inflation compounded over 300 years at 1,000,000 % a year: inflation_applied would be Infinity', () => {
    // Each year multiplies prices by 10001; 10001^300 ≈ 1e1200, beyond 1.8e308.
    const years = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [String(1901 + i), 1_000_000]));
    const datasets = {
      ...defaultDatasets,
      ...createTableDatasets({
        inflation: { dataset, country: { DE: years } },
        spendFactors: {
          dataset,
          currency: 'eur',
          factor_year: 1900,
          price_basis: 'basic',
          gwp: 'ar5',
          product_classification: 'exiobase3p',
          factors: [
            {
              product: 'p52',
              region: 'DE',
              kgco2e: 0.03,
              name: 'Retail',
              activity_id: 'retail',
              data_quality_flags: [],
            },
          ],
        },
      }),
    };
    const error = caught(EmissionsError, () =>
      calculateSpend(
        {
          activity: { activity_id: 'retail' },
          spend_year: 2200,
          spend_region: 'DE',
          money: 1,
          money_unit: 'eur',
        },
        datasets,
      ),
    );
    expect(error.error_code).toBe('invalid_request');
    // The spend deflated over 300 years at 1,000,000 % keeps its digits since divisions keep 25 significant digits
    // (issue 23 item 9), so the first number without a JSON form is now the co2e, far below 5e-324, not 0.
    expect(error.message).toContain('below 5e-324 but not 0');
  });
});
