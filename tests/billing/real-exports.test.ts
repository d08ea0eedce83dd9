import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BilledRow,
  createBillingEstimator,
  createBillingSummary,
  estimateBilling,
  FORMATS,
  rowHeader,
} from '../../src/billing/index';
import { add, type Decimal, decimal, toNumber } from '../../src/core/decimal';
import { calculateCpu, calculateInstance, calculateNetworking, calculateStorage } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { readSharedData, skipWithoutSharedData } from '../shared-data';
import { FIXTURE_FILES, idOf, readFixture } from './fixtures';

/**
 * Bills as they really come (issue 34). The Azure EA exports are real (../shared/data/billing/, MIT: "Copyright (c)
 * Microsoft Corporation" for finops-toolkit, "Copyright (c) 2023 FinOps Foundation" for focus_converters), read at
 * test time. The FOCUS files without vendor columns are written (tests/billing/fixtures/README.md), not real.
 * Expected figures come from the calculators called with the quantities read by hand from each row.
 */

function run(name: string) {
  const input = readFixture(name);
  const result = estimateBilling(input, defaultDatasets);
  const byId = new Map(result.rows.map((row) => [idOf(row), row]));
  return { ...result, input, get: (id: string) => byId.get(id)! };
}

const share = (rows: BilledRow[]) =>
  rows.filter((row) => row.co2e_status === 'estimated').length / rows.length;

describe('FOCUS with the specification columns only (AWS rows, written from the published descriptions)', () => {
  const { rows, get } = run('focus-spec-aws.csv');
  const ec2 = rows.filter((row) => row.ResourceType === 'Instance' && row.ChargeCategory === 'Usage');
  const block = rows.filter((row) =>
    /GB-[Mm]onth of .*(provisioned storage|snapshot)/.test(String(row.ChargeDescription)),
  );
  const transfer = rows.filter((row) => /data transfer to /.test(String(row.ChargeDescription)));

  it('the file has no vendor column', () => {
    expect(rowHeader(readFixture('focus-spec-aws.csv')[0]!).filter((name) => name.startsWith('x_'))).toEqual(
      [],
    );
  });

  it('≥ 95 % of EC2 instance-hour rows (19 of 20), all 10 block-storage rows, all 10 inter-region rows estimated', () => {
    expect([ec2.length, block.length, transfer.length]).toEqual([20, 10, 10]);
    expect(share(ec2)).toBe(0.95);
    expect(share(block)).toBe(1);
    expect(share(transfer)).toBe(1);
    // The one not estimated names no instance type: it says so, and --unknown cost-ratio may take it.
    expect(get('i-ec2-spot-no-type').co2e_reason).toBe('unknown_instance_type');
  });

  it.each([
    ['i-ec2-linux-t3', 't3.micro', 'us-east-1', 720],
    ['i-ec2-windows', 'm5.large', 'us-east-1', 100],
    ['i-ec2-c5-2xl', 'c5.2xlarge', 'us-east-1', 720],
    ['i-ec2-r5', 'r5.xlarge', 'eu-west-1', 300],
    ['i-ec2-m5-tokyo', 'm5.large', 'ap-northeast-1', 720],
    ['i-ec2-ri-applied', 'm5.large', 'us-east-1', 720],
    ['i-ec2-spot', 'm5.large', 'us-east-1', 200],
    ['i-ec2-m6i', 'm6i.xlarge', 'us-east-1', 10.5],
    ['db-rds-mysql', 't3.micro', 'us-east-1', 720],
  ])('%s equals calculateInstance(%s, %s, %s h)', (id, instance, region, duration) => {
    const expected = calculateInstance('aws', { instance, region, duration }, defaultDatasets);
    expect(get(id)).toMatchObject({ co2e_status: 'estimated', co2e_kg: expected.total_co2e });
  });

  it.each([
    ['vol-gp3', 'ssd', 100, 2],
    ['vol-io1', 'ssd', 200, 2],
    ['vol-st1', 'hdd', 500, 2],
    ['vol-sc1', 'hdd', 1000, 2],
    ['vol-magnetic', 'hdd', 10, 2],
    ['snap-1', 'hdd', 40, 3],
    ['bucket-std', 'hdd', 1000, 6],
  ] as const)(
    '%s: %s, %s GB × 720 h (November) × replication %s equals calculateStorage',
    (id, type, gb, replication) => {
      const expected = calculateStorage(
        'aws',
        { region: 'us-east-1', storage_type: type, data: gb, duration: 720, replication_factor: replication },
        defaultDatasets,
      );
      expect(get(id)).toMatchObject({ co2e_status: 'estimated', co2e_kg: expected.co2e });
    },
  );

  it.each([
    ['xfer-use1-usw2', 'us-east-1', 10],
    ['xfer-euw1-use1', 'eu-west-1', 30],
    ['xfer-apne1-usw2', 'ap-northeast-1', 2],
  ])(
    '%s: transfer counted at its sending region (%s, %s GB) equals calculateNetworking',
    (id, region, data) => {
      expect(get(id).co2e_kg).toBe(calculateNetworking('aws', { region, data }, defaultDatasets).co2e);
    },
  );

  it('internet egress, ingress, regional transfer and requests are not estimated, each with its reason', () => {
    const reasons = Object.fromEntries(
      [
        'xfer-internet',
        'xfer-cloudfront',
        'xfer-in',
        'xfer-from-usw2',
        'xfer-regional',
        'bucket-put',
        'fn-requests',
        'vol-gp3-iops',
        'tax-1',
        'ri-fee',
        'sp-unused',
      ].map((id) => [id, get(id).co2e_reason]),
    );
    expect(reasons).toEqual({
      'xfer-internet': 'internet_egress_out_of_scope',
      'xfer-cloudfront': 'internet_egress_out_of_scope',
      'xfer-in': 'ingress_out_of_scope',
      'xfer-from-usw2': 'counted_at_sending_region',
      'xfer-regional': 'intra_region_transfer_out_of_scope',
      'bucket-put': 'request_based',
      'fn-requests': 'request_based',
      'vol-gp3-iops': 'request_based',
      'tax-1': 'not_usage',
      'ri-fee': 'not_usage',
      'sp-unused': 'not_usage',
    });
  });

  it('the summary names what the file lacked', () => {
    const { summary } = run('focus-spec-aws.csv');
    expect(summary.missing_columns).toContain(
      'no x_UsageType: AWS instance types, storage classes and transfer directions read from ChargeDescription',
    );
  });
});

