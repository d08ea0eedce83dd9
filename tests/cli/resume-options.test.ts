import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partialPaths, type ResumeState } from '../../src/cli/pipeline/output-file';
import { FIXTURES } from '../billing/fixtures';
import { cli, tempFile, tempPath } from './harness';
import { runCliProcess, startCli } from './process';

/**
 * `--resume` refuses a partial whose rows were computed with other output-affecting options (each named with its
 * recorded and its new value, exit 2, partial and state untouched); options that do not change rows may differ.
 */

const HEADER = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROW = (index: number) =>
  `${index},isic4,${['4711', '62', 'F'][index % 3]},${2019 + (index % 4)},${['DE', 'GB', 'US'][index % 3]},${(index % 997) + 0.25},${['eur', 'gbp', 'usd'][index % 3]}`;
/**
 * Rows of the runs killed mid-way: enough that a run lasts well past its first saved state (every 0.5 s) on a fast
 * machine, so it can be killed between two.
 */
const KILLED_RUN_ROWS = 300_000;
const ledger = (rows: number) =>
  `${[HEADER, ...Array.from({ length: rows }, (_, index) => ROW(index + 1))].join('\n')}\n`;

/** Starts a run of `args` that is interrupted at once (exit 130), leaving its partial and state for `--resume`. */
async function interrupted(args: string[], out: string) {
  const aborted = new AbortController();
  aborted.abort();
  const run = await cli([...args, '--out', out], { signal: aborted.signal });
  expect(run.code).toBe(130);
  const { partial, state } = partialPaths(out);
  return { partial: readFileSync(partial), state: readFileSync(state, 'utf8') };
}

