import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { estimateBilling } from '../../src/billing/index';
import { monthHours } from '../../src/billing/classify';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * The month of a charge period start, which sets the hours of a GB-month: the same on every machine (a date-time
 * without a zone is its own calendar date, whatever the machine's zone), and no month for a date that does not exist.
 */

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** docs/billing.md's EBS gp3 line (100 GB-Mo in us-east-1), with the charge period start given. */
const ebs = (start: string) =>
  parse(
    `BilledCost,EffectiveCost,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,SubAccountId,x_ServiceCode,x_UsageType
8,8,Usage,${start},,100,GB-Mo,AWS,us-east-1,Amazon Elastic Compute Cloud,Storage,111100000001,AmazonEC2,EBS:VolumeUsage.gp3`,
    { columns: true },
  ) as Record<string, string>[];

describe('the month of a charge period start', () => {
  // Each zone its own spellings (seconds 0, 1, 2): a month is kept per spelling once read.
  it.each([
    ['UTC', 0],
    ['Asia/Tokyo', 1],
    ['America/Los_Angeles', 2],
  ])('a date-time without a zone is its own date in %s', (timeZone, second) => {
    process.env.TZ = timeZone;
    // March: 31 days × 24 = 744 h. 100 GB × 744 h × EBS replication 2 = 148.8 TB-hour × 1.2 Wh × PUE 1.135 ×
    // 0.434 kg/kWh (us-east-1) = 0.0879568704 kg.
    const [row] = estimateBilling(ebs(`2023-03-01 00:00:0${second}`), defaultDatasets).rows;
    expect(row).toMatchObject({
      co2e_reason: 'gb_month_as_744h(2023-03); replication_factor=2',
      co2e_kg: 0.0879568704,
    });
    expect(monthHours(`2023-03-01T00:00:0${second}`)).toEqual({ hours: 744, month: '2023-03' });
    // February 2024: 29 days × 24 = 696 h, to its last second.
    expect(monthHours(`2024-02-29 23:59:5${second}`)).toEqual({ hours: 696, month: '2024-02' });
  });

  it.each([
    ['2023-03-01T00:00:00Z', 744, '2023-03'],
    ['2023-03-01 00:00:00 UTC', 744, '2023-03'],
    ['2023-03-01T00:00:00.0000000Z', 744, '2023-03'],
    ['2023-03-01', 744, '2023-03'],
    ['09/22/2023', 720, '2023-09'],
    ['2/1/2024', 696, '2024-02'],
    // An explicit offset is a moment: 00:00 at +09:00 is 15:00 UTC on the last day of February (28 days: 672 h).
    ['2023-03-01T00:00:00+09:00', 672, '2023-02'],
  ])('%s is %s h of %s', (start, hours, month) => {
    process.env.TZ = 'Asia/Tokyo';
    expect(monthHours(start)).toEqual({ hours, month });
  });

  it.each([
    '2023-02-30T00:00:00Z',
    '2023-02-29',
    '13/21/2023',
    '02/30/2023',
    '2023-13-01',
    '2023-03-01T25:00:00Z',
  ])('%s does not exist: no month, and a GB-month counts 730 h', (start) => {
    expect(monthHours(start)).toBeUndefined();
    const [row] = estimateBilling(ebs(start), defaultDatasets).rows;
    expect(row!.co2e_reason).toBe('gb_month_as_730h; replication_factor=2');
  });
});
