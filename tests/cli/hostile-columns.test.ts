import { readFileSync } from 'node:fs';
import { parquetWriteFile } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { cli, tempFile, tempPath } from './harness';

// Issue 23 item 6: a `__proto__` column lost its values (CSV `{}`, JSON Lines dropped, Parquet exit 2), and a
// Parquet file with two columns of one name silently copied the first over the second.
const HEADER =
  'id,__proto__,constructor,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROW = '1,keep-proto,keep-ctor,isic4,4711,2019,DE,10,eur';

describe('columns named after Object.prototype members pass through', () => {
  it('CSV in, CSV out', async () => {
    const run = await cli(['spend', tempFile('proto.csv', `${HEADER}\n${ROW}\n`), '--jobs', '1']);
    expect(run.code).toBe(0);
    // Read as text: the harness's parseCsv builds ordinary objects, which is the bug itself.
    const [header, row] = run.stdout.split('\n');
    expect(header?.startsWith(`${HEADER},co2e,`)).toBe(true);
    expect(row?.startsWith(`${ROW},0.272,`)).toBe(true);
  });

  it('JSON Lines in, JSON Lines out', async () => {
    const line =
      '{"id":1,"__proto__":"keep-proto","constructor":"keep-ctor","classification_type":"isic4","classification_code":"4711","spend_year":2019,"spend_region":"DE","money":10,"money_unit":"eur"}';
    const run = await cli(['spend', tempFile('proto.jsonl', `${line}\n`), '--jobs', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"__proto__":"keep-proto","constructor":"keep-ctor"');
  });

  it('CSV to Parquet and back', async () => {
    const parquet = tempPath('proto.parquet');
    expect((await cli(['spend', tempFile('proto2.csv', `${HEADER}\n${ROW}\n`), '--out', parquet])).code).toBe(
      0,
    );
    const back = await cli(['spend', parquet, '--format', 'csv']);
    const [, row] = back.stdout.split('\n');
    expect(row?.startsWith('1,keep-proto,keep-ctor,isic4,4711,')).toBe(true);
  });
});

describe('a Parquet file with two columns of one name', () => {
  it('is refused (exit 2) naming the column, not read with one copied over the other', async () => {
    const path = tempPath('twice.parquet');
    parquetWriteFile({
      filename: path,
      columnData: [
        { name: 'team', data: ['a'], type: 'STRING' },
        { name: 'team', data: ['b'], type: 'STRING' },
        { name: 'money', data: [1], type: 'DOUBLE' },
      ],
    });
    const run = await cli(['spend', path, '--format', 'csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the column "team" appears twice');
    expect(readFileSync(path).length).toBeGreaterThan(0);
  });
});
