import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BILLING_COLUMNS,
  createBillingEstimator,
  createBillingSummary,
  detectBillingFormat,
  estimateBilling,
  parseUsageUnit,
  REASON_CODES,
  rowHeader,
} from '../../src/billing/index';
import { add, decimal, div, mul, toNumber } from '../../src/core/decimal';
import { EmissionsError } from '../../src/core/errors';
import {
  calculateCpu,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { FIXTURE_FILES, idOf, readFixture } from './fixtures';

/**
 * Billing exports (issue 19). Hand values use the embedded CCF coefficients and Electricity Maps 2022 grid factors:
 * us-east-1 0.434 kg/kWh, AWS PUE 1.135, SSD 1.2 and HDD 0.65 Wh per TB-hour, networking 0.001 kWh per GB.
 */

const RULES = JSON.parse(readFileSync('datasets/billing/rules.json', 'utf8')) as { rules: { id: string }[] };

function run(name: string, options?: Parameters<typeof estimateBilling>[2]) {
  const rows = readFixture(name);
  const result = estimateBilling(rows, defaultDatasets, options);
  const byId = new Map(result.rows.map((row) => [idOf(row), row]));
  return { input: rows, ...result, byId, get: (id: string) => byId.get(id)! };
}

describe('format detection', () => {
  it.each([
    ['focus-aws.csv', 'focus'],
    ['focus-azure.csv', 'focus'],
    ['focus-gcp.csv', 'focus'],
    ['focus-oracle.csv', 'focus'],
    ['aws-cur.csv', 'aws-cur'],
    ['aws-cur2.csv', 'aws-cur2'],
    ['gcp-export.csv', 'gcp'],
    ['gcp-export.jsonl', 'gcp'],
    ['azure-export.csv', 'azure'],
  ])('%s is %s', (name, format) => {
    expect(detectBillingFormat(rowHeader(readFixture(name)[0]!))).toBe(format);
  });

  it('is case-insensitive (Azure exports vary) and needs every detecting column', () => {
    expect(detectBillingFormat(['meterCategory', 'meterName', 'quantity'])).toBe('azure');
    expect(
      detectBillingFormat(['BilledCost', 'ChargeCategory', 'ChargePeriodStart', 'ServiceProviderName']),
    ).toBe('focus');
    expect(detectBillingFormat(['BilledCost', 'ChargeCategory'])).toBeUndefined();
  });

  it('an unknown header is invalid_request listing the formats; an explicit format is used as given', () => {
    expect(() => estimateBilling([{ a: 1 }], defaultDatasets)).toThrow(EmissionsError);
    try {
      estimateBilling([{ a: 1 }], defaultDatasets);
    } catch (error) {
      expect((error as EmissionsError).valid_values).toEqual([
        'focus',
        'aws-cur',
        'aws-cur2',
        'gcp',
        'azure',
      ]);
    }
    const { rows } = estimateBilling([{ a: 1 }], defaultDatasets, { format: 'azure' });
    expect(rows[0]).toMatchObject({ a: 1, co2e_status: 'not_estimated', co2e_reason: 'unknown_usage_type' });
  });
});

describe('rows out', () => {
  it.each(FIXTURE_FILES)(
    '%s: one row per row, input columns unchanged and first, then the co2e columns',
    (name) => {
      const { input, rows } = run(name);
      expect(rows).toHaveLength(input.length);
      rows.forEach((row, index) => {
        const source = input[index]!;
        expect(Object.keys(row)).toEqual([...Object.keys(source), ...BILLING_COLUMNS]);
        for (const [key, value] of Object.entries(source)) expect(row[key]).toBe(value);
        expect(['estimated', 'not_estimated']).toContain(row.co2e_status);
        if (row.co2e_status === 'estimated') {
          expect(row.co2e_kg).toBeGreaterThanOrEqual(0);
          expect(row.co2e_calculator).not.toBeNull();
        } else {
          expect(REASON_CODES).toContain(row.co2e_reason);
          expect(row.co2e_kg).toBeNull();
        }
      });
    },
  );

  it('the fixtures exercise every rule of the table and every reason code', () => {
    const rules = new Set<string>();
    const reasons = new Set<string>();
    for (const name of FIXTURE_FILES) {
      const rows = readFixture(name);
      const estimator = createBillingEstimator(defaultDatasets, rowHeader(rows[0]!));
      for (const row of rows) {
        const { row: out, facts } = estimator.estimate(row);
        if (facts.rule !== null) rules.add(facts.rule);
        if (out.co2e_status === 'not_estimated') reasons.add(out.co2e_reason);
      }
    }
    expect([...rules].sort()).toEqual(RULES.rules.map((rule) => rule.id).sort());
    // invalid_row is estimateBilling's, for what is not a row at all (tests/billing/misuse.test.ts); empty_row is a
    // line of empty cells and no_cost_ratio_in_currency needs --unknown cost-ratio (tests/cli/billing-misuse.test.ts).
    const elsewhere = ['invalid_row', 'empty_row', 'no_cost_ratio_in_currency'];
    expect([...reasons, ...elsewhere].sort()).toEqual([...REASON_CODES].sort());
  });
});

describe('estimator.columns', () => {
  it.each(FIXTURE_FILES)(
    '%s: gives what estimate appends, and the same facts, without copying the row',
    (name) => {
      const rows = readFixture(name);
      const estimator = createBillingEstimator(defaultDatasets, rowHeader(rows[0]!));
      for (const row of rows) {
        const estimated = estimator.estimate(row);
        const { columns, facts } = estimator.columns(row);
        expect(Object.keys(columns)).toEqual([...BILLING_COLUMNS]);
        expect(columns).toEqual(
          Object.fromEntries(BILLING_COLUMNS.map((column) => [column, estimated.row[column]])),
        );
        expect(facts).toEqual(estimated.facts);
      }
    },
  );
});

describe('done-when: VM hours, storage and inter-region transfer estimated; requests, licences, egress not', () => {
  it.each([
    ['focus-aws.csv', 'aws'],
    ['aws-cur.csv', 'aws'],
    ['aws-cur2.csv', 'aws'],
    ['focus-azure.csv', 'azure'],
    ['azure-export.csv', 'azure'],
    ['focus-gcp.csv', 'gcp'],
    ['gcp-export.csv', 'gcp'],
  ])('%s', (name) => {
    const { rows } = run(name);
    const calculators = new Set(rows.map((row) => row.co2e_calculator));
    const reasons = new Set(rows.map((row) => row.co2e_reason));
    expect(calculators.has('instance') || calculators.has('cpu')).toBe(true);
    expect(calculators.has('storage')).toBe(true);
    expect(calculators.has('networking')).toBe(true);
    expect(reasons.has('internet_egress_out_of_scope')).toBe(true);
  });

  it('requests and licences have their reasons in each native export', () => {
    for (const name of ['aws-cur.csv', 'gcp-export.csv', 'azure-export.csv']) {
      const reasons = new Set(run(name).rows.map((row) => row.co2e_reason));
      expect(reasons.has('request_based')).toBe(true);
      expect(reasons.has('licence')).toBe(true);
    }
  });

  it('Oracle FOCUS rows are read and each is unsupported_provider', () => {
    const { rows, summary } = run('focus-oracle.csv');
    expect(rows.every((row) => row.co2e_reason === 'unsupported_provider')).toBe(true);
    expect(summary.not_estimated).toEqual([{ reason: 'unsupported_provider', rows: 2, cost: 20.55 }]);
  });
});

describe('golden rows, worked out by hand', () => {
  it('EC2 BoxUsage:t3.micro 720 Hrs equals calculateInstance for that instance, region and duration', () => {
    const { get } = run('aws-cur.csv');
    const expected = calculateInstance(
      'aws',
      { instance: 't3.micro', region: 'us-east-1', duration: 720 },
      defaultDatasets,
    );
    expect(get('ec2-t3')).toMatchObject({
      co2e_status: 'estimated',
      co2e_kg: expected.total_co2e,
      co2e_calculator: 'instance',
      co2e_activity_value: 720,
      co2e_activity_unit: 'instance-hour',
    });
    expect(get('ec2-t3').co2e_kwh).toBe(
      toNumber(
        add(
          decimal(expected.calculation_details.energy_used_cpu),
          decimal(expected.calculation_details.energy_used_memory),
        ),
      ),
    );
    // the same line as FOCUS from AWS gives the same figure
    expect(run('focus-aws.csv').get('ec2-t3').co2e_kg).toBe(expected.total_co2e);
  });

  it('t2.micro for one hour: 0.002130109391547207 kg (docs/api/calculate-instance.md, by hand)', () => {
    const header = ['lineItem/UsageType', 'lineItem/UsageAmount', 'pricing/unit', 'product/regionCode'];
    const estimator = createBillingEstimator(defaultDatasets, header);
    const { row } = estimator.estimate({
      'lineItem/UsageType': 'BoxUsage:t2.micro',
      'lineItem/UsageAmount': '1',
      'pricing/unit': 'Hrs',
      'product/regionCode': 'us-east-1',
    });
    expect(row.co2e_kg).toBe(0.002130109391547207);
  });

  it('RDS db.m5.large hours are m5.large instance hours', () => {
    const expected = calculateInstance(
      'aws',
      { instance: 'm5.large', region: 'us-east-1', duration: 720 },
      defaultDatasets,
    );
    expect(run('aws-cur.csv').get('rds-instance').co2e_kg).toBe(expected.total_co2e);
  });

  it('EBS gp3 100 GB-Mo in November: 100 GB × 720 h × 2 (CCF EBS) = 144 TB-hour × 0.000591108 = 0.085119552 kg', () => {
    const row = run('aws-cur.csv').get('ebs-gp3');
    expect(row).toMatchObject({
      co2e_kg: 0.085119552,
      co2e_activity_value: 144,
      co2e_activity_unit: 'TB-hour',
      co2e_calculator: 'storage',
      co2e_reason: 'gb_month_as_720h(2026-11); replication_factor=2',
    });
    // kWh = 144 × 1.2 / 1000 × 1.135 = 0.196128
    expect(row.co2e_kwh).toBe(0.196128);
    const direct = calculateStorage(
      'aws',
      { region: 'us-east-1', storage_type: 'ssd', data: 100, duration: 720, replication_factor: 2 },
      defaultDatasets,
    );
    expect(row.co2e_kg).toBe(direct.co2e);
  });

  it('S3 standard uses CCF 2024 replication 6; snapshots 3; HDD factor 0.65 Wh/TB-hour', () => {
    const { get } = run('aws-cur.csv');
    // 1000 × 720 × 6 / 1000 = 4320 TB-hour × 0.65 / 1000 × 1.135 × 0.434 (= 0.000320183…) → 1.38319272
    expect(get('s3-std')).toMatchObject({ co2e_activity_value: 4320, co2e_kg: 1.38319272 });
    expect(get('ebs-snap')).toMatchObject({
      co2e_activity_value: 432,
      co2e_reason: 'gb_month_as_720h(2026-11); replication_factor=3',
    });
  });

  it('a GB-month without a charge period is 730 hours, and says so', () => {
    const estimator = createBillingEstimator(defaultDatasets, [
      'lineItem/UsageType',
      'lineItem/UsageAmount',
      'pricing/unit',
      'product/regionCode',
    ]);
    const { row } = estimator.estimate({
      'lineItem/UsageType': 'EBS:VolumeUsage.gp3',
      'lineItem/UsageAmount': '100',
      'pricing/unit': 'GB-Mo',
      'product/regionCode': 'us-east-1',
    });
    // 100 × 730 × 2 / 1000 = 146 TB-hour
    expect(row).toMatchObject({
      co2e_activity_value: 146,
      co2e_reason: 'gb_month_as_730h; replication_factor=2',
    });
  });

  it('inter-region transfer: 10 GB × 0.001 × 1.135 × 0.434 = 0.0049259 kg; egress and ingress are not estimated', () => {
    const { get } = run('aws-cur.csv');
    expect(get('xfer-inter-region')).toMatchObject({
      co2e_kg: 0.0049259,
      co2e_activity_value: 10,
      co2e_activity_unit: 'GB',
    });
    expect(get('xfer-internet').co2e_reason).toBe('internet_egress_out_of_scope');
    expect(get('xfer-in').co2e_reason).toBe('ingress_out_of_scope');
    expect(get('xfer-in-aws').co2e_reason).toBe('counted_at_sending_region');
  });

  it('Fargate vCPU-hours are cpu rows: 100 × 0.0010442908 = 0.10442908 kg', () => {
    expect(run('aws-cur.csv').get('fargate-vcpu')).toMatchObject({
      co2e_kg: 0.10442908,
      co2e_activity_unit: 'CPU-hour',
    });
  });

  it('Lambda GB-seconds are memory: 360000 GB-s = 100 GB-hour × 0.00019309528 = 0.019309528 kg', () => {
    expect(run('aws-cur.csv').get('lambda-gbs')).toMatchObject({
      co2e_kg: 0.019309528,
      co2e_activity_value: 100,
    });
  });

  it('GCP core seconds and RAM byte-seconds equal calculateCpu and calculateMemory', () => {
    const { get } = run('gcp-export.csv');
    const cpu = calculateCpu(
      'gcp',
      { cpu_count: 1, region: 'us-central1', duration: 86400, duration_unit: 'sec' },
      defaultDatasets,
    );
    expect(get('vm-core')).toMatchObject({ co2e_kg: cpu.co2e, co2e_activity_value: 24 });
    // 13915694039040 byte-seconds = 13915.69403904 GB-seconds = 3.8654705664 GB-hour (12 GiB-hour... no: 3.6 GiB-h)
    const memory = calculateMemory(
      'gcp',
      { region: 'us-central1', data: 13915.69403904, duration: 1, duration_unit: 'sec' },
      defaultDatasets,
    );
    expect(get('vm-ram')).toMatchObject({ co2e_kg: memory.co2e, co2e_activity_value: 3.8654705664 });
  });

  it('GCP FOCUS in gibibytes is converted (1 GiB = 1.073741824 GB) and says so', () => {
    const row = run('focus-gcp.csv').get('xfer-inter-region');
    const direct = calculateNetworking(
      'gcp',
      { region: 'us-central1', data: 10, data_unit: 'GiB' },
      defaultDatasets,
    );
    expect(row).toMatchObject({
      co2e_kg: direct.co2e,
      co2e_activity_value: 10.73741824,
      co2e_reason: 'gib_as_1.073741824_gb',
    });
  });

  it('persistent disks: SSD, HDD, regional ×2, from byte-seconds', () => {
    const { get } = run('gcp-export.csv');
    // 8.64e15 byte-seconds = 8.64e6 GB-seconds = 2400 GB-hour = 2.4 TB-hour
    const ssd = calculateStorage(
      'gcp',
      { region: 'us-central1', storage_type: 'ssd', data: 2.4, data_unit: 'TB', duration: 1 },
      defaultDatasets,
    );
    expect(get('pd-ssd')).toMatchObject({ co2e_kg: ssd.co2e, co2e_activity_value: 2.4 });
    expect(get('pd-regional')).toMatchObject({
      co2e_activity_value: 4.8,
      co2e_reason: 'replication_factor=2',
    });
    expect(get('pd-std').co2e_activity_value).toBe(2.4);
  });

  it('Azure VM hours: AdditionalInfo ServiceType or the meter name; 10 Hours units multiply', () => {
    const { get } = run('azure-export.csv');
    const expected = calculateInstance(
      'azure',
      { instance: 'Standard_D2s_v3', region: 'eastus', duration: 24 },
      defaultDatasets,
    );
    expect(get('vm-d2s').co2e_kg).toBe(expected.total_co2e);
    expect(get('vm-meter')).toMatchObject({ co2e_kg: expected.total_co2e, co2e_activity_value: 24 });
    expect(get('vm-unknown').co2e_reason).toBe('unknown_instance_type');
  });

  it('Azure managed disks: P10 = 128 GB (CCF table) × months × LRS 3', () => {
    const row = run('focus-azure.csv').get('disk-p10');
    // 1 disk-month × 128 GB × 720 h × 3 / 1000 = 276.48 TB-hour
    expect(row).toMatchObject({
      co2e_activity_value: 276.48,
      co2e_reason: 'gb_month_as_720h(2026-11); disk_gb=128; replication_factor=3',
    });
    const direct = calculateStorage(
      'azure',
      { region: 'westeurope', storage_type: 'ssd', data: 128, duration: 720, replication_factor: 3 },
      defaultDatasets,
    );
    expect(row.co2e_kg).toBe(direct.co2e);
  });
});

describe('summary', () => {
  it('groups by provider, service, region and account; share of cost estimated; reasons by cost', () => {
    const { summary, rows } = run('aws-cur.csv');
    expect(summary.format).toBe('aws-cur');
    expect(summary.rows).toBe(rows.length);
    expect(Object.keys(summary.by_provider)).toEqual(['aws']);
    expect(summary.by_service.AmazonS3?.rows).toBe(2);
    expect(summary.by_account['111100000001']?.rows).toBe(summary.estimated_rows);
    // S3 requests, Lambda requests, Aurora I/O and provisioned EBS IOPS (195): 0.5 + 0.2 + 0.2 + 195 = 195.9
    expect(summary.not_estimated[0]).toEqual({ reason: 'request_based', rows: 4, cost: 195.9 });
    // the unused reservation (50) and the tax line (2.5)
    expect(summary.not_estimated[1]).toEqual({ reason: 'not_usage', rows: 2, cost: 52.5 });
    expect(summary.cost.share_estimated).toBeGreaterThan(0);
    expect(summary.cost.share_estimated).toBeLessThan(1);
  });

  const sumOf = (values: (number | null)[]) =>
    toNumber(
      values.reduce((total, value) => (value === null ? total : add(total, decimal(value))), decimal(0)),
    );

  it('property: totals equal the sums of the rows, for any selection and order of fixture rows', () => {
    const pool = readFixture('aws-cur.csv');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 100000 }), { minLength: 60, maxLength: 60 }),
        fc.boolean(),
        (picks, amounts, costRatio) => {
          const rows = picks.map((pick, index) => ({
            ...pool[pick]!,
            'lineItem/UsageAmount':
              pool[pick]!['lineItem/UsageAmount'] === '' ? '' : String(amounts[index]! / 100),
          }));
          if (rows.length === 0) return;
          const { rows: out, summary } = estimateBilling(rows, defaultDatasets, {
            unknown: costRatio ? 'cost-ratio' : 'off',
          });
          expect(summary.total_kg).toBe(sumOf(out.map((row) => row.co2e_kg)));
          expect(summary.total_kwh).toBe(sumOf(out.map((row) => row.co2e_kwh)));
          expect(summary.estimated_rows).toBe(out.filter((row) => row.co2e_status === 'estimated').length);
          // every group is the exact sum of its rows
          const groupings: [Record<string, { kg: number; rows: number }>, string][] = [
            [summary.by_service, 'lineItem/ProductCode'],
            [summary.by_region, 'product/regionCode'],
            [summary.by_account, 'lineItem/UsageAccountId'],
          ];
          for (const [groups, column] of groupings) {
            for (const [key, group] of Object.entries(groups)) {
              const members = out.filter((row) => row.co2e_status === 'estimated' && row[column] === key);
              expect(group.rows).toBe(members.length);
              expect(group.kg).toBe(sumOf(members.map((row) => row.co2e_kg)));
            }
          }
          expect(summary.by_provider.aws?.kg ?? 0).toBe(summary.estimated_rows === 0 ? 0 : summary.total_kg);
          expect(summary.not_estimated.reduce((total, entry) => total + entry.rows, 0)).toBe(
            summary.not_estimated_rows,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('--unknown cost-ratio', () => {
  it('is off by default; on, it estimates unknown usage from the kg per cost of its category, labelled', () => {
    const off = run('aws-cur.csv');
    expect(off.get('unknown').co2e_status).toBe('not_estimated');
    const on = run('aws-cur.csv', { unknown: 'cost-ratio' });
    const row = on.get('unknown');
    expect(row.co2e_calculator).toBe('cost-ratio');
    // Kinesis ShardHour: a unit of no known dimension, so no category: the ratio of all estimated rows with a cost
    expect(row.co2e_reason).toMatch(
      /^cost_ratio\(was unknown_usage_type; all categories [0-9.e-]+ kg per cost unit\)$/,
    );
    const priced = off.rows.filter(
      (r) => r.co2e_status === 'estimated' && Number(r['lineItem/UnblendedCost']) > 0,
    );
    const kg = priced.reduce((t, r) => add(t, decimal(r.co2e_kg!)), decimal(0));
    const cost = priced.reduce((t, r) => add(t, decimal(String(r['lineItem/UnblendedCost']))), decimal(0));
    expect(row.co2e_kg).toBe(toNumber(div(mul(decimal('10.8'), kg), cost)));
    expect(row.co2e_activity_value).toBe(10.8);
    // an unknown instance type in the Compute category takes the Compute ratio (instance and cpu/memory rows)
    expect(on.get('ec2-unknown-type').co2e_reason).toMatch(
      /^cost_ratio\(was unknown_instance_type; Compute /,
    );
    // rows with other reasons are untouched
    expect(on.get('xfer-internet').co2e_status).toBe('not_estimated');
    expect(on.summary.cost_ratio.rows).toBe(3); // unknown usage, unknown instance type, unknown unit
  });
});

describe('units', () => {
  it.each([
    ['Hrs', 'time', '1', '1'],
    ['10 Hours', 'time', '10', '1'],
    ['seconds', 'time', '1', '1'],
    ['GB-Mo', 'data_month', '1', '1'],
    ['100 GB/Month', 'data_month', '100', '1'],
    ['gibibyte month', 'data_month', '1', '1.073741824'],
    ['byte-seconds', 'data_time', '1', '0.000000001'],
    ['1/Month', 'count_month', '1', '1'],
    ['10K', 'count', '10', '1000'],
    ['bytes', 'data', '1', '0.000000001'],
  ])('%s', (spelling, dimension, count, scale) => {
    expect(parseUsageUnit(spelling)).toMatchObject({ dimension, count, scale });
  });
  it('unknown spellings are undefined', () => {
    expect(parseUsageUnit('Widgets')).toBeUndefined();
    expect(parseUsageUnit('10 Widgets')).toBeUndefined();
  });
  it('a spelling that names an object property is unknown too, not a crash', () => {
    expect(parseUsageUnit('constructor')).toBeUndefined();
    expect(parseUsageUnit('10 toString')).toBeUndefined();
    expect(parseUsageUnit('__proto__')).toBeUndefined();
  });
});

describe('rules are data, checked on load', () => {
  const table = JSON.parse(readFileSync('datasets/billing/rules.json', 'utf8'));
  const cases: [string, (copy: any) => void, RegExp][] = [
    ['a bad pattern', (copy) => (copy.rules[0].when.usage_type = '('), /regular expression/],
    ['a not_estimated rule without reason', (copy) => delete copy.rules[0].reason, /needs a reason/],
    [
      'an unknown replication key',
      (copy) => (copy.rules.find((r: any) => r.replication === 'S3').replication = 'NOPE'),
      /unknown replication factor 'NOPE'/,
    ],
    ['a duplicate id', (copy) => (copy.rules[1].id = copy.rules[0].id), /used twice/],
  ];
  it.each(cases)('%s is invalid_request', (_name, change, message) => {
    const copy = structuredClone(table);
    change(copy);
    expect(() =>
      estimateBilling([{ 'lineItem/UsageType': 'x', 'lineItem/UsageAmount': '1' }], defaultDatasets, {
        rules: copy,
      }),
    ).toThrow(message);
  });
  it('a table of your own replaces the embedded one', () => {
    const copy = structuredClone(table);
    copy.rules = [
      {
        id: 'all-requests',
        provider: 'aws',
        when: { usage_type: '.' },
        then: 'not_estimated',
        reason: 'request_based',
        source: 'test',
      },
    ];
    const { rows } = estimateBilling(readFixture('aws-cur.csv'), defaultDatasets, { rules: copy });
    expect(new Set(rows.map((row) => row.co2e_reason))).toEqual(new Set(['request_based', 'not_usage']));
  });
});

describe('a summary read back from output rows', () => {
  it.each(FIXTURE_FILES)('%s: factsOf(output row) gives the same summary as estimating', (name) => {
    const rows = readFixture(name);
    const estimator = createBillingEstimator(defaultDatasets, rowHeader(rows[0]!));
    const direct = createBillingSummary(estimator.format);
    const readBack = createBillingSummary(estimator.format);
    for (const row of rows) {
      const { row: out, facts } = estimator.estimate(row);
      direct.add(out, facts);
      readBack.add(out, estimator.factsOf(out));
    }
    expect(readBack.result()).toEqual(direct.result());
  });
});
