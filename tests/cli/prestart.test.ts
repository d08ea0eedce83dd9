import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { spendRows } from '../../src/cli/adapters/spend';
import type { RecordText } from '../../src/cli/formats/records';
import { chunkProcessor } from '../../src/cli/pipeline/chunk';
import { workerPool } from '../../src/cli/pipeline/pool';
import { createExecutor } from '../../src/cli/pipeline/executor';
import {
  discardPrestarted,
  PRESTART_BYTES,
  PRESTART_BYTES_WITH_JOBS,
  prestartPlan,
  prestartWorker,
  takePrestarted,
  VALUE_OPTIONS,
} from '../../src/cli/pipeline/prestart';
import { Command } from 'commander';
import { addFileCommand, FILE_COMMANDS } from '../../src/cli/commands/file';
import type { CliIo } from '../../src/cli/io';
import { csvChunkContext, SPEND_HEADER } from './harness';

/**
 * A file run's first worker, started with the process from the command line alone (pipeline/prestart.ts): which
 * command lines start one, and that a pool takes it only for its own kind and datasets, gives it the run's context,
 * and gets from it what the main thread computes; one it does not take is terminated.
 */

const BIG = 70_000_000;
const sizes =
  (bytes: number) =>
  (file: string): number | undefined =>
    file === 'ledger.csv' ? bytes : undefined;

describe('prestartPlan', () => {
  it.each<[string, string[], number, number, ReturnType<typeof prestartPlan>]>([
    ['a long ledger', ['spend', 'ledger.csv', '--out', 'o.csv'], BIG, 2, { kind: 'spend', datasetFiles: [] }],
    ['cloud and billing too', ['billing', 'ledger.csv'], BIG, 4, { kind: 'billing', datasetFiles: [] }],
    [
      '--datasets in order, both spellings',
      ['spend', '--datasets', 'ceda', 'ledger.csv', '--datasets=my.json'],
      BIG,
      2,
      { kind: 'spend', datasetFiles: ['ceda', 'my.json'] },
    ],
    ['an option value is not the file', ['spend', '-o', 'ledger.csv', 'other.csv'], BIG, 2, undefined],
    ['the file after --', ['cloud', '--', 'ledger.csv'], BIG, 2, { kind: 'cloud', datasetFiles: [] }],
    ['--jobs 1', ['spend', 'ledger.csv', '--jobs', '1'], BIG, 2, undefined],
    ['--jobs=1', ['spend', 'ledger.csv', '--jobs=1'], BIG, 2, undefined],
    ['--jobs that is no number', ['spend', 'ledger.csv', '--jobs', 'two'], BIG, 2, undefined],
    ['one core', ['spend', 'ledger.csv'], BIG, 1, undefined],
    ['stdin', ['spend', '-'], BIG, 2, undefined],
    ['a missing file', ['spend', 'missing.csv'], BIG, 2, undefined],
    ['not a file command', ['serve', 'ledger.csv'], BIG, 2, undefined],
    ['no command', [], BIG, 2, undefined],
    ['short for the default --jobs', ['spend', 'ledger.csv'], PRESTART_BYTES - 1, 2, undefined],
    [
      'as long as the default --jobs needs',
      ['spend', 'ledger.csv'],
      PRESTART_BYTES,
      2,
      { kind: 'spend', datasetFiles: [] },
    ],
    [
      'short, with --jobs given',
      ['spend', 'ledger.csv', '--jobs', '2'],
      PRESTART_BYTES_WITH_JOBS,
      1,
      { kind: 'spend', datasetFiles: [] },
    ],
    [
      'one chunk, with --jobs given',
      ['spend', 'ledger.csv', '--jobs', '2'],
      PRESTART_BYTES_WITH_JOBS - 1,
      2,
      undefined,
    ],
  ])('%s', (_, args, bytes, cores, expected) => {
    expect(prestartPlan(args, sizes(bytes), cores)).toEqual(expected);
  });
});

describe('the options prestartPlan skips with their value', () => {
  it("are every file command's options that take one, so that no option's value is taken for the file", () => {
    const program = new Command('co2e-engine');
    // The commands are only declared: nothing runs, so nothing is read or written.
    const io: CliIo = {
      stdin: (async function* () {})(),
      stdout: process.stdout,
      stderr: process.stderr,
      env: {},
    };
    for (const spec of FILE_COMMANDS) addFileCommand(program, spec, io, () => {});
    const taking = program.commands.flatMap((command) =>
      command.options
        .filter((option) => option.required || option.optional)
        .flatMap((option) => [option.long, option.short].filter((flag) => flag !== undefined)),
    );
    expect(taking.length).toBeGreaterThan(10);
    expect(new Set(taking)).toEqual(VALUE_OPTIONS);
  });

  it('are read for every file command (a new one is started a worker too)', () => {
    for (const { name } of FILE_COMMANDS)
      expect(prestartPlan([name, 'ledger.csv'], sizes(BIG), 2)?.kind).toBe(name);
  });
});

