import { describe, expect, it } from 'vitest';
import { cli, parseCsv, parseJsonl, tempFile } from './harness';

/**
 * A CSV row that fails to resolve is failed by the spend adapter's CSV path itself (adapters/spend.ts, `resolving`),
 * where it used to be resolved a second time by `compute`; and the engine keeps the failure per key (KeptFailure).
 * JSON Lines output answers every row through `compute`, so the two outputs of one ledger must agree row by row,
 * and their end reports (counts, hints) must be the same.
 */

const HEADER = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROWS = [
  '1,isic4,4711,2019,JP,10,eur', // no factors in JP (the CEDA hint)
  '2,isic4,4711,2019,DE,10,eur',
  '3,isic4,4711,2019,JP,20,usd', // the same key again
  '4,isic4,4711,2019,JP,abc,eur', // the key fails, but the amount is read first
  '5,isic4,4711,2019,DE,10,xyz', // no rates for xyz
  '6,isic4,4711,2020,DE,30,xyz',
  '7,isic4,9999,2019,DE,10,eur', // an unknown code
  '8,isic4,9999,2019,DE,11,eur',
  '9,ISIC9,4711,2019,DE,10,eur', // an unknown type, quoted as written
  '10,isic9,4711,2019,DE,10,eur',
  '11,isic4,4711,2019,JP,-5,eur', // a credit note, refused without --credits net
  '12,isic4,4711,2019,JP,10,eur',
];

describe('failing spend rows', () => {
  it('fail in CSV output as compute fails them in JSON Lines output, with the same end report', async () => {
    const ledger = tempFile('failing.csv', `${HEADER}\n${ROWS.join('\n')}\n`);
    const csv = await cli(['spend', ledger, '--jobs', '1']);
    const jsonl = await cli(['spend', ledger, '--jobs', '1', '--format', 'jsonl']);
    expect(csv.code).toBe(1);
    expect(jsonl.code).toBe(1);
    const csvRows = parseCsv(csv.stdout);
    const jsonlRows = parseJsonl(jsonl.stdout);
    expect(csvRows.map((row) => row.error_code)).toEqual([
      'no_emission_factors_found',
      '',
      'no_emission_factors_found',
      'invalid_request',
      'unsupported_currency',
      'unsupported_currency',
      'unknown_classification_code',
      'unknown_classification_code',
      'invalid_request',
      'invalid_request',
      'invalid_request',
      'no_emission_factors_found',
    ]);
    csvRows.forEach((row, index) => {
      const other = jsonlRows[index] as Record<string, unknown>;
      expect(row.error_code).toBe(other.error_code ?? '');
      expect(row.error_message).toBe(other.error_message ?? '');
      expect(row.error_detail === '' ? null : JSON.parse(row.error_detail as string)).toEqual(
        other.error_detail ?? null,
      );
    });
    expect(csvRows[8]?.error_message).toContain("'ISIC9'");
    expect(csvRows[9]?.error_message).toContain("'isic9'");
    const untimed = (report: string) => report.replace(/, [\d.]+ s \([\d,]+ rows\/s\)/, '');
    expect(untimed(csv.stderr)).toBe(untimed(jsonl.stderr));
    expect(csv.stderr).toContain('--datasets ceda');
  });
});
