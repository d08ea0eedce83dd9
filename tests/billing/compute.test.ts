import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBillingEstimator, rowHeader } from '../../src/billing/index';
import { calculateStorage } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import type { CloudDatasets } from '../../src/datasets/types';
import { FIXTURE_FILES, readFixture } from './fixtures';

/**
 * Step 3 of a bill line (issue 34 item 7): one calculator call per row, with the region record classification
 * resolved and the quantity as the export wrote it, exactly.
 */

const HEADER = [
  'BilledCost',
  'ChargeCategory',
  'ChargePeriodStart',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ProviderName',
  'RegionId',
  'ServiceName',
  'ChargeDescription',
];

/** A FOCUS 1.0 gp3 volume line (specification columns only), as AWS describes it. */
const gp3 = (quantity: string, region = 'us-east-1') => ({
  BilledCost: '1',
  ChargeCategory: 'Usage',
  ChargePeriodStart: '2026-11-01T00:00:00Z',
  ConsumedQuantity: quantity,
  ConsumedUnit: 'GB-Mo',
  ProviderName: 'AWS',
  RegionId: region,
  ServiceName: 'Amazon Elastic Compute Cloud',
  ChargeDescription: '$0.08 per GB-month of General Purpose SSD (gp3) provisioned storage',
});

describe('compute: one calculator call per row', () => {
  it('resolves each row’s region once (the embedded region table behind a counting proxy)', () => {
    const lookups: string[] = [];
    const table = defaultDatasets.cloudRegions;
    // The table is frozen, so the proxy stands in front of an empty target and forwards everything but `get`.
    const regions = new Proxy({} as typeof table, {
      get(_target, property) {
        if (property !== 'get') return Reflect.get(table, property) as unknown;
        return (provider: Parameters<typeof table.get>[0], region: string) => {
          lookups.push(`${provider}:${region}`);
          return table.get(provider, region);
        };
      },
    });
    const datasets: CloudDatasets = { ...defaultDatasets, cloudRegions: regions };
    const estimator = createBillingEstimator(datasets, HEADER);
    // Five regions never looked up through this table before, so no cache keyed by it hides a second lookup.
    const spellings = ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2'];
    const rows = spellings.map((region) => estimator.columns(gp3('100', region)).columns);
    expect(rows.map((row) => row.co2e_status)).toEqual(spellings.map(() => 'estimated'));
    expect(lookups).toEqual(spellings.map((region) => `aws:${region}`));
  });

  it('keeps a quantity’s 20 significant digits (activity rounded once, not the quantity first)', () => {
    const estimator = createBillingEstimator(defaultDatasets, HEADER);
    const { columns } = estimator.columns(gp3('2200.7621696699967246'));
    // By hand (Python decimal, 80 digits): 2200.7621696699967246 GB × 0.001 TB/GB × 720 h (November) × 2 copies
    // (EBS) = 3169.097524324795283424 TB-hour, whose nearest double is 3169.0975243247954. Rounding the quantity to a
    // double first (2200.7621696699967) gives 3169.097524324795 instead.
    expect(columns.co2e_activity_value).toBe(3169.0975243247954);
    expect(columns.co2e_reason).toBe('gb_month_as_720h(2026-11); replication_factor=2');
    // co2e is that activity × the storage calculator's own factor for the region, as a public call gives it.
    const direct = calculateStorage(
      'aws',
      { region: 'us-east-1', storage_type: 'ssd', data: 3169.0975243247954, data_unit: 'TB', duration: 1 },
      defaultDatasets,
    );
    expect(columns.co2e_kg).toBe(direct.co2e);
    expect(columns.co2e_factor_id).toBe(direct.emission_factor?.id);
  });

  it('a quantity beyond what the calculators accept (1e15) is no_quantity, the rest of the rows estimated', () => {
    const estimator = createBillingEstimator(defaultDatasets, HEADER);
    expect(estimator.columns(gp3('2e15')).columns).toMatchObject({
      co2e_status: 'not_estimated',
      co2e_reason: 'no_quantity',
      co2e_kg: null,
    });
    expect(estimator.columns(gp3('1000000000000000.5')).columns.co2e_reason).toBe('no_quantity');
    expect(estimator.columns(gp3('100')).columns.co2e_status).toBe('estimated');
  });
});

describe('classification kept per distinct line', () => {
  // The rules table as a caller would pass it: compiled anew, so its matches are kept apart from the default's.
  const rules: unknown = JSON.parse(readFileSync('datasets/billing/rules.json', 'utf8'));

  it.each(FIXTURE_FILES)(
    '%s: every row, in any order, as a fresh table classifies it in file order',
    (name) => {
      const rows = readFixture(name);
      const header = rowHeader(rows[0]!);
      const fresh = createBillingEstimator(defaultDatasets, header, { rules });
      const expected = rows.map((row) => fresh.columns(row).columns);
      fc.assert(
        fc.property(fc.shuffledSubarray([...rows.keys()], { minLength: rows.length }), (order) => {
          const estimator = createBillingEstimator(defaultDatasets, header);
          for (const index of order) expect(estimator.columns(rows[index]!).columns).toEqual(expected[index]);
        }),
        { numRuns: 20 },
      );
    },
  );
});
