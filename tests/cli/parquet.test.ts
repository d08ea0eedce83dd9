import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactDecimal } from '../../src/cli/formats/parquet/reader';
import { calculateSpend, type SpendRequest } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { cli, parseCsv, parseJsonl, RESULT_COLUMNS, tempFile, tempPath } from './harness';

/**
 * Parquet in and out of `co2e-engine spend|cloud`: files written and read back with hyparquet(-writer), the CLI
 * in-process. Hand-worked values as in spend.test.ts: 1000 EUR of ISIC 4711 in DE 2019 with margins 0.19/0.1/0.02
 * → 690 EUR × 0.0272 = 18.768 kg; 500 EUR of ISIC 62 with zero margins → 500 × 0.1333 = 66.65 kg.
 */

async function readParquet(path: string) {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = (await parquetReadObjects({ file, metadata })) as Array<Record<string, unknown>>;
  return { metadata, rows, columns: metadata.schema.slice(1).map((element) => element.name) };
}

function writeLedger(name: string, columnData: Parameters<typeof parquetWriteFile>[0]['columnData']) {
  const path = tempPath(name);
  parquetWriteFile({ filename: path, columnData });
  return path;
}

const SMALL = () =>
  writeLedger('small.parquet', [
    { name: 'id', data: [1n, 2n, 3n], type: 'INT64' },
    { name: 'classification_type', data: ['isic4', 'isic4', 'isic4'], type: 'STRING' },
    { name: 'classification_code', data: ['4711', '4711', '62'], type: 'STRING' },
    { name: 'spend_year', data: [2019, 2019, 2019], type: 'INT32' },
    { name: 'spend_region', data: ['DE', 'XX', 'DE'], type: 'STRING' },
    { name: 'money', data: [1000, 5, 500], type: 'DOUBLE' },
    { name: 'money_unit', data: ['eur', 'eur', 'eur'], type: 'STRING' },
    { name: 'tax_margin', data: [0.19, null, 0], type: 'DOUBLE' },
    { name: 'trade_margin', data: [0.1, null, 0], type: 'DOUBLE' },
    { name: 'transport_margin', data: [0.02, null, 0], type: 'DOUBLE' },
  ]);

