import { describe, expect, it } from 'vitest';
import { estimateBilling } from '../../src/billing/index';
import { calculateCpu, calculateInstance } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { idOf, readFixture } from './fixtures';

/**
 * Issue 38: a bill of today's families is estimated. The rows are the fixtures' own rows (tests/billing/fixtures,
 * written from the published export schemas) with today's types in the usage type / SKU columns.
 */
function rowLike(file: string, id: string, changes: Record<string, string>): Record<string, string> {
  const row = readFixture(file).find((r) => idOf(r) === id);
  if (row === undefined) throw new Error(`${file} has no row ${id}`);
  return { ...row, ...changes };
}

const estimate = (rows: Record<string, string>[]) => {
  const result = estimateBilling(rows, defaultDatasets);
  return new Map(result.rows.map((row) => [idOf(row), row]));
};

describe("today's families in bills (issue 38)", () => {
  it('AWS CUR and FOCUS BoxUsage hours of r7i, m8i and c8g equal calculateInstance', () => {
    const types = ['r7i.large', 'm8i.large', 'c8g.large'];
    const cur = estimate(
      types.map((type) =>
        rowLike('aws-cur.csv', 'ec2-t3', {
          'lineItem/UsageType': `BoxUsage:${type}`,
          'lineItem/ResourceId': `cur-${type}`,
          'identity/LineItemId': `li-${type}`,
        }),
      ),
    );
    const focus = estimate(
      types.map((type) =>
        rowLike('focus-aws.csv', 'ec2-t3', {
          x_UsageType: `BoxUsage:${type}`,
          ChargeDescription: `$0.1 per On Demand Linux ${type} Instance Hour`,
          ResourceId: `focus-${type}`,
        }),
      ),
    );
    for (const type of types) {
      const expected = calculateInstance(
        'aws',
        { instance: type, region: 'us-east-1', duration: 720 },
        defaultDatasets,
      );
      for (const row of [cur.get(`cur-${type}`), focus.get(`focus-${type}`)])
        expect(row, type).toMatchObject({
          co2e_status: 'estimated',
          co2e_kg: expected.total_co2e,
          co2e_calculator: 'instance',
          co2e_activity_value: 720,
          co2e_activity_unit: 'instance-hour',
        });
    }
  });

  it('Azure FOCUS hours of Standard_D4s_v6 and Standard_E4s_v6 equal calculateInstance', () => {
    const sizes = ['Standard_D4s_v6', 'Standard_E4s_v6'];
    const rows = estimate(
      sizes.map((size) =>
        rowLike('focus-azure.csv', 'vm-d2s', {
          ResourceId: `vm-${size}`,
          ChargeDescription: size.replace('Standard_', '').replace('_', ' '),
          x_SkuMeterName: size.replace('Standard_', '').replace('_', ' '),
          x_SkuDetails: JSON.stringify({ ServiceType: size, VCPUs: 4 }),
        }),
      ),
    );
    for (const size of sizes) {
      const expected = calculateInstance(
        'azure',
        { instance: size, region: 'eastus', duration: 24 },
        defaultDatasets,
      );
      expect(rows.get(`vm-${size}`), size).toMatchObject({
        co2e_status: 'estimated',
        co2e_kg: expected.total_co2e,
      });
    }
  });

  it('GCP FOCUS core seconds of C3, N4, C4, C4D and N4D are vCPU-hours, as for N2', () => {
    const series = ['C3', 'N4', 'C4', 'C4D', 'N4D'];
    const rows = estimate(
      series.map((name) =>
        rowLike('focus-gcp.csv', 'vm-core', {
          ResourceId: `core-${name}`,
          ChargeDescription: `${name} Instance Core running in Americas`,
        }),
      ),
    );
    // 86,400 core-seconds = 24 vCPU-hours
    const expected = calculateCpu(
      'gcp',
      { cpu_count: 1, region: 'us-central1', duration: 24 },
      defaultDatasets,
    );
    for (const name of series)
      expect(rows.get(`core-${name}`), name).toMatchObject({
        co2e_status: 'estimated',
        co2e_kg: expected.co2e,
      });
  });
});