describe('FOCUS with the specification columns only (Microsoft rows)', () => {
  const { get } = run('focus-spec-azure.csv');
  it('VMs, managed disks, database vCores and inter-region transfer are estimated; operations and egress are not', () => {
    expect(get('vm-d2s').co2e_kg).toBe(
      calculateInstance('azure', { instance: 'D2s_v3', region: 'eastus', duration: 24 }, defaultDatasets)
        .total_co2e,
    );
    // P10 = 128 GB (CCF table) × 0.033333 months × 720 h × LRS 3.
    expect(get('disk-p10').co2e_kg).toBe(
      calculateStorage(
        'azure',
        { region: 'eastus', storage_type: 'ssd', data: 128 * 0.033333, duration: 720, replication_factor: 3 },
        defaultDatasets,
      ).co2e,
    );
    expect(get('disk-s4').co2e_reason).toContain('disk_gb=32');
    expect(get('db-1').co2e_kg).toBe(
      calculateCpu('azure', { cpu_count: 2, region: 'eastus', duration: 24 }, defaultDatasets).co2e,
    );
    expect(get('xfer').co2e_kg).toBe(
      calculateNetworking('azure', { region: 'eastus', data: 10 }, defaultDatasets).co2e,
    );
    expect([get('disk-ops').co2e_reason, get('ops').co2e_reason, get('egress').co2e_reason]).toEqual([
      'request_based',
      'request_based',
      'internet_egress_out_of_scope',
    ]);
  });
});

describe('legacy CUR with product/regionCode empty', () => {
  const { rows, get } = run('aws-cur-regions.csv');
  it('no row that names its region in another column is unknown_region; inter-region transfer out is estimated', () => {
    const named = rows.filter((row) => row['lineItem/ResourceId'] !== 'cur-no-region');
    expect(named.filter((row) => row.co2e_reason === 'unknown_region')).toEqual([]);
    expect(get('cur-no-region').co2e_reason).toBe('unknown_region');
    expect(get('cur-xfer-inter-region').co2e_kg).toBe(
      calculateNetworking('aws', { region: 'us-east-1', data: 10 }, defaultDatasets).co2e,
    );
    // Only a location name (`EU (Ireland)`): the published name resolves to eu-west-1.
    expect(get('cur-xfer-from-location').co2e_kg).toBe(
      calculateNetworking('aws', { region: 'eu-west-1', data: 30 }, defaultDatasets).co2e,
    );
    expect(get('cur-ec2-location').co2e_kg).toBe(
      calculateInstance('aws', { instance: 't3.micro', region: 'eu-west-1', duration: 720 }, defaultDatasets)
        .total_co2e,
    );
  });
});

