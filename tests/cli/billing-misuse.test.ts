import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateBilling } from '../../src/billing/index';
import { defaultDatasets } from '../../src/embedded/index';
import { cli, tempFile, tempPath } from './harness';

/**
 * `co2e-engine billing FILE` given inputs a misuse probe found misread: each case states what a bill means and
 * checks the command reads it so.
 */

/** One GCP BigQuery JSON export line (one vCPU of an N1 instance for `amount` seconds), numbers as written. */
const gcpLine = (amount: string, cost: string, project: string) =>
  `{"service":{"description":"Compute Engine"},"sku":{"description":"N1 Predefined Instance Core running in Americas"},"usage_start_time":"2023-03-01 00:00:00 UTC","project":{"id":${project}},"location":{"region":"us-central1"},"cost":${cost},"currency":"USD","usage":{"amount":${amount},"unit":"seconds"}}`;

async function billJsonl(name: string, lines: string[], extra: string[] = []) {
  const input = tempFile(`${name}.jsonl`, `${lines.join('\n')}\n`);
  const out = tempPath(`${name}-out.jsonl`);
  const summaryFile = tempPath(`${name}-summary.json`);
  const run = await cli(['billing', input, '--out', out, '--summary', summaryFile, ...extra]);
  const text = readFileSync(out, 'utf8');
  const rows = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...run, text, rows, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
}

describe('JSON Lines numbers as a BigQuery export writes them', () => {
  // `3600` seconds is one CPU-hour: the reference line. The same number spelled `3600.0`, `3.6e3`, `36e2` or
  // `360000e-2` is the same quantity, so it gives the same estimate; `1.50` is a cost of 1.5 and a 20-digit project
  // id is that id, digit for digit.
  const reference = billJsonl('plain', [gcpLine('3600', '1.5', '"p1"')]);

  it.each(['3600.0', '3.6e3', '36e2', '360000e-2'])('amount %s reads as 3600 seconds', async (amount) => {
    const plain = await reference;
    expect(plain.rows[0]).toMatchObject({ co2e_status: 'estimated', co2e_activity_value: 1 });
    const spelled = await billJsonl(`amount-${amount}`, [gcpLine(amount, '1.50', '"p1"')]);
    expect(spelled.code).toBe(0);
    const pick = (row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => key.startsWith('co2e_')));
    expect(pick(spelled.rows[0]!)).toEqual(pick(plain.rows[0]!));
    // The input columns pass through as written.
    expect(spelled.text).toContain(`"amount":${amount},`);
  });

  it('a cost of 1.50 counts 1.5 and a 20-digit project id is kept as its digits', async () => {
    for (const extra of [[], ['--unknown', 'cost-ratio']]) {
      const { summary } = await billJsonl(
        `cost${extra.length}`,
        [gcpLine('3600.0', '1.50', '12345678901234567890')],
        extra,
      );
      expect(summary.cost).toMatchObject({ total: 1.5, estimated: 1.5, share_estimated: 1 });
      expect(Object.keys(summary.by_account)).toEqual(['12345678901234567890']);
    }
  });
});

/** docs/billing.md's FOCUS header, and rows of one AWS account's November in it. */
const FOCUS_HEADER =
  'BilledCost,EffectiveCost,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,SubAccountId,x_ServiceCode,x_UsageType';
const EC2 = (cost: string) =>
  `${cost},${cost},Usage,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,720,Hrs,AWS,us-east-1,Amazon Elastic Compute Cloud,Compute,111100000001,AmazonEC2,BoxUsage:t3.micro`;
const EGRESS = (cost: string) =>
  `${cost},${cost},Usage,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,120,GB,AWS,us-east-1,AWS Data Transfer,Networking,111100000001,AWSDataTransfer,DataTransfer-Out-Bytes`;
const CREDIT = (cost: string) =>
  `${cost},${cost},Credit,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,,,AWS,,Amazon Elastic Compute Cloud,Compute,111100000001,AmazonEC2,`;

