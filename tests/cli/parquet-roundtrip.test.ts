import { writeFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { cli, parseCsv, parseJsonl, RESULT_COLUMNS, tempPath } from './harness';

/**
 * A ledger survives a trip through Parquet: spend CSV → Parquet → spend gives the same results as the CSV itself,
 * and JSON Lines → Parquet → JSON Lines too, because numeric request columns are written as DOUBLE (not as text),
 * and a Parquet file whose numbers are text is read as CSV reads them.
 */

const LEDGER = [
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin',
  '1,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02',
  '2,isic4,4711,2023,DE,1000.50,eur,,,',
  '3,isic4,62,2021,US,250,usd,0,0,0',
  '4,nace2,47.11,2019,DE,12,eur,,,',
  '5,isic4,4711,2019,XX,5,eur,,,', // no factors for XX: an error row, the same after the trip
  '6,isic4,0111,2019,DE,7,eur,,,', // a code with a leading zero stays text
].join('\n');

const results = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => Object.fromEntries(RESULT_COLUMNS.map((column) => [column, row[column]])));

async function columnTypes(path: string) {
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  return Object.fromEntries(metadata.schema.slice(1).map((element) => [element.name, element.type]));
}

/**
 * `command` on a CSV file of `text` (the results as CSV), the same file written to Parquet, and that Parquet file
 * read back (the results as CSV): each run's exit code is 0.
 */
async function csvThroughParquet(command: 'spend' | 'cloud', name: string, text: string) {
  const csv = tempPath(`${name}.csv`);
  writeFileSync(csv, text);
  const direct = await cli([command, csv, '--format', 'csv', '--jobs', '1']);
  expect(direct.code).toBe(0);
  const parquet = tempPath(`${name}.parquet`);
  expect((await cli([command, csv, '--out', parquet, '--jobs', '1'])).code).toBe(0);
  const back = await cli([command, parquet, '--format', 'csv', '--jobs', '1']);
  expect(back.code).toBe(0);
  return { direct: parseCsv(direct.stdout), parquet, back: parseCsv(back.stdout) };
}

describe('spend → Parquet → spend', () => {
  it('CSV → Parquet → CSV: the same results, with the request numbers typed DOUBLE', async () => {
    const csv = tempPath('ledger.csv');
    writeFileSync(csv, `${LEDGER}\n`);
    const direct = await cli(['spend', csv, '--format', 'csv', '--jobs', '1']);
    expect(direct.code).toBe(1); // row 5 fails
    const parquet = tempPath('ledger.parquet');
    expect((await cli(['spend', csv, '--out', parquet, '--jobs', '1'])).code).toBe(1);
    const types = await columnTypes(parquet);
    expect(types).toMatchObject({
      spend_year: 'DOUBLE',
      money: 'DOUBLE',
      tax_margin: 'DOUBLE',
      classification_code: 'BYTE_ARRAY',
      money_unit: 'BYTE_ARRAY',
      co2e: 'DOUBLE',
    });
    const back = await cli(['spend', parquet, '--format', 'csv', '--jobs', '1']);
    expect(back.code).toBe(1);
    const before = parseCsv(direct.stdout);
    const after = parseCsv(back.stdout);
    expect(results(after)).toEqual(results(before));
    expect(after.map((row) => row.error_code)).toEqual([
      '',
      '',
      '',
      '',
      'no_emission_factors_found',
      expect.any(String),
    ]);
    expect(after[5]?.classification_code).toBe('0111');
    expect(after[1]?.money).toBe('1000.5');
  });

  it('JSON Lines → Parquet → JSON Lines: the same results', async () => {
    const jsonl = tempPath('ledger.jsonl');
    const lines = parseCsv(`${LEDGER}\n`).map((row) =>
      JSON.stringify({
        ...row,
        spend_year: Number(row.spend_year),
        money: Number(row.money),
        ...Object.fromEntries(
          ['tax_margin', 'trade_margin', 'transport_margin'].map((margin) => [
            margin,
            row[margin] === '' ? null : Number(row[margin]),
          ]),
        ),
      }),
    );
    writeFileSync(jsonl, `${lines.join('\n')}\n`);
    const direct = await cli(['spend', jsonl, '--jobs', '1']);
    const parquet = tempPath('from-jsonl.parquet');
    await cli(['spend', jsonl, '--out', parquet, '--jobs', '1']);
    expect(await columnTypes(parquet)).toMatchObject({ spend_year: 'DOUBLE', money: 'DOUBLE' });
    const back = await cli(['spend', parquet, '--format', 'jsonl', '--jobs', '1']);
    expect(results(parseJsonl(back.stdout))).toEqual(results(parseJsonl(direct.stdout)));
    expect(parseJsonl(back.stdout).filter((row) => row.error_code === null)).toHaveLength(5);
  });

  it('a column with a value that is not a number stays text, and its rows fail alike both ways', async () => {
    const csv = tempPath('bad-money.csv');
    writeFileSync(
      csv,
      `${LEDGER.split('\n')[0]}\n1,isic4,4711,2019,DE,lots,eur,0,0,0\n2,isic4,4711,2019,DE,10,eur,0,0,0\n`,
    );
    const direct = await cli(['spend', csv, '--format', 'csv', '--jobs', '1']);
    const parquet = tempPath('bad-money.parquet');
    await cli(['spend', csv, '--out', parquet, '--jobs', '1']);
    expect((await columnTypes(parquet)).money).toBe('BYTE_ARRAY');
    const back = await cli(['spend', parquet, '--format', 'csv', '--jobs', '1']);
    const before = results(parseCsv(direct.stdout));
    const after = results(parseCsv(back.stdout));
    expect(after[1]).toEqual(before[1]); // 10 EUR × 0.0272 = 0.272 kg both ways
    expect(after[1]?.co2e).toBe('0.272');
    expect(after[0]?.error_code).toBe('invalid_request');
    expect(after[0]?.error_message).toBe("'money' must be a number, got 'lots'.");
    expect(after[0]).toEqual(before[0]);
  });

  it('an empty text cell is written as NULL and read back as not supplied', async () => {
    const { direct, parquet, back } = await csvThroughParquet(
      'spend',
      'empty-text',
      'classification_type,classification_code,spend_year,spend_region,money,money_unit,audit_trail\n' +
        'isic4,4711,2023,DE,100,eur,\n' +
        'isic4,62,2023,DE,100,eur,disabled\n',
    );
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(parquet) });
    expect(rows.map((row) => row.audit_trail)).toEqual([null, 'disabled']);
    expect(results(back)).toEqual(results(direct));
  });
});

describe('cloud → Parquet → cloud', () => {
  it('a CSV mixing calculators: the cells another calculator leaves empty stay not supplied', async () => {
    const { direct, back } = await csvThroughParquet(
      'cloud',
      'mix',
      'calculator,provider,region,cpu_count,average_vcpu_utilization,duration,duration_unit,storage_type,data,data_unit\n' +
        'cpu,aws,us-east-1,4,0.5,1,hour,,,\n' +
        'storage,aws,us-east-1,,,1,hour,ssd,1,TB\n',
    );
    expect(back.map((row) => row.error_code)).toEqual(['', '']);
    expect(results(back)).toEqual(results(direct));
  });
});