describe('every candidate column: the preferred one empty, the next one read', () => {
  const swapped = (rows: Record<string, unknown>[], first: string, second: string) =>
    rows.map((row) => {
      const copy: Record<string, unknown> = { ...row, [second]: row[first] ?? '' };
      copy[first] = '';
      return copy;
    });
  const cases = FIXTURE_FILES.filter((name) => !name.endsWith('.jsonl')).flatMap((name) => {
    const rows = readFixture(name);
    const format = FORMATS.find(
      (spec) => spec.id === createBillingEstimator(defaultDatasets, rowHeader(rows[0]!)).format,
    )!;
    const present = new Set(Object.keys(rows[0]!));
    return (['region', 'quantity', 'usage_type', 'instance_hint', 'service_code'] as const).flatMap(
      (field) => {
        const names = format.columns[field] ?? [];
        const first = names.find((column) => present.has(column));
        const second = names.find((column) => column !== first);
        // A column that also fills another field (FOCUS ChargeDescription) cannot be emptied for one field alone.
        const shared = Object.entries(format.columns).some(
          ([other, columns]) => other !== field && other !== 'unit' && columns.includes(first ?? ''),
        );
        return first === undefined || second === undefined || shared
          ? []
          : [[name, field, first, second] as const];
      },
    );
  });
  it.each(cases)('%s: %s from %s moved to %s gives the same rows', (name, field, first, second) => {
    const rows = readFixture(name);
    let moved = swapped(rows, first, second);
    if (field === 'quantity') {
      const format = FORMATS.find((spec) => spec.columns.quantity?.includes(first))!;
      const units = format.columns.unit ?? [];
      const index = format.columns.quantity!.indexOf(second);
      if (units[0] !== undefined && units[index] !== undefined && units[index] !== units[0])
        moved = swapped(moved, units[0], units[index]!);
    }
    const strip = (out: BilledRow[]) => out.map((row) => [row.co2e_status, row.co2e_reason, row.co2e_kg]);
    expect(strip(estimateBilling(moved, defaultDatasets).rows)).toEqual(
      strip(estimateBilling(rows, defaultDatasets).rows),
    );
  });
  it('covers region, quantity and usage type of several formats', () => {
    expect(cases.length).toBeGreaterThanOrEqual(6);
  });
});

