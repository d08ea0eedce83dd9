import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { calculateSpend, type SpendRequest } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { readSharedData, skipWithoutSharedData } from '../shared-data';

/**
 * The spend answers checked against the OEFDB source file itself (MANIFEST.md §1), not against the generated
 * datasets/spend/*.json: a build that dropped, moved or altered a row of the 20-region working file fails here even
 * when the generated table and the tests that read it agree with each other.
 */
type Row = Record<string, string>;
const sourceRows = (
  parse(readSharedData('oefdb/exiobase_spend_factors_20_regions_partial.csv'), {
    columns: true,
    bom: true,
    skip_empty_lines: true,
  }) as Row[]
).filter((row) => row['source'] === 'EXIOBASE');

// 1 EUR of 2019 at basic price (margins stated as 0): co2e is the factor itself.
const request = (row: Row): SpendRequest => ({
  activity: { activity_id: row['activity_id']! },
  spend_year: 2019,
  spend_region: row['region']!,
  money: 1,
  money_unit: 'eur',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
});

describe.skipIf(skipWithoutSharedData)('every EXIOBASE row of OEFDB’s 20-region working file', () => {
  it('is 734 rows in 20 regions (MANIFEST.md §1)', () => {
    expect(sourceRows).toHaveLength(734);
    expect(new Set(sourceRows.map((row) => row['region'])).size).toBe(20);
  });

  it('is answered, in its region, with exactly its kgCO2e-AR5 value (added and overlapping rows alike)', () => {
    for (const row of sourceRows) {
      const result = calculateSpend(request(row), defaultDatasets);
      const where = `${row['region']} ${row['name']}`;
      expect(result.estimate.co2e, where).toBe(Number(row['kgCO2e-AR5']));
      expect(result.estimate.emission_factor?.region, where).toBe(row['region']);
    }
  });
});
