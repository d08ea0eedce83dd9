import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA, skipWithoutSharedData } from '../shared-data';
import { cli, parseCsv, tempFile, tempPath } from './harness';

/**
 * A spreadsheet's emptied row: Excel saves a row whose cells were cleared as delimiters only (`,,,,,,`). It is
 * skipped as a blank line is, by every command that reads CSV (they share formats/csv/reader.ts), and a CSV row
 * without its classification is told in its CSV columns, not in the request's JSON field `activity`.
 */

const SPEND = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const GB_ROW = '1,isic4,62,2023,GB,10,gbp';

describe('a row whose every cell is empty', () => {
  it.each([
    ['Excel ,,,,,,', `${SPEND}\n${GB_ROW}\n,,,,,,\n`],
    ['in the middle, with spaces and fewer cells', `${SPEND}\n , ,,\t,\n${GB_ROW}\n`],
    ['with CRLF line ends', `${SPEND}\r\n${GB_ROW}\r\n,,,,,,\r\n`],
    ['in a ; file', `${SPEND.replaceAll(',', ';')}\n${GB_ROW.replaceAll(',', ';')}\n;;;;;;\n`],
  ])('spend: %s is skipped like a blank line', async (_, text) => {
    const run = await cli(['spend', tempFile('xl.csv', text)]);
    expect(run.stderr).toMatch(/: 1 rows?, 0 failed/);
    expect(run.code).toBe(0);
    expect(parseCsv(run.stdout).map((row) => row.id)).toEqual(['1']);
  });

  it('cloud: skipped too', async () => {
    const header =
      'resource,calculator,provider,region,instance,instance_count,cpu_count,data,data_unit,storage_type,duration,duration_unit';
    const file = tempFile(
      'usage.csv',
      `${header}\n,,,,,,,,,,,\nweb,instance,aws,us_east_1,m5.large,,,,,,1,h\n`,
    );
    const run = await cli(['cloud', file]);
    expect(run.code).toBe(0);
    expect(parseCsv(run.stdout).map((row) => row.resource)).toEqual(['web']);
  });

  it.skipIf(skipWithoutSharedData)(
    'billing: a real Azure EA export with an emptied row gives the output of the export as it was',
    async () => {
      const original = readFileSync(
        join(SHARED_DATA, 'billing/finops-toolkit/EA_ActualCost_Small.csv'),
        'utf8',
      );
      const columns = original.split('\n', 1)[0]?.split(',').length as number;
      const emptied = tempFile('ea-emptied.csv', `${original}${','.repeat(columns - 1)}\n`);
      const plain = tempPath('ea.csv');
      const withEmpty = tempPath('ea-emptied-out.csv');
      const first = await cli(['billing', tempFile('ea.csv', original), '--out', plain]);
      const second = await cli(['billing', emptied, '--out', withEmpty]);
      expect(second.code).toBe(first.code);
      expect(readFileSync(withEmpty, 'utf8')).toBe(readFileSync(plain, 'utf8'));
    },
  );

  it('a row with one cell filled is still a row (and fails for what it lacks)', async () => {
    const run = await cli(['spend', tempFile('one.csv', `${SPEND}\n${GB_ROW}\n,,,,,10,\n`)]);
    expect(run.code).toBe(1);
    expect(parseCsv(run.stdout).map((row) => row.money)).toEqual(['10', '10']);
  });
});

describe('a CSV row without its classification', () => {
  const header = `${SPEND},activity_id`;
  it.each([
    ['3,,,2023,GB,10,gbp,', "'classification_type' and 'classification_code' (or 'activity_id') are empty."],
    ['4,isic4,,2023,GB,10,gbp,', "'classification_code' is empty (it goes with 'classification_type')."],
    ['5,,62,2023,GB,10,gbp,', "'classification_type' is empty (it goes with 'classification_code')."],
  ])('%s: the message names the CSV columns', async (row, message) => {
    const run = await cli(['spend', tempFile('no-class.csv', `${header}\n${row}\n`)]);
    expect(run.code).toBe(1);
    const [result] = parseCsv(run.stdout);
    expect(result?.error_code).toBe('invalid_request');
    expect(result?.error_message).toBe(message);
  });
});