describe.skipIf(skipWithoutSharedData)(
  'the Azure EA samples (real, finops-toolkit and focus_converters)',
  () => {
    const read = (path: string) =>
      parse(readSharedData(`billing/${path}`), { columns: true, bom: true }) as Record<string, string>[];
    const files = [
      'finops-toolkit/EA_ActualCost_Small.csv',
      'finops-toolkit/EA_AmortizedCost_Small.csv',
      'focus-converters/sample-anonymous-ea-export-dataset.csv',
    ];
    // A skipped suite's body still runs when vitest collects it: without the data there is nothing to estimate.
    const all = skipWithoutSharedData
      ? []
      : files.flatMap((path) => estimateBilling(read(path), defaultDatasets).rows);
    const usage = all.filter((row) => row.ChargeType === 'Usage');

    it('every VM usage row, managed disk, database vCore and inter-region transfer row is estimated', () => {
      const groups = {
        vm: usage.filter((row) => row.MeterCategory === 'Virtual Machines'),
        disk: usage.filter(
          (row) =>
            /Managed Disks/.test(String(row.MeterSubCategory)) && / Disks?$/.test(String(row.MeterName)),
        ),
        vcore: usage.filter(
          (row) =>
            /Azure Database for/.test(String(row.MeterCategory)) && /vCore/.test(String(row.MeterName)),
        ),
        transfer: usage.filter((row) => row.MeterSubCategory === 'Inter-Region'),
      };
      expect(Object.values(groups).map((rows) => rows.length)).toEqual([11, 5, 2, 3]);
      for (const rows of Object.values(groups)) expect(share(rows)).toBe(1);
    });

    it('SQL licences are licence, disk and storage operations request_based, the reservation purchase not_usage', () => {
      const reasons = (test: (row: BilledRow) => boolean) => [
        ...new Set(all.filter(test).map((row) => row.co2e_reason)),
      ];
      expect(reasons((row) => /SQL License/.test(String(row.MeterSubCategory)))).toEqual(['licence']);
      expect(reasons((row) => /Operations$/.test(String(row.MeterName)))).toEqual(['request_based']);
      expect(reasons((row) => row.ChargeType === 'Purchase')).toEqual(['not_usage']);
    });

    it('each estimated row equals its calculator, called with the row quantities', () => {
      for (const row of all.filter((out) => out.co2e_status === 'estimated')) {
        const region = String(row.ResourceLocation).toLowerCase();
        const quantity = Number(row.Quantity);
        const expected =
          row.co2e_calculator === 'instance'
            ? calculateInstance(
                'azure',
                {
                  instance: String(row.co2e_activity_unit === 'instance-hour' ? instanceOf(row) : ''),
                  region,
                  duration: quantity,
                },
                defaultDatasets,
              ).total_co2e
            : row.co2e_calculator === 'cpu'
              ? calculateCpu(
                  'azure',
                  {
                    cpu_count: Number(/^(\d+) vCore/.exec(String(row.MeterName))?.[1] ?? 1),
                    region,
                    duration: quantity,
                  },
                  defaultDatasets,
                ).co2e
              : row.co2e_calculator === 'networking'
                ? calculateNetworking('azure', { region, data: quantity }, defaultDatasets).co2e
                : calculateStorage(
                    'azure',
                    {
                      region,
                      storage_type: /HDD/.test(String(row.MeterSubCategory)) ? 'hdd' : 'ssd',
                      data: quantity * DISK_GB[/^([PES]\d+)/.exec(String(row.MeterName))![1]!]!,
                      duration: 720, // September 2023
                      replication_factor: 3, // CCF Azure LRS / managed disks
                    },
                    defaultDatasets,
                  ).co2e;
        expect([row.MeterName, row.co2e_kg]).toEqual([row.MeterName, expected]);
      }
    });

    it('actual and amortized exports give the same kg for the same usage line', () => {
      const key = (row: Record<string, unknown>) =>
        [row.ResourceId, row.MeterId, row.Date, row.Quantity].join('|');
      const actual = estimateBilling(read(files[0]!), defaultDatasets).rows;
      const amortized = new Map(
        estimateBilling(read(files[1]!), defaultDatasets).rows.map((row) => [key(row), row]),
      );
      const shared = actual.filter((row) => amortized.has(key(row)) && row.ChargeType === 'Usage');
      expect(shared.length).toBeGreaterThanOrEqual(9);
      for (const row of shared) expect(amortized.get(key(row))!.co2e_kg).toBe(row.co2e_kg);
    });
  },
);

/** The VM size the export's AdditionalInfo names, else the meter's (`D2 v3/D2s v3` → D2s_v3). */
function instanceOf(row: BilledRow): string {
  const info = String(row.AdditionalInfo ?? '');
  const service = /"ServiceType":"([^"]+)"/.exec(info)?.[1];
  if (service !== undefined) return service;
  return String(row.MeterName)
    .split('/')
    .pop()!
    .replace(/ Spot$/, '')
    .trim()
    .replace(/\s+/g, '_');
}

/** CCF's managed disk sizes, GB (packages/azure/src/lib/ConsumptionTypes.ts), for the tiers in the samples. */
const DISK_GB: Record<string, number> = { P4: 32, P10: 128, P30: 1024, E2: 8 };