async function billFocus(name: string, lines: string[]) {
  const input = tempFile(`${name}.csv`, `${[FOCUS_HEADER, ...lines].join('\n')}\n`);
  const summaryFile = tempPath(`${name}-summary.json`);
  const run = await cli(['billing', input, '--out', tempPath(`${name}-out.csv`), '--summary', summaryFile]);
  return { ...run, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
}

describe('the share of cost estimated, with credits', () => {
  // The share is of the charges (positive costs): a credit lowers the bill, not the usage that was estimated.
  it.each([
    ['a credit larger than the usage', [EC2('7.488'), CREDIT('-10')], 1, '100.0 %'],
    ['a credit equal to the usage', [EC2('7.488'), CREDIT('-7.488')], 1, '100.0 %'],
    // 7.488 of 7.488 + 10.8 = 18.288 charged: 40.94 %.
    ['usage, egress and a credit', [EC2('7.488'), EGRESS('10.8'), CREDIT('-10')], 7.488 / 18.288, '40.9 %'],
  ])('%s', async (name, lines, share, headline) => {
    const { code, stderr, summary } = await billFocus(name.replaceAll(' ', '-'), lines);
    expect(code).toBe(0);
    expect(summary.cost.share_estimated).toBeCloseTo(share, 15);
    expect(stderr).toContain(`${headline} of cost estimated`);
  });

  it('the net total and the charges are both in the summary', async () => {
    const { summary } = await billFocus('totals', [EC2('7.488'), EGRESS('10.8'), CREDIT('-10')]);
    // 7.488 + 10.8 - 10 = 8.288 net; 18.288 charged, 7.488 of it estimated.
    expect(summary.cost).toMatchObject({
      total: 8.288,
      estimated: 7.488,
      charges: 18.288,
      estimated_charges: 7.488,
    });
  });
});

it('property: the share of cost estimated is null or between 0 and 1, whatever the signs of the costs', () => {
  const line = fc.constantFrom(EC2, EGRESS, CREDIT);
  const cost = fc.integer({ min: -100_000, max: 100_000 }).map((cents) => (cents / 100).toFixed(2));
  fc.assert(
    fc.property(fc.array(fc.tuple(line, cost), { minLength: 1, maxLength: 8 }), (lines) => {
      const text = [FOCUS_HEADER, ...lines.map(([make, value]) => make(value))].join('\n');
      const rows = parse(text, { columns: true }) as Record<string, string>[];
      const share = estimateBilling(rows, defaultDatasets).summary.cost.share_estimated;
      expect(share === null || (share >= 0 && share <= 1)).toBe(true);
    }),
  );
});

describe('a cost that cannot be read', () => {
  // `1,234.50` and `$5.00` are costs, but not plain numbers: the bill's cost of those lines is unknown, so the share
  // of cost estimated is unknown too, and the summary counts them (they are not lines that cost nothing).
  it('is counted, and the share is not computed as if it were 0', async () => {
    const { code, stderr, summary } = await billFocus('unreadable', [
      EC2('7.488'),
      EGRESS('"1,234.50"'),
      EGRESS('$5.00'),
    ]);
    expect(code).toBe(0);
    expect(summary.cost).toMatchObject({
      total: 7.488,
      estimated: 7.488,
      unreadable_rows: 2,
      share_estimated: null,
    });
    expect(stderr).not.toContain('100.0 % of cost estimated');
    expect(stderr).toContain('2 lines have a cost that is not a plain number');
  });

  it('an empty cost is no cost, not an unreadable one', async () => {
    const { summary } = await billFocus('empty-cost', [EC2('7.488'), EGRESS('')]);
    expect(summary.cost).toMatchObject({ total: 7.488, unreadable_rows: 0, share_estimated: 1 });
  });
});

describe("an all-empty CSV line (Excel's ,,,,)", () => {
  // The shared CSV reader skips it as it skips a blank line (tests/cli/empty-rows.test.ts); billing must not answer
  // it as a line of an unsupported provider or of unknown usage. A record with no cells from elsewhere (the library,
  // JSON Lines) is empty_row (tests/billing/misuse.test.ts).
  it.each([
    ['FOCUS', FOCUS_HEADER, EC2('7.488')],
    [
      'a legacy CUR',
      'lineItem/UsageType,lineItem/UsageAmount,pricing/unit,product/regionCode,lineItem/UnblendedCost',
      'BoxUsage:t3.micro,720,Hrs,us-east-1,7.488',
    ],
  ])('in %s is skipped', async (name, header, line) => {
    const commas = ','.repeat(header.split(',').length - 1);
    const input = tempFile(`empty-${name}.csv`, `${header}\n${line}\n${commas}\n${line}\n`);
    const summaryFile = tempPath(`empty-${name}-summary.json`);
    const out = tempPath(`empty-${name}-out.csv`);
    const { code } = await cli(['billing', input, '--out', out, '--summary', summaryFile]);
    expect(code).toBe(0);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.co2e_status)).toEqual(['estimated', 'estimated']);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(summary.not_estimated).toEqual([]);
    expect(summary.unclassified).toEqual([]);
  });
});