/** Resumes with `args`; expects exit 2, a message with `expected`, and the partial and state as they were. */
async function refused(
  args: string[],
  out: string,
  left: { partial: Buffer; state: string },
  expected: string,
) {
  const run = await cli([...args, '--out', out, '--resume']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(expected);
  expect(run.stderr).toContain('run without --resume to start over');
  const { partial, state } = partialPaths(out);
  expect(readFileSync(partial)).toEqual(left.partial);
  expect(readFileSync(state, 'utf8')).toBe(left.state);
  expect(existsSync(out)).toBe(false);
}

describe('--resume refuses other output-affecting options, naming them', () => {
  it('spend with another dataset preset (by name), or without it', async () => {
    const input = tempFile('preset.csv', ledger(3));
    const out = tempPath('preset-out.csv');
    const left = await interrupted(['spend', input, '--datasets', 'hosted-api-2021'], out);
    await refused(
      ['spend', input, '--datasets', 'ccf-grid'],
      out,
      left,
      '--datasets was hosted-api-2021, now ccf-grid',
    );
    await refused(['spend', input], out, left, '--datasets was hosted-api-2021, now none');
    expect(
      (await cli(['spend', input, '--out', out, '--resume', '--datasets', 'hosted-api-2021'])).code,
    ).toBe(0);
  });

  it('billing with another --export-format', async () => {
    const input = join(FIXTURES, 'aws-cur.csv');
    const out = tempPath('export-format-out.csv');
    const left = await interrupted(['billing', input, '--export-format', 'aws-cur'], out);
    await refused(['billing', input], out, left, '--export-format was aws-cur, now detected');
    // A CUR has none of FOCUS's columns: refused for that before the resume state is compared, the partial kept.
    const foreign = await cli(['billing', input, '--export-format', 'focus', '--out', out, '--resume']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('--export-format focus: the header has none of its columns');
    const { partial, state } = partialPaths(out);
    expect(readFileSync(partial)).toEqual(left.partial);
    expect(readFileSync(state, 'utf8')).toBe(left.state);
  });

  it('billing with another --unknown, and billing records its --datasets too', async () => {
    const input = join(FIXTURES, 'aws-cur.csv');
    const out = tempPath('unknown-out.csv');
    const left = await interrupted(
      ['billing', input, '--unknown', 'cost-ratio', '--datasets', 'ccf-grid'],
      out,
    );
    await refused(
      ['billing', input, '--datasets', 'ccf-grid'],
      out,
      left,
      '--unknown was cost-ratio, now off',
    );
    await refused(
      ['billing', input, '--unknown', 'cost-ratio'],
      out,
      left,
      '--datasets was ccf-grid, now none',
    );
    const same = await cli([
      'billing',
      input,
      '--out',
      out,
      '--resume',
      '--unknown',
      'cost-ratio',
      '--datasets',
      'ccf-grid',
    ]);
    expect(same.code).toBe(0);
  });

  it('another output --format', async () => {
    const input = tempFile('format.csv', ledger(3));
    const out = tempPath('format-out.csv');
    const left = await interrupted(['spend', input], out);
    await refused(['spend', input, '--format', 'jsonl'], out, left, '--format was csv, now jsonl');
  });
});

describe('--resume and a state without options', () => {
  it('refuses a state an earlier build wrote (no recorded options), leaving it as it was', async () => {
    const input = tempFile('old-state.csv', ledger(3));
    const out = tempPath('old-state-out.csv');
    await interrupted(['spend', input], out);
    const { state } = partialPaths(out);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
    const { options: _options, ...run } = saved.run;
    writeFileSync(state, JSON.stringify({ ...saved, run }));
    const left = { partial: readFileSync(partialPaths(out).partial), state: readFileSync(state, 'utf8') };
    await refused(['spend', input], out, left, 'does not record its options');
  });
});

describe('--resume and a damaged state', () => {
  it('starts from the first row, saying so, rather than merge a summary whose sums are not decimals', async () => {
    const input = tempFile('damaged-state.csv', ledger(3));
    const wholeOut = tempPath('damaged-state-whole.csv');
    const whole = await cli(['spend', input, '--out', wholeOut]);
    const damages: Array<(summary: ResumeState['summary']) => unknown> = [
      (summary) => ({ ...summary, total: 'lots' }),
      (summary) => ({ ...summary, rows: -1 }),
      (summary) => ({ ...summary, groups: { classification: { 'isic4 62': { co2e: '1,5', rows: 1 } } } }),
      (summary) => ({ ...summary, errorCodes: { invalid_request: 'many' } }),
    ];
    for (const damage of damages) {
      const out = tempPath('damaged-state-out.csv');
      await interrupted(['spend', input], out);
      const { state } = partialPaths(out);
      const saved = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
      writeFileSync(state, JSON.stringify({ ...saved, summary: damage(saved.summary) }));
      const run = await cli(['spend', input, '--out', out, '--resume']);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('is unreadable; starting from the first row');
      // The same rows and the same summary as a run that was never interrupted.
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(wholeOut, 'utf8'));
      expect(run.stderr.split('\n').slice(-3)).toEqual(whole.stderr.split('\n').slice(-3));
    }
  });
});

describe('--resume with only --jobs changed', () => {
  it('continues a run killed with SIGKILL under --jobs 1 with --jobs 2, byte-identical to an uninterrupted run', async () => {
    const input = tempFile('jobs.csv', ledger(KILLED_RUN_ROWS));
    const reference = tempPath('jobs-reference.csv');
    expect((await cli(['spend', input, '--out', reference, '--jobs', '1'])).code).toBe(0);

    const out = tempPath('jobs-out.csv');
    const { state } = partialPaths(out);
    const run = startCli(['spend', input, '--out', out, '--jobs', '1']);
    let saved: ResumeState | undefined;
    while (saved === undefined || saved.rows === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        if (existsSync(state)) saved = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
      } catch {
        // replaced while being read; read again
      }
      if (run.child.exitCode !== null) throw new Error('the run finished before it could be killed');
    }
    run.child.kill('SIGKILL');
    await run.done;
    const final = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
    expect(final.rows).toBeLessThan(KILLED_RUN_ROWS);

    const resumed = await runCliProcess(['spend', input, '--out', out, '--resume', '--jobs', '2']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming after ${final.rows} rows`);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(reference, 'utf8'));
  }, 60_000);
});
