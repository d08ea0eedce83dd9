import { describe, expect, it } from 'vitest';
import { cli, parseCsv, tempFile } from './harness';

/**
 * JSON Lines in, CSV (or Parquet) out: the output's input columns are the first record's keys, so a later record's
 * other keys have no column. They are still dropped (docs/cli.md), but said once at the end, with their counts.
 */

const record = (id: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    classification_type: 'isic4',
    classification_code: '62',
    spend_year: 2023,
    spend_region: 'GB',
    money: 10,
    money_unit: 'gbp',
    ...extra,
  });

const WARNING =
  "warning: 2 records have keys the first record lacks, which the output has no column for: 'invoice' (2 records), " +
  "'team' (1 record); give every key in the first record (null where it has no value) to keep them.";

describe('JSON Lines in, CSV out: keys the first record lacks', () => {
  const lines = [
    record(1),
    record(2, { invoice: 'INV-9' }),
    record(3, { invoice: 'INV-10', team: 'ops' }),
    record(4),
  ];

  it('are said once on stderr, with the records they were in; the exit code stays 0', async () => {
    const run = await cli(['spend', tempFile('extra.jsonl', `${lines.join('\n')}\n`), '--format', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(WARNING);
    expect(run.stderr.split(WARNING)).toHaveLength(2);
    const rows = parseCsv(run.stdout);
    expect(rows.map((row) => row.id)).toEqual(['1', '2', '3', '4']);
    expect(rows[1]).not.toHaveProperty('invoice');
  });

  it('are said across chunks and worker threads alike', async () => {
    const many = Array.from({ length: 2_500 }, (_, index) =>
      index === 1_700 || index === 2_400
        ? record(index, { invoice: `INV-${index}`, ...(index === 2_400 && { team: 'ops' }) })
        : record(index),
    );
    const run = await cli([
      'spend',
      tempFile('many.jsonl', `${many.join('\n')}\n`),
      '--format',
      'csv',
      '--jobs',
      '2',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(WARNING);
  });

  it('are kept by JSON Lines output, with no warning', async () => {
    const run = await cli(['spend', tempFile('extra-out.jsonl', `${lines.join('\n')}\n`)]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('warning');
    expect(run.stdout).toContain('"invoice":"INV-9"');
  });

  it('a key named like a result column (replaced by the result, as documented) is not warned about', async () => {
    const run = await cli([
      'spend',
      tempFile('result-key.jsonl', `${[record(1), record(2, { co2e: 5 })].join('\n')}\n`),
      '--format',
      'csv',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('warning');
  });
});
