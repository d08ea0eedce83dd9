import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  openOutputFile,
  partialPaths,
  type ResumeState,
  type RunIdentity,
} from '../../src/cli/pipeline/output-file';
import { RunSummary } from '../../src/cli/pipeline/summary';
import { cli, tempFile, tempPath } from './harness';
import { startCli } from './process';

/**
 * An `--out` file's writes are queued to libuv's threads (output-file.ts): the main thread goes on computing while
 * the kernel copies the bytes. What must hold anyway: a saved state never counts bytes the partial does not hold, the
 * commit waits for every write, and a write that fails (here the process's file size limit, as a full disk) stops
 * the run with the target untouched, whichever write it was.
 */

const HEADER = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ledger = (rows: number) =>
  `${HEADER}\n${Array.from(
    { length: rows },
    (_, index) => `${index + 1},isic4,${['4711', '62', 'F'][index % 3]},2019,DE,${index + 0.5},eur`,
  ).join('\n')}\n`;

const RUN: RunIdentity = {
  command: 'spend',
  input: { path: 'ledger.csv', device: 1, inode: 1, size: 1, modified: 1 },
  options: {},
  version: '0.0.0',
};

const stateOf = (out: string) => JSON.parse(readFileSync(partialPaths(out).state, 'utf8')) as ResumeState;

describe('queued writes of an --out file', () => {
  it('saves a state only once the bytes it counts are in the partial', async () => {
    const out = tempPath('queued.csv');
    const file = openOutputFile(out, { force: false, resume: false, run: RUN, notice: () => undefined });
    const bytes = new Uint8Array(8 << 20).fill(0x61);
    await file.write(bytes);
    file.checkpoint(1, new RunSummary({}).toState());
    // Queued behind the write, which has not been written yet: no state counts its bytes.
    expect(existsSync(partialPaths(out).state)).toBe(false);
    await file.keepPartial();
    expect(stateOf(out)).toMatchObject({ rows: 1, bytes: bytes.length });
    expect(statSync(partialPaths(out).partial).size).toBe(bytes.length);
    expect(file.savedRows).toBe(1);
  });

  it('commits every write queued before, in order, however many are not awaited', async () => {
    const out = tempPath('ordered.csv');
    const file = openOutputFile(out, {
      force: false,
      resume: false,
      run: undefined,
      notice: () => undefined,
    });
    const parts = Array.from({ length: 200 }, (_, index) => `${index},${'x'.repeat(index * 37)}\n`);
    const writes = parts.map((part, index) =>
      index % 2 === 0 ? file.write(part) : file.write(new TextEncoder().encode(part)),
    );
    await file.commit();
    await Promise.all(writes);
    expect(readFileSync(out, 'utf8')).toBe(parts.join(''));
    expect(existsSync(partialPaths(out).partial)).toBe(false);
  });
});

describe('a run whose --out cannot be written in full (the file size limit, as a full disk)', () => {
  it.runIf(process.platform === 'linux')(
    'fails on the last write too, at the commit: exit 2, the target untouched',
    async () => {
      // One chunk of rows, the only write after the header: its failure can only show when the run commits.
      const input = tempFile('last.csv', ledger(500));
      const out = tempFile('last-out.csv', 'old\n');
      const run = startCli(['spend', input, '--out', out, '--force'], 'ignore', 'pipe', 64 * 1024);
      const result = await run.done;
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `writing the output failed (EFBIG) after 500 rows were computed; ${out} is untouched.`,
      );
      expect(readFileSync(out, 'utf8')).toBe('old\n');
    },
    60_000,
  );

  it.runIf(process.platform === 'linux')(
    'says how many rows the partial keeps, and --resume completes it byte-identical to a run that had room',
    async () => {
      const rows = 60_000;
      const input = tempFile('room.csv', ledger(rows));
      const reference = tempPath('room-reference.csv');
      expect((await cli(['spend', input, '--out', reference, '--jobs', '1'])).code).toBe(0);
      const expected = readFileSync(reference, 'utf8');

      const out = tempFile('room-out.csv', 'old\n');
      const limit = Math.floor(expected.length / 2);
      const run = startCli(['spend', input, '--out', out, '--force', '--jobs', '1'], 'ignore', 'pipe', limit);
      const stopped = await run.done;
      expect(stopped.code).toBe(2);
      expect(readFileSync(out, 'utf8')).toBe('old\n');
      const state = stateOf(out);
      const kept =
        state.rows > 0
          ? `the first ${state.rows} rows are kept for --resume, and ${out} is untouched`
          : `${out} is untouched.`;
      expect(stopped.stderr).toContain(`writing the output failed (EFBIG) after `);
      expect(stopped.stderr).toContain(kept);
      const partial = readFileSync(partialPaths(out).partial);
      expect(partial.length).toBeGreaterThanOrEqual(state.bytes);
      expect(expected.startsWith(partial.subarray(0, state.bytes).toString('utf8'))).toBe(true);

      const resumed = await cli(['spend', input, '--out', out, '--force', '--resume', '--jobs', '1']);
      expect(resumed.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(expected);
    },
    60_000,
  );

  it.runIf(process.platform === 'linux')(
    'Parquet: says the output was not written, and leaves no partial',
    async () => {
      const input = tempFile('parquet.csv', ledger(20_000));
      const out = tempPath('parquet-out.parquet');
      const run = startCli(
        ['spend', input, '--out', out, '--format', 'parquet'],
        'ignore',
        'pipe',
        64 * 1024,
      );
      const result = await run.done;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /writing the output failed \(EFBIG\) after \d+ rows were computed; .* was not written \(a partial Parquet file is unreadable, so none is kept\)\./,
      );
      expect(existsSync(out)).toBe(false);
      expect(existsSync(partialPaths(out).partial)).toBe(false);
    },
    60_000,
  );
});
