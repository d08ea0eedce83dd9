import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, tempFile, tempPath } from './harness';

/**
 * #35 item 3: one run loop for every format, Parquet a record source and a record sink of it. What the second loop
 * could not do, the one pipeline does for Parquet as for text: chunks on worker threads, gzipped text output.
 */

const ROWS = 2_500; // three chunks: workers start with the first full one when --jobs is given
const ledger = [
  'invoice_id,classification_type,classification_code,spend_year,spend_region,money,money_unit',
  ...Array.from({ length: ROWS }, (_, index) =>
    index === 1_700
      ? `INV-${index},isic4,4711,2019,DE,lots,eur`
      : `INV-${index},isic4,4711,2019,DE,${index + 1},eur`,
  ),
].join('\n');

describe('Parquet input through the one pipeline', () => {
  it('gives the same output with --jobs 1 and --jobs 2, and gzipped when --out ends in .gz', async () => {
    const parquet = tempPath('ledger.parquet');
    expect((await cli(['spend', tempFile('ledger.csv', ledger), '--out', parquet])).code).toBe(1);
    const one = tempPath('one.csv');
    const two = tempPath('two.csv');
    const zipped = tempPath('one.csv.gz');
    expect((await cli(['spend', parquet, '--out', one, '--jobs', '1'])).code).toBe(1);
    expect((await cli(['spend', parquet, '--out', two, '--jobs', '2'])).code).toBe(1);
    expect((await cli(['spend', parquet, '--out', zipped, '--jobs', '1'])).code).toBe(1);
    const text = readFileSync(one, 'utf8');
    expect(text.trimEnd().split('\n')).toHaveLength(ROWS + 1);
    expect(readFileSync(two, 'utf8')).toBe(text);
    expect(gunzipSync(readFileSync(zipped)).toString('utf8')).toBe(text);
    // The failed row keeps its place and its id.
    expect(text.split('\n')[1_701]).toMatch(/^INV-1700,/);
  });
});
