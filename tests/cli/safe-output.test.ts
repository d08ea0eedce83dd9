import { closeSync, existsSync, linkSync, openSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partialPaths, type ResumeState } from '../../src/cli/pipeline/output-file';
import { cli, tempFile, tempPath } from './harness';
import { runCliProcess, startCli } from './process';

/**
 * The output guarantees of docs/cli.md, against real files and real processes: never the input, never an existing
 * file without --force, atomic (the target is untouched until the run completes), and resumable after a SIGKILL
 * to the same bytes as an uninterrupted run.
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

describe('--out is never the input', () => {
  it('refuses a symlink or a hard link to the input (exit 2), and the input is unchanged', async () => {
    const content = ledger(3);
    const input = tempFile('input.csv', content);
    const symlink = tempPath('symlink.csv');
    symlinkSync(input, symlink);
    const hardLink = tempPath('hardlink.csv');
    linkSync(input, hardLink);
    for (const out of [symlink, hardLink]) {
      for (const force of [[], ['--force']]) {
        const { code, stderr } = await cli(['spend', input, '--out', out, ...force]);
        expect(code).toBe(2);
        expect(stderr).toContain('is the input file');
        expect(readFileSync(input, 'utf8')).toBe(content);
      }
    }
  });

  it('refuses `spend - --out f < f` in a real process: stdin redirected from the output file', async () => {
    const content = ledger(3);
    const input = tempFile('stdin.csv', content);
    const fd = openSync(input, 'r');
    try {
      const run = await runCliProcess(['spend', '-', '--out', input, '--force'], fd);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is the input file');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(input, 'utf8')).toBe(content);
  });

  it('refuses stdout redirected into the input file (`spend f >> f`) in a real process', async () => {
    const content = ledger(3);
    const input = tempFile('append.csv', content);
    const fd = openSync(input, 'a');
    try {
      const run = startCli(['spend', input], 'ignore', fd);
      const result = await run.done;
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('stdout is redirected into the input file');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(input, 'utf8')).toBe(content);
  });
});

describe('atomic output and --force', () => {
  it('refuses to replace an existing file without --force, replaces it with --force (keeping its mode)', async () => {
    const input = tempFile('ledger.csv', ledger(2));
    const out = tempFile('existing.csv', 'precious\n');
    const refused = await cli(['spend', input, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists; use --force');
    expect(readFileSync(out, 'utf8')).toBe('precious\n');

    const forced = await cli(['spend', input, '--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^id,classification_type,.*,co2e,/);
    expect(existsSync(partialPaths(out).partial)).toBe(false);
    expect(existsSync(partialPaths(out).state)).toBe(false);
  });

  it('a run that fails part-way leaves the existing file untouched and keeps its rows for --resume', async () => {
    const out = tempFile('kept.csv', 'precious\n');
    const before = statSync(out);
    // stdin that breaks after 2,500 rows, like a disk read error.
    const text = ledger(2_500);
    const failing = async function* () {
      yield new TextEncoder().encode(text);
      throw Object.assign(new Error('read failed'), { code: 'EIO' });
    };
    const { runCli } = await import('../../src/cli/run-cli');
    let stderr = '';
    const sink = { write: (chunk: string) => ((stderr += chunk), true) } as unknown as NodeJS.WritableStream;
    const code = await runCli(['spend', '-', '--out', out, '--force', '--jobs', '1'], {
      stdin: failing(),
      stdout: sink,
      stderr: sink,
      env: {},
    });
    expect(code).toBe(2);
    expect(stderr).toContain('EIO');
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    expect(statSync(out).ino).toBe(before.ino);
  });

  it('a malformed header fails before anything is written (exit 2, existing file untouched)', async () => {
    const out = tempFile('header.csv', 'precious\n');
    const { code } = await cli(['spend', tempFile('bad.csv', 'a,a\n1,2\n'), '--out', out, '--force']);
    expect(code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
  });
});

describe('--resume', () => {
  it('continues a real run killed with SIGKILL to output byte-identical to an uninterrupted run', async () => {
    const input = tempFile('kill.csv', ledger(KILLED_RUN_ROWS));
    const reference = tempPath('reference.csv');
    expect((await cli(['spend', input, '--out', reference, '--jobs', '1'])).code).toBe(0);

    const out = tempPath('killed.csv');
    const { state } = partialPaths(out);
    const run = startCli(['spend', input, '--out', out, '--jobs', '1']);
    let saved: ResumeState | undefined;
    while (saved === undefined || saved.rows === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (existsSync(state)) {
        try {
          saved = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
        } catch {
          // replaced while being read; read again
        }
      }
      if (run.child.exitCode !== null) throw new Error('the run finished before it could be killed');
    }
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false); // the target appears only when complete

    const expected = readFileSync(reference, 'utf8');
    const final = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
    expect(final.rows).toBeGreaterThan(0);
    expect(final.rows).toBeLessThan(KILLED_RUN_ROWS);
    const partial = readFileSync(partialPaths(out).partial).subarray(0, final.bytes).toString('utf8');
    expect(expected.startsWith(partial)).toBe(true);

    const resumed = await runCliProcess(['spend', input, '--out', out, '--resume', '--jobs', '1']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming after ${final.rows} rows`);
    expect(resumed.stderr).toContain(`co2e-engine spend: ${KILLED_RUN_ROWS} rows, 0 failed`);
    expect(readFileSync(out, 'utf8')).toBe(expected);
    expect(existsSync(partialPaths(out).partial)).toBe(false);
  }, 60_000);

  it('after an interrupt (exit 130) the target is untouched, and --resume completes it with the right summary', async () => {
    const input = tempFile('stop.csv', ledger(1_500));
    const reference = tempPath('stop-reference.csv');
    expect((await cli(['spend', input, '--out', reference, '--jobs', '1'])).code).toBe(0);
    const out = tempFile('stop-out.csv', 'old\n');

    const aborted = new AbortController();
    aborted.abort();
    const interrupted = await cli(['spend', input, '--out', out, '--force'], { signal: aborted.signal });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain('run the same command with --resume');
    expect(readFileSync(out, 'utf8')).toBe('old\n');

    const resumed = await cli(['spend', input, '--out', out, '--force', '--resume', '--jobs', '1']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('1500 rows, 0 failed');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(reference, 'utf8'));
  });

  it('refuses to resume a partial made with other options, and needs --out and a file', async () => {
    const input = tempFile('options.csv', ledger(3));
    const out = tempPath('options-out.csv');
    const aborted = new AbortController();
    aborted.abort();
    expect((await cli(['spend', input, '--out', out], { signal: aborted.signal })).code).toBe(130);
    const other = await cli(['spend', input, '--out', out, '--resume', '--allow-formulas']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--allow-formulas was off, now on');

    expect((await cli(['spend', input, '--resume'])).stderr).toContain('--resume needs --out');
    const piped = await cli(['spend', '-', '--out', tempPath('piped.csv'), '--resume'], { stdin: ledger(1) });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--resume needs an input file');
  });
});
