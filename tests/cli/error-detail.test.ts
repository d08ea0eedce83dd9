import { readFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { cli, parseCsv, parseJsonl, tempFile, tempPath } from './harness';

/**
 * #37 item 5: an error's message stays short (≤ 200 characters) and its long detail (the valid values, the cells past
 * the header) goes to its own column, `error_detail`: the same JSON object in CSV (as text), JSON Lines and Parquet.
 */

const HEADER = 'invoice_id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const LEDGER = [
  HEADER,
  'INV-1,isic4,4711,2019,DE,100,eur', // line 2: estimated
  'INV-2,isic4,4711,2019,XX,100,eur', // line 3: a country with no factors
  'INV-3,sic,4711,2019,DE,100,eur', // line 4: a classification type that does not exist
  'INV-4,isic4,4711,2019,DE,100,eur,late fee', // line 5: a field past the header
].join('\n');

async function rowsOf(path: string, format: 'csv' | 'jsonl' | 'parquet') {
  if (format === 'csv') return parseCsv(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>;
  if (format === 'jsonl') return parseJsonl(readFileSync(path, 'utf8'));
  return parquetReadObjects({ file: await asyncBufferFromFile(path) });
}

/** The detail as an object, whatever the format carries it as (CSV and Parquet: JSON text). */
const detailOf = (value: unknown): unknown =>
  typeof value === 'string' ? (value === '' ? null : JSON.parse(value)) : (value ?? null);

describe('error_detail', () => {
  for (const format of ['csv', 'jsonl', 'parquet'] as const)
    it(`holds the valid values and extra cells, the message staying short (${format})`, async () => {
      const out = tempPath(`detail.${format}`);
      const { code } = await cli(['spend', tempFile('detail.csv', LEDGER), '--out', out]);
      expect(code).toBe(1);
      const rows = await rowsOf(out, format);
      expect(Object.keys(rows[0] ?? {}).slice(-3)).toEqual(['error_code', 'error_message', 'error_detail']);
      expect(detailOf(rows[0]?.error_detail)).toBeNull();
      for (const row of rows) expect(String(row.error_message ?? '').length).toBeLessThanOrEqual(200);

      // The message names how many regions have factors; the detail lists them all.
      const region = detailOf(rows[1]?.error_detail) as { valid_values: string[] };
      const count = Number(
        /The (\d+) regions with factors are in valid_values/.exec(String(rows[1]?.error_message))?.[1],
      );
      expect(count).toBeGreaterThan(10);
      expect(region.valid_values).toHaveLength(count);
      expect(region.valid_values).toEqual(expect.arrayContaining(['DE', 'FR', 'US']));

      // The message lists the valid types; the detail has the same list.
      const types = /Valid types: (.*)\.$/.exec(String(rows[2]?.error_message))?.[1]?.split(', ');
      expect(detailOf(rows[2]?.error_detail)).toEqual({ valid_values: types });
      expect(types).toContain('isic4');

      expect(detailOf(rows[3]?.error_detail)).toEqual({ extra_fields: ['late fee'] });
    });

  it('is null in JSON Lines and empty in CSV for a row that succeeded', async () => {
    const ledger = tempFile(
      'ok.jsonl',
      '{"classification_type":"isic4","classification_code":"4711","spend_year":2019,"spend_region":"DE","money":100,"money_unit":"eur"}\n',
    );
    const { code, stdout } = await cli(['spend', ledger]);
    expect(code).toBe(0);
    expect(parseJsonl(stdout)[0]).toMatchObject({
      error_code: null,
      error_message: null,
      error_detail: null,
    });
  });
});
