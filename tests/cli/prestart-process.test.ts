import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESTART_BYTES_WITH_JOBS } from '../../src/cli/pipeline/prestart';
import { parseCsv, tempPath } from './harness';
import { runCliProcess } from './process';

/**
 * The executable as it runs (src/cli/launch.ts, through tsx): with `--jobs 2` on a file of several chunks it starts
 * a worker with the process (pipeline/prestart.ts). The output is the same as one thread's, and a run that stops
 * before any row (an output that exists) ends at once: the worker started for it holds nothing up.
 */

const HEADER = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROW = (index: number) =>
  `${index},isic4,${['4711', '62', 'F', '01'][index % 4]},${2015 + (index % 7)},${['DE', 'GB', 'US', 'FR', 'JP'][index % 5]},${(index % 997) + 0.25},${['eur', 'gbp', 'usd'][index % 3]}`;
const ledger = (rows: number) =>
  `${[HEADER, ...Array.from({ length: rows }, (_, index) => ROW(index + 1))].join('\n')}\n`;

/** A ledger long enough that `--jobs 2` starts a worker with the process: several chunks of rows. */
function longLedger(): string {
  const input = tempPath('prestart-ledger.csv');
  writeFileSync(input, ledger(4_000));
  expect(readFileSync(input).length).toBeGreaterThan(PRESTART_BYTES_WITH_JOBS);
  return input;
}

describe('the executable with a worker started with the process', () => {
  it('writes with --jobs 2 the same output as --jobs 1', async () => {
    const input = longLedger();
    const [two, one] = [tempPath('prestart-two.csv'), tempPath('prestart-one.csv')];
    const runs = await Promise.all([
      runCliProcess(['spend', input, '--out', two, '--jobs', '2']),
      runCliProcess(['spend', input, '--out', one, '--jobs', '1']),
    ]);
    // Some rows fail (the default datasets' 20 regions have no JP, among others): exit 1, the same in both.
    expect(runs.map((run) => run.code)).toEqual([1, 1]);
    expect(readFileSync(two, 'utf8')).toBe(readFileSync(one, 'utf8'));
    // The end reports, but for their first line's seconds.
    const [twoReport, oneReport] = runs.map((run) => run.stderr.split('\n').slice(1).join('\n'));
    expect(twoReport).toBe(oneReport);
    // Every fifth row is in JP (ROW): 800 rows, each failing for want of a factor.
    const rows = parseCsv(readFileSync(two, 'utf8'));
    const japan = rows.filter((row) => row.spend_region === 'JP');
    expect(japan).toHaveLength(800);
    expect(new Set(japan.map((row) => row.error_code))).toEqual(new Set(['no_emission_factors_found']));
    expect(readFileSync(two, 'utf8').split('\n')).toHaveLength(4_002);
  }, 120_000);

  it('ends at once with exit 2 when the run stops before any row (an output that exists, no --force)', async () => {
    const input = longLedger();
    const out = tempPath('prestart-exists.csv');
    writeFileSync(out, 'kept\n');
    const run = await runCliProcess(['spend', input, '--out', out, '--jobs', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('exists');
    expect(readFileSync(out, 'utf8')).toBe('kept\n');
  }, 60_000);
});
