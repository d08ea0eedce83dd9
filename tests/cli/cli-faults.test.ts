import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../billing/fixtures';
import { cli, parseCsv, tempFile, tempPath } from './harness';

/** Small CLI faults of issue 24 item 3: each test failed before its fix. */

const fixture = (name: string) => join(FIXTURES, name);
const LEDGER = `id,classification_type,classification_code,spend_year,spend_region,money,money_unit\n${Array.from(
  { length: 2_500 },
  (_, index) => `${index},isic4,4711,2019,DE,${index + 1},eur`,
).join('\n')}\n`;

describe('--out FILE.gz', () => {
  it('billing writes the output gzipped, and reads it back', async () => {
    const plain = tempPath('bill.csv');
    const zipped = tempPath('bill.csv.gz');
    expect((await cli(['billing', fixture('aws-cur.csv'), '--out', plain])).code).toBe(0);
    expect((await cli(['billing', fixture('aws-cur.csv'), '--out', zipped])).code).toBe(0);
    const bytes = readFileSync(zipped);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(bytes).toString('utf8')).toBe(readFileSync(plain, 'utf8'));
    const summary = tempPath('bill-summary.json');
    const withSummary = await cli([
      'billing',
      fixture('aws-cur.csv'),
      '--out',
      tempPath('bill2.csv.gz'),
      '--summary',
      summary,
    ]);
    expect(withSummary.code).toBe(0);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toHaveProperty('cost');
  });

  it('spend writes several chunks as one gzip file, byte for byte the plain output once unzipped', async () => {
    const input = tempFile('ledger-gz.csv', LEDGER);
    const plain = tempPath('ledger-out.csv');
    const zipped = tempPath('ledger-out.csv.gz');
    expect((await cli(['spend', input, '--out', plain, '--jobs', '1'])).code).toBe(0);
    expect((await cli(['spend', input, '--out', zipped, '--jobs', '1'])).code).toBe(0);
    expect(gunzipSync(readFileSync(zipped)).toString('utf8')).toBe(readFileSync(plain, 'utf8'));
  });
});

describe('billing --summary', () => {
  it('with --out - (stdout) is a usage error that says why', async () => {
    const run = await cli(['billing', fixture('aws-cur.csv'), '--out', '-', '--summary', tempPath('s.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--summary needs --out FILE');
    expect(run.stdout).toBe('');
  });
});

describe('list --datasets', () => {
  it('lists what the given preset supports', async () => {
    const standard = await cli(['list', 'regions', 'aws', '--json']);
    const hosted = await cli(['list', 'regions', 'aws', '--json', '--datasets', 'hosted-api-2021']);
    expect(standard.code).toBe(0);
    expect(hosted.code).toBe(0);
    expect(JSON.parse(hosted.stdout)).not.toEqual(JSON.parse(standard.stdout));
    const missing = await cli(['list', 'regions', '--datasets', tempPath('no-such-file.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--datasets');
  });
});

describe('billing of its own output of a nested GCP JSON Lines export', () => {
  it.each(['csv', 'parquet'])('reads the %s output again with the same estimates', async (format) => {
    const first = tempPath(`gcp-first.${format}`);
    expect((await cli(['billing', fixture('gcp-export.jsonl'), '--out', first])).code).toBe(0);
    const again = tempPath(`gcp-again-${format}.csv`);
    const run = await cli(['billing', first, '--out', again]);
    expect(run.stderr).not.toContain('matches no billing export format');
    expect(run.code).toBe(0);
    const direct = parseCsv((await cli(['billing', fixture('gcp-export.jsonl'), '--format', 'csv'])).stdout);
    const rows = parseCsv(readFileSync(again, 'utf8'));
    expect(rows.map((row) => [row.co2e_status, row.co2e_kg, row.co2e_calculator])).toEqual(
      direct.map((row) => [row.co2e_status, row.co2e_kg, row.co2e_calculator]),
    );
  });
});
