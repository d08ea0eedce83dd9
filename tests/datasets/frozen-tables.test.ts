import { describe, expect, it } from 'vitest';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { calculateCpu, calculateSpend, createTableDatasets, type SpendFactorsTable } from '../../src/index';

// Issue 23 item 7: a table changed after createTableDatasets changed the estimates built on it (co2e -0.217).
describe('createTableDatasets holds its own frozen copy of every table', () => {
  const spendTable = (): SpendFactorsTable => ({
    ...defaultTables.spendFactors,
    factors: [
      {
        product: 'acme-steel',
        region: 'DE',
        kgco2e: 1.25,
        name: 'ACME steel',
        activity_id: 'acme-steel',
        data_quality_flags: [],
      },
    ],
  });
  const request = {
    activity: { activity_id: 'acme-steel' },
    spend_year: 2019,
    spend_region: 'DE',
    money: 1000,
    money_unit: 'eur',
    tax_margin: 0,
    trade_margin: 0,
    transport_margin: 0,
  } as const;

  it('an estimate does not move when the caller mutates the table afterwards', () => {
    const table = spendTable();
    const datasets = { ...defaultDatasets, ...createTableDatasets({ spendFactors: table }) };
    (table.factors[0] as { kgco2e: number }).kgco2e = -0.000217;
    // 1000 EUR × 1.25 kg/EUR, margins 0: the factor as it was given to createTableDatasets.
    table.factors.push({ ...table.factors[0]!, region: 'FR' });
    expect(calculateSpend(request, datasets).estimate.co2e).toBe(1250);
    // The row pushed afterwards is not in the datasets either.
    expect(() => calculateSpend({ ...request, spend_region: 'FR' }, datasets)).toThrow(
      /has no factors for FR/,
    );
  });

  it('records handed out by a provider are frozen, so a caller cannot change them for the next estimate', () => {
    const datasets = createTableDatasets({
      spendFactors: spendTable(),
      cloudRegions: defaultTables.cloudRegions,
    });
    const factor = datasets.spendFactors.get('acme-steel', 'DE')!;
    expect(() => {
      (factor as { kgco2e: number }).kgco2e = 5;
    }).toThrow(TypeError);
    const region = datasets.cloudRegions.get('aws', 'us-east-1')!;
    expect(Object.isFrozen(region.grid_factors)).toBe(true);
    const cpu = { cpu_count: 1, region: 'us_east_1', duration: 1 };
    const before = calculateCpu('aws', cpu, { ...defaultDatasets, ...datasets });
    expect(() => {
      (region.grid_factors as Record<string, number>)['2025'] = 100;
    }).toThrow(TypeError);
    expect(calculateCpu('aws', cpu, { ...defaultDatasets, ...datasets })).toEqual(before);
  });

  it('leaves the caller’s own table unfrozen', () => {
    const table = spendTable();
    createTableDatasets({ spendFactors: table });
    expect(Object.isFrozen(table)).toBe(false);
    expect(Object.isFrozen(table.factors[0])).toBe(false);
  });
});