describe('spend Parquet → Parquet', () => {
  it('computes each row in order, keeps the input columns and their types, and gives a bad row its error', async () => {
    const out = tempPath('out.parquet');
    const { code, stderr } = await cli(['spend', SMALL(), '--out', out]);
    expect(code).toBe(1);
    expect(stderr).toContain('3 rows');
    const { rows, columns, metadata } = await readParquet(out);
    expect(columns).toEqual([
      'id',
      'classification_type',
      'classification_code',
      'spend_year',
      'spend_region',
      'money',
      'money_unit',
      'tax_margin',
      'trade_margin',
      'transport_margin',
      ...RESULT_COLUMNS,
    ]);
    const types = Object.fromEntries(metadata.schema.slice(1).map((element) => [element.name, element.type]));
    expect(types).toMatchObject({ id: 'INT64', spend_year: 'INT32', money: 'DOUBLE', co2e: 'DOUBLE' });
    expect(rows.map((row) => row.id)).toEqual([1n, 2n, 3n]);
    expect(rows[0]).toMatchObject({ co2e: 18.768, activity_value: 690, co2e_unit: 'kg', error_code: null });
    expect(rows[0]?.notices).toEqual([]);
    expect(rows[1]).toMatchObject({
      co2e: null,
      error_code: 'no_emission_factors_found',
      spend_region: 'XX',
    });
    expect(String(rows[1]?.error_message)).toContain("'XX'");
    // NULL margins are "not supplied": the defaults are used and named in a notice.
    expect(rows[2]).toMatchObject({ co2e: 66.65, error_code: null });
  });

  it('round-trips 100,000 rows: same order and pass-through values on every row, the library result on every 10th', async () => {
    const ROWS = 100_000;
    const ids = Array.from({ length: ROWS }, (_, index) => BigInt(index));
    const codes = ['4711', '10', '62', 'C', '47'];
    const regions = ['DE', 'GB', 'NO', 'BR', 'US'];
    const units = ['eur', 'gbp', 'nok', 'brl', 'usd'];
    const input = writeLedger('ledger-100k.parquet', [
      { name: 'id', data: ids, type: 'INT64' },
      { name: 'classification_type', data: ids.map(() => 'isic4'), type: 'STRING' },
      {
        name: 'classification_code',
        data: ids.map((id) => codes[Number(id % 5n)] as string),
        type: 'STRING',
      },
      { name: 'spend_year', data: ids.map((id) => 2015 + Number(id % 10n)), type: 'INT32' },
      { name: 'spend_region', data: ids.map((id) => regions[Number(id % 7n) % 5] as string), type: 'STRING' },
      { name: 'money', data: ids.map((id) => Number(id % 9973n) * 1.5 + 0.25), type: 'DOUBLE' },
      { name: 'money_unit', data: ids.map((id) => units[Number(id % 7n) % 5] as string), type: 'STRING' },
      { name: 'note', data: ids.map((id) => (id % 3n === 0n ? null : `row ${id}`)), type: 'STRING' },
    ]);
    const out = tempPath('ledger-100k-out.parquet');
    const { code } = await cli(['spend', input, '--out', out]);
    expect(code).toBe(0);
    const { rows, metadata } = await readParquet(out);
    expect(rows).toHaveLength(ROWS);
    expect(metadata.row_groups.length).toBeGreaterThan(1); // streamed: written a row group at a time
    const inputRows = (await readParquet(input)).rows;
    let differing = 0;
    for (let index = 0; index < ROWS; index++) {
      const row = rows[index] as Record<string, unknown>;
      const source = inputRows[index] as Record<string, unknown>;
      for (const name of Object.keys(source)) if (row[name] !== source[name]) differing++;
      // The library check on every 10th row keeps this test at a few seconds; order and pass-through on all.
      if (index % 10 !== 0) continue;
      const request = {
        activity: { classification_type: 'isic4', classification_code: source.classification_code },
        spend_year: source.spend_year,
        spend_region: source.spend_region,
        money: source.money,
        money_unit: source.money_unit,
      } as SpendRequest;
      const expected = calculateSpend(request, defaultDatasets);
      if (row.co2e !== expected.estimate.co2e || row.factor_id !== expected.estimate.emission_factor?.id)
        differing++;
    }
    expect(differing).toBe(0);
  }, 120_000);
});