describe('group by tag, resource, account, service, region, month', () => {
  it('--group-by tag:team totals equal the sums of their rows (FOCUS Tags JSON)', () => {
    const { rows, summary } = estimateBilling(readFixture('focus-spec-aws.csv'), defaultDatasets, {
      groupBy: ['tag:team', 'resource', 'month'],
    });
    const team = (row: BilledRow) => (JSON.parse(String(row.Tags)) as { team?: string }).team ?? '(none)';
    const sums = new Map<string, Decimal>();
    for (const row of rows)
      if (row.co2e_kg !== null)
        sums.set(team(row), add(sums.get(team(row)) ?? decimal(0), decimal(row.co2e_kg)));
    const groups = summary.groups!['tag:team']!;
    expect(Object.keys(groups).sort()).toEqual([...sums.keys()].sort());
    for (const [key, kg] of sums) expect(groups[key]!.kg).toBe(toNumber(kg));
    expect(Object.keys(groups).sort()).toEqual(['(none)', 'data', 'web']);
    expect(Object.keys(summary.groups!['month']!)).toEqual(['2026-11']);
    expect(summary.groups!['resource']!['i-ec2-c5-2xl']!.kg).toBe(
      rows.find((row) => row.ResourceId === 'i-ec2-c5-2xl')!.co2e_kg,
    );
  });

  it('CUR resourceTags/user:* columns and Azure Tags (no braces) are tags too', () => {
    const cur = estimateBilling(readFixture('aws-cur-regions.csv'), defaultDatasets, {
      groupBy: ['tag:team'],
    });
    expect(Object.keys(cur.summary.groups!['tag:team']!).sort()).toEqual(['(none)', 'data', 'web']);
    const azure = estimateBilling(readFixture('azure-export.csv'), defaultDatasets, { groupBy: ['tag:env'] });
    expect(azure.summary.groups!['tag:env']!['prod']!.rows).toBe(1);
  });

  it('GCP labels, nested (JSON Lines) and as JSON text (CSV), group by tag', () => {
    const line = (team: string, amount: number) => ({
      service: { description: 'Compute Engine' },
      sku: { description: 'N1 Predefined Instance Core running in Americas' },
      usage_start_time: '2026-11-01T00:00:00Z',
      location: { region: 'us-central1' },
      cost: 1,
      usage: { amount, unit: 'seconds' },
      cost_type: 'regular',
      labels: [{ key: 'team', value: team }],
    });
    const nested = [line('web', 3600), line('web', 7200), line('data', 3600)];
    const flat = nested.map((row) => ({
      'service.description': row.service.description,
      'sku.description': row.sku.description,
      usage_start_time: row.usage_start_time,
      'location.region': row.location.region,
      cost: String(row.cost),
      'usage.amount': String(row.usage.amount),
      'usage.unit': row.usage.unit,
      cost_type: row.cost_type,
      labels: JSON.stringify(row.labels),
    }));
    const cpu = (hours: number) =>
      calculateCpu('gcp', { cpu_count: 1, region: 'us-central1', duration: hours }, defaultDatasets).co2e;
    for (const rows of [nested, flat]) {
      const groups = estimateBilling(rows, defaultDatasets, { groupBy: ['tag:team'] }).summary.groups![
        'tag:team'
      ]!;
      expect(groups['data']).toEqual({ kg: cpu(1), rows: 1 });
      expect(groups['web']!.rows).toBe(2);
      expect(groups['web']!.kg).toBe(toNumber(add(decimal(cpu(1)), decimal(cpu(2)))));
    }
  });

  it('property: per tag, the group totals are the exact sums of their rows, whatever the rows and tags', () => {
    const source = readFixture('focus-spec-aws.csv');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(source.length - 1), fc.constantFrom('a', 'b', 'c', '')), { maxLength: 40 }),
        (picks) => {
          const rows = picks.map(([index, team]) => ({
            ...source[index]!,
            Tags: team === '' ? '{}' : JSON.stringify({ team }),
          }));
          if (rows.length === 0) return;
          const { rows: out, summary } = estimateBilling(rows, defaultDatasets, { groupBy: ['tag:team'] });
          const sums = new Map<string, Decimal>();
          out.forEach((row, index) => {
            if (row.co2e_kg === null) return;
            const key = picks[index]![1] || '(none)';
            sums.set(key, add(sums.get(key) ?? decimal(0), decimal(row.co2e_kg)));
          });
          const groups = summary.groups!['tag:team']!;
          expect(Object.keys(groups).sort()).toEqual([...sums.keys()].sort());
          for (const [key, kg] of sums) expect(groups[key]!.kg).toBe(toNumber(kg));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('an unknown grouping is invalid_request', () => {
    expect(() => createBillingSummary('focus', { groupBy: ['colour'] })).toThrow(/group-by/);
  });
});

describe('a header that is no supported export', () => {
  it('names the formats and the columns looked for', () => {
    expect(() => estimateBilling([{ date: '2026-11-01', amount: '1' }], defaultDatasets)).toThrow(
      /FOCUS 1\.0–1\.2.*Columns looked for: focus: BilledCost, ChargeCategory/,
    );
  });
  it('says plainly that an OCI cost report is not supported', () => {
    expect(() =>
      estimateBilling(
        [
          {
            'lineItem/referenceNo': 'x',
            'product/service': 'COMPUTE',
            'usage/billedQuantity': '1',
            'cost/myCost': '1',
          },
        ],
        defaultDatasets,
      ),
    ).toThrow(/OCI cost report: not supported/);
  });
});
