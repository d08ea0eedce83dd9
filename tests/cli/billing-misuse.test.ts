import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, tempFile, tempPath } from './harness';

/**
 * `co2e-engine billing FILE` given inputs a misuse probe found misread: each case states what a bill means and
 * checks the command reads it so.
 */

/** One GCP BigQuery JSON export line (one vCPU of an N1 instance for `amount` seconds), numbers as written. */
const gcpLine = (amount: string, cost: string, project: string) =>
  `{"service":{"description":"Compute Engine"},"sku":{"description":"N1 Predefined Instance Core running in Americas"},"usage_start_time":"2023-03-01 00:00:00 UTC","project":{"id":${project}},"location":{"region":"us-central1"},"cost":${cost},"currency":"USD","usage":{"amount":${amount},"unit":"seconds"}}`;

async function billJsonl(name: string, lines: string[], extra: string[] = []) {
  const input = tempFile(`${name}.jsonl`, `${lines.join('\n')}\n`);
  const out = tempPath(`${name}-out.jsonl`);
  const summaryFile = tempPath(`${name}-summary.json`);
  const run = await cli(['billing', input, '--out', out, '--summary', summaryFile, ...extra]);
  const text = readFileSync(out, 'utf8');
  const rows = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...run, text, rows, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
}

describe('JSON Lines numbers as a BigQuery export writes them', () => {
  // `3600` seconds is one CPU-hour: the reference line. The same number spelled `3600.0`, `3.6e3`, `36e2` or
  // `360000e-2` is the same quantity, so it gives the same estimate; `1.50` is a cost of 1.5 and a 20-digit project
  // id is that id, digit for digit.
  const reference = billJsonl('plain', [gcpLine('3600', '1.5', '"p1"')]);

  it.each(['3600.0', '3.6e3', '36e2', '360000e-2'])('amount %s reads as 3600 seconds', async (amount) => {
    const plain = await reference;
    expect(plain.rows[0]).toMatchObject({ co2e_status: 'estimated', co2e_activity_value: 1 });
    const spelled = await billJsonl(`amount-${amount}`, [gcpLine(amount, '1.50', '"p1"')]);
    expect(spelled.code).toBe(0);
    const pick = (row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => key.startsWith('co2e_')));
    expect(pick(spelled.rows[0]!)).toEqual(pick(plain.rows[0]!));
    // The input columns pass through as written.
    expect(spelled.text).toContain(`"amount":${amount},`);
  });

  it('a cost of 1.50 counts 1.5 and a 20-digit project id is kept as its digits', async () => {
    for (const extra of [[], ['--unknown', 'cost-ratio']]) {
      const { summary } = await billJsonl(
        `cost${extra.length}`,
        [gcpLine('3600.0', '1.50', '12345678901234567890')],
        extra,
      );
      expect(summary.cost).toEqual({ total: 1.5, estimated: 1.5, share_estimated: 1 });
      expect(Object.keys(summary.by_account)).toEqual(['12345678901234567890']);
    }
  });
});