const context = csvChunkContext(SPEND_HEADER);
const records: RecordText[] = Array.from({ length: 200 }, (_, index) => ({
  line: index + 2,
  text:
    index % 67 === 5
      ? `${index},isic4,62,2019,DE,n/a,eur` // fails: not a number
      : `${index},isic4,${['62', '4711', '01'][index % 3]},${2015 + (index % 7)},${['DE', 'FR', 'US'][index % 3]},${index + 0.5},eur`,
}));

/** Resolves when `worker` has exited. */
const exited = (worker: Worker) => new Promise<number>((resolve) => worker.once('exit', resolve));

/** Starts the worker of `spend ledger.csv --jobs 2` (as the executable would). */
const start = (): boolean => prestartWorker(['spend', 'ledger.csv', '--jobs', '2'], sizes(BIG), 2);

afterEach(() => discardPrestarted());

/** The worker the process holds for its run (prestart.ts keeps it under this registry symbol), without taking it. */
const held = (): Worker | undefined =>
  (globalThis as { [key: symbol]: { worker: Worker } | undefined })[
    Symbol.for('co2e-engine.prestarted-worker')
  ]?.worker;

/** An executor of spend chunks with the default --jobs, for an input of `fileBytes` (undefined: gzip or stdin). */
const executorFor = (fileBytes: number | undefined) =>
  createExecutor({ ...spendRows(defaultDatasets), worker: 'spend', workerDatasets: [] }, context, {
    jobs: undefined,
    workers: true,
    fileBytes,
    read: { rows: 0, chars: 0, interrupted: false },
  });

describe('a worker started with the process', () => {
  it('is not started for a command line that will not use it', () => {
    expect(prestartWorker(['spend', 'ledger.csv', '--jobs', '1'], sizes(BIG), 2)).toBe(false);
    expect(takePrestarted('spend', [])).toBeUndefined();
  });

  it('is terminated when the run is of another kind or other datasets, or is discarded', async () => {
    for (const [kind, files] of [
      ['cloud', []],
      ['spend', ['ceda']],
    ] as const) {
      expect(start()).toBe(true);
      // Not this run's worker: terminated, not given back (then the pool starts its own).
      expect(takePrestarted(kind, files)).toBeUndefined();
      expect(takePrestarted('spend', [])).toBeUndefined();
    }
    expect(start()).toBe(true);
    const held = takePrestarted('spend', []);
    expect(held).toBeDefined();
    // Taken once.
    expect(takePrestarted('spend', [])).toBeUndefined();
    const gone = exited(held!);
    await held!.terminate();
    expect(typeof (await gone)).toBe('number');
    // One no pool takes is terminated by discardPrestarted (a run in the main thread alone).
    expect(start()).toBe(true);
    discardPrestarted();
    expect(takePrestarted('spend', [])).toBeUndefined();
  });

  it('is let go at the first chunk of a file too short for workers, not held to the end of the run', async () => {
    expect(start()).toBe(true);
    const worker = held();
    expect(worker).toBeDefined();
    const gone = exited(worker!);
    // 200 rows in 100 kB: far from the rows that repay a worker's start-up (LONG_RUN_ROWS).
    const executor = executorFor(100_000);
    await executor.dispatch(records, false);
    expect(held()).toBeUndefined();
    expect(typeof (await gone)).toBe('number');
    expect((await executor.next())?.rows).toBe(records.length);
    await executor.close();
  }, 30_000);

  it('is held past the first chunk of an input of unknown size (gzip, stdin), and let go when the run closes', async () => {
    expect(start()).toBe(true);
    const worker = held();
    const gone = exited(worker!);
    const executor = executorFor(undefined);
    await executor.dispatch(records, false);
    // It may still grow long enough for workers.
    expect(held()).toBe(worker);
    await executor.next();
    await executor.close();
    expect(held()).toBeUndefined();
    expect(typeof (await gone)).toBe('number');
  }, 30_000);

  it('is taken by the pool of its run, given the context, and computes a chunk as the main thread does', async () => {
    expect(start()).toBe(true);
    const pool = workerPool(1, 'spend', context);
    // Taken by the pool (of its kind and datasets, so not terminated): a second pool would start its own.
    expect(takePrestarted('spend', [])).toBeUndefined();
    try {
      // Not waited for: ready once its modules are loaded (from source, through tsx, that takes a while).
      for (let waited = 0; pool.starting && waited < 60_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pool.starting).toBe(false);
      const result = await pool.run(records);
      const here = chunkProcessor(spendRows(defaultDatasets), context)(records);
      expect(Buffer.from(result!.bytes).toString()).toBe(Buffer.from(here.bytes).toString());
      expect(result!.summary).toEqual(here.summary.toParts());
    } finally {
      await pool.close();
    }
  }, 90_000);
});
