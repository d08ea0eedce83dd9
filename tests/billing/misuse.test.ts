import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createBillingEstimator, estimateBilling, REASON_CODES } from '../../src/billing/index';
import { EmissionsError } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * `estimateBilling` given what a caller may pass by mistake: every row still gets an answer, and bad arguments are
 * `EmissionsError`s with stable codes, never TypeErrors.
 */

/** docs/billing.md's EC2 line (720 h of a t3.micro in us-east-1). */
const [good] = parse(
  `BilledCost,EffectiveCost,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,SubAccountId,x_ServiceCode,x_UsageType
7.488,7.488,Usage,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,720,Hrs,AWS,us-east-1,Amazon Elastic Compute Cloud,Compute,111100000001,AmazonEC2,BoxUsage:t3.micro`,
  { columns: true },
) as Record<string, string>[];

const errorOf = (call: () => unknown): EmissionsError => {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(EmissionsError);
    return error as EmissionsError;
  }
  throw new Error('expected an EmissionsError');
};

describe('estimateBilling given rows that are not rows', () => {
  const estimated = estimateBilling([good!], defaultDatasets).rows[0]!;

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a string', 'BoxUsage:t3.micro'],
    ['an array', [1, 2]],
  ])('%s between good rows is invalid_row; the good rows are estimated', (_name, bad) => {
    const { rows, summary } = estimateBilling(
      [good!, bad, good!] as unknown as Record<string, unknown>[],
      defaultDatasets,
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(estimated);
    expect(rows[2]).toEqual(estimated);
    expect(rows[1]).toMatchObject({
      co2e_status: 'not_estimated',
      co2e_reason: 'invalid_row',
      co2e_kg: null,
    });
    expect(summary).toMatchObject({ rows: 3, estimated_rows: 2 });
    expect(summary.not_estimated).toEqual([{ reason: 'invalid_row', rows: 1, cost: 0 }]);
  });

  it('a row whose every cell is empty is empty_row, not a line of an unsupported provider', () => {
    const emptied = Object.fromEntries(Object.keys(good!).map((column) => [column, '']));
    const { rows, summary } = estimateBilling([good!, emptied, good!], defaultDatasets);
    expect(rows.map((row) => row.co2e_reason)).toEqual([
      estimated.co2e_reason,
      'empty_row',
      estimated.co2e_reason,
    ]);
    expect(summary.not_estimated).toEqual([{ reason: 'empty_row', rows: 1, cost: 0 }]);
    expect(summary.unclassified).toEqual([]);
  });

  it('a bad first row does not hide the header of the rows after it', () => {
    const { format, rows } = estimateBilling(
      [null, good!] as unknown as Record<string, unknown>[],
      defaultDatasets,
    );
    expect(format).toBe('focus');
    expect(rows[1]).toEqual(estimated);
  });

  it('a row whose property throws when read is invalid_row, not the end of the call', () => {
    const trap = { ...good! };
    Object.defineProperty(trap, 'x_UsageType', {
      enumerable: true,
      get() {
        throw new Error('not readable');
      },
    });
    const { rows } = estimateBilling([good!, trap, good!], defaultDatasets);
    expect(rows.map((row) => row.co2e_reason)).toEqual(['', 'invalid_row', '']);
  });

  it('a nested column whose property throws when read (a GCP JSON row) is invalid_row, not the end of the call', () => {
    const line = (usage: Record<string, unknown>) => ({
      service: { description: 'Compute Engine' },
      sku: { description: 'N1 Predefined Instance Core running in Americas' },
      usage_start_time: '2026-11-01T00:00:00Z',
      location: { region: 'us-central1' },
      cost: 1,
      usage,
      cost_type: 'regular',
    });
    const trap = line({ unit: 'seconds' });
    Object.defineProperty(trap.usage, 'amount', {
      enumerable: true,
      get() {
        throw new Error('not readable');
      },
    });
    const ok = line({ amount: 3600, unit: 'seconds' });
    const { rows, summary } = estimateBilling([ok, trap, ok], defaultDatasets);
    expect(rows.map((row) => row.co2e_reason)).toEqual(['', 'invalid_row', '']);
    expect(rows[0]!.co2e_kg).toBeGreaterThan(0);
    expect(summary).toMatchObject({ rows: 3, estimated_rows: 2 });
  });

  it('a row holding itself in a column is estimated like the row, not lost to a stack overflow', () => {
    const cycle: Record<string, unknown> = { ...good! };
    cycle.self = cycle;
    const { rows } = estimateBilling([good!, cycle, good!], defaultDatasets);
    expect(rows.map((row) => row.co2e_reason)).toEqual(['', '', '']);
    expect(rows[1]!.co2e_kg).toBe(rows[0]!.co2e_kg);
  });

  it('a first row holding itself still gives the header: every row is estimated, not a stack overflow', () => {
    const cycle: Record<string, unknown> = { ...good! };
    cycle.self = cycle;
    const { format, rows } = estimateBilling([cycle, good!], defaultDatasets);
    expect(format).toBe('focus');
    expect(rows.map((row) => row.co2e_kg)).toEqual([estimated.co2e_kg, estimated.co2e_kg]);
  });

  it('invalid_row is one of the listed reasons', () => {
    expect(REASON_CODES).toContain('invalid_row');
  });
});

describe('estimateBilling given bad arguments', () => {
  it.each([
    ['null', null],
    ['an object', { length: 1 }],
    ['a string', 'rows'],
  ])('rows that are %s: invalid_request', (_name, rows) => {
    const error = errorOf(() => estimateBilling(rows as never, defaultDatasets));
    expect(error.error_code).toBe('invalid_request');
    expect(error.path).toBe('rows');
  });

  it.each([
    ['{}', {}],
    ['null', null],
    ['undefined', undefined],
  ])('datasets %s: missing_dataset naming the part', (_name, datasets) => {
    for (const call of [
      () => estimateBilling([good!], datasets as never),
      () => createBillingEstimator(datasets as never, Object.keys(good!)),
    ]) {
      const error = errorOf(call);
      expect(error.error_code).toBe('missing_dataset');
      expect(error.message).toMatch(/cloudRegions|cloudCoefficients|datasets object/);
    }
  });
});