describe('Parquet beside CSV and JSON Lines', () => {
  it('CSV in, Parquet out: the CSV cells pass through as text', async () => {
    const csv = tempFile(
      'ledger.csv',
      'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin\n' +
        'a,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02\nb,isic4,4711,2019,DE,abc,eur,,,\n',
    );
    const out = tempPath('from-csv.parquet');
    expect((await cli(['spend', csv, '--out', out])).code).toBe(1);
    const { rows, metadata } = await readParquet(out);
    expect(metadata.schema.find((element) => element.name === 'money')?.type).toBe('BYTE_ARRAY');
    expect(rows.map((row) => [row.id, row.money, row.co2e, row.error_code])).toEqual([
      ['a', '1000', 18.768, null],
      ['b', 'abc', null, 'invalid_request'],
    ]);
  });

  it('Parquet in, JSON Lines and CSV out (stdout)', async () => {
    const input = SMALL();
    const jsonl = await cli(['spend', input, '--format', 'jsonl']);
    expect(jsonl.code).toBe(1);
    const rows = parseJsonl(jsonl.stdout);
    expect(rows.map((row) => [row.id, row.co2e, row.error_code])).toEqual([
      [1, 18.768, null],
      [2, null, 'no_emission_factors_found'],
      [3, 66.65, null],
    ]);
    const csv = await cli(['spend', input, '--format', 'csv']);
    expect(parseCsv(csv.stdout).map((row) => row.co2e)).toEqual(['18.768', '', '66.65']);
  });

  it('cloud rows from Parquet, nested request values included', async () => {
    const input = writeLedger('usage.parquet', [
      { name: 'calculator', data: ['cpu', 'instance'], type: 'STRING' },
      { name: 'provider', data: ['aws', 'aws'], type: 'STRING' },
      { name: 'cpu_count', data: [4, null], type: 'INT32' },
      { name: 'instance', data: [null, 't2.micro'], type: 'STRING' },
      { name: 'region', data: ['us_east_1', 'us_east_1'], type: 'STRING' },
      { name: 'duration', data: [1, 1], type: 'DOUBLE' },
    ]);
    const out = tempPath('usage-out.parquet');
    expect((await cli(['cloud', input, '--out', out])).code).toBe(0);
    const { rows } = await readParquet(out);
    // 4 CPU-hours × 0.0010442908 (tests/cloud/golden.test.ts); the instance row reports its total.
    expect(rows[0]?.co2e).toBe(0.0041771632);
    expect(rows[1]?.error_code).toBeNull();
    expect(rows[1]?.co2e).toBeTypeOf('number');
  });
});

describe('Parquet failures', () => {
  it('a file that is not Parquet is a usage error, and --out is not created', async () => {
    const input = tempFile('fake.parquet', 'id,money\n1,2\n');
    const out = tempPath('never.parquet');
    const { code, stderr } = await cli(['spend', input, '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toContain('not a readable Parquet file');
    expect(existsSync(out)).toBe(false);
  });

  it('Parquet from stdin is refused with the reason', async () => {
    const { code, stderr } = await cli(['spend', '-', '--input-format', 'parquet']);
    expect(code).toBe(2);
    expect(stderr).toContain('Parquet input must be a file');
  });

  it('an interrupted run leaves no --out and no temporary file', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = tempPath('interrupted.parquet');
    const { code } = await cli(['spend', SMALL(), '--out', out], { signal: controller.signal });
    expect(code).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dirname(out)).filter((name) => name.includes('interrupted.parquet'))).toEqual([]);
  });
});

describe('DECIMAL columns', () => {
  it("read as the double nearest the decimal, not hyparquet's float product", () => {
    expect(735 * 0.01).toBe(7.3500000000000005); // what a float scaling gives
    expect(exactDecimal(735 * 0.01, 2)).toBe(7.35);
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 0, max: 4 }),
        (unscaled, scale) => {
          expect(exactDecimal(unscaled * 10 ** -scale, scale)).toBe(Number(`${unscaled}e-${scale}`));
        },
      ),
    );
  });

  it('beyond 2^53 the amount becomes text, which a calculator rejects rather than rounding', () => {
    expect(exactDecimal(2 ** 60 / 100, 2)).toBeTypeOf('string');
  });
});

describe('Parquet --out has the CLI output guarantees', () => {
  it('an existing --out is kept without --force, replaced with it; --resume is refused', async () => {
    const out = tempFile('existing.parquet', 'old');
    const refused = await cli(['spend', SMALL(), '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists; use --force');
    expect(readFileSync(out, 'utf8')).toBe('old');
    expect((await cli(['spend', SMALL(), '--out', out, '--force'])).code).toBe(1);
    expect((await readParquet(out)).rows).toHaveLength(3);
    const resumed = await cli(['spend', SMALL(), '--out', out, '--force', '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('--resume does not apply to Parquet output');
  });

  it('--out naming the input is refused before anything is written', async () => {
    const input = SMALL();
    const { code } = await cli(['spend', input, '--out', input, '--force']);
    expect(code).toBe(2);
    expect((await readParquet(input)).rows).toHaveLength(3);
  });
});