describe('a bill in several currencies', () => {
  const header = `${FOCUS_HEADER},BillingCurrency`;
  const unknownUsage = (cost: string) =>
    `${cost},${cost},Usage,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,5,Hrs,AWS,us-east-1,Amazon Elastic Compute Cloud,Compute,111100000001,AmazonEC2,SomethingNew:x9.huge`;
  const lines = [
    `${EC2('7.488')},USD`,
    `${unknownUsage('2')},USD`,
    `${unknownUsage('1000')},JPY`,
    `${EGRESS('10.8')},EUR`,
  ];

  async function run(name: string, extra: string[]) {
    const input = tempFile(`${name}.csv`, `${[header, ...lines].join('\n')}\n`);
    const out = tempPath(`${name}-out.csv`);
    const summaryFile = tempPath(`${name}-summary.json`);
    const result = await cli(['billing', input, '--out', out, '--summary', summaryFile, ...extra]);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
    return { ...result, rows, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
  }

  it('--unknown cost-ratio: a cost in yen is not given the kg per dollar', async () => {
    const { code, rows } = await run('currencies-ratio', ['--unknown', 'cost-ratio']);
    expect(code).toBe(0);
    const ec2 = Number(rows[0]!.co2e_kg);
    // The USD row of unknown usage: 2 dollars × the kg per dollar of the estimated USD Compute rows (the EC2 line).
    expect(rows[1]).toMatchObject({ co2e_status: 'estimated', co2e_calculator: 'cost-ratio' });
    expect(Number(rows[1]!.co2e_kg)).toBeCloseTo((2 * ec2) / 7.488, 15);
    expect(rows[2]).toMatchObject({ co2e_status: 'not_estimated', co2e_reason: 'no_cost_ratio_in_currency' });
  });

  it('the summary gives the cost per currency, and no share across currencies', async () => {
    const { stderr, summary } = await run('currencies-summary', []);
    expect(summary.cost.currencies).toEqual(['EUR', 'JPY', 'USD']);
    expect(summary.cost.share_estimated).toBeNull();
    expect(summary.cost.by_currency).toEqual({
      EUR: {
        total: 10.8,
        estimated: 0,
        charges: 10.8,
        estimated_charges: 0,
        share_estimated: 0,
        unreadable_rows: 0,
      },
      JPY: {
        total: 1000,
        estimated: 0,
        charges: 1000,
        estimated_charges: 0,
        share_estimated: 0,
        unreadable_rows: 0,
      },
      USD: {
        total: 9.488,
        estimated: 7.488,
        charges: 9.488,
        estimated_charges: 7.488,
        share_estimated: 7.488 / 9.488,
        unreadable_rows: 0,
      },
    });
    expect(stderr).toContain('costs in 3 currencies: EUR 0.0 %, JPY 0.0 %, USD 78.9 % of cost estimated');
  });
});
