import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RecordText } from '../formats/records';
import type { ChunkContext, ChunkResult } from './chunk';
import { type PackedRecords, packRecords } from './packed-records';
import { ownBuffer, takeSpareBuffer } from './output-buffers';
import { takePrestarted } from './prestart';
import { workerEntry } from './worker-entry';

/**
 * Worker threads that run {@link chunkProcessor} on chunks of a file run, beside the main thread (which computes
 * the chunks no worker can take: see {@link ChunkPool.run}). Each worker answers in the order it was asked, and the
 * caller awaits results in input order, so the output is the same whatever `--jobs` is.
 */

/** A row adapter a worker can build on its own: its name in the registry (adapters/index.ts, `ROW_ADAPTERS`). */
export type WorkerKind = string;

/** What a worker is started with (`workerData`). */
export interface WorkerSetup {
  kind: WorkerKind;
  /** The run's context; absent for a worker started with the process, which is sent it ({@link PrestartContext}). */
  context?: ChunkContext;
  /** `--datasets` files, merged over the embedded defaults in order, as the main thread did. */
  datasetFiles?: readonly string[];
}

/** What a worker started with the process is given first: the run's context (its setup without it: prestart.ts). */
export interface PrestartContext {
  co2eContext: ChunkContext;
}

/**
 * A chunk a worker is sent: its records, and a written output buffer of the main thread's, moved to the worker to
 * write the chunk's rows into (output-buffers.ts), when the main thread has one.
 */
export interface ChunkRequest extends PackedRecords {
  output?: ArrayBuffer;
}

/** What a worker posts once its adapter is built, before any chunk result. */
export interface WorkerReady {
  co2eWorkerReady: true;
}

/** Default `--jobs`: the cores this process may use (workers start only for a long run: {@link expectsLongRun}). */
export const defaultJobs = (): number => availableParallelism();

/**
 * Rows from which a run with the default `--jobs` starts workers: a worker's start-up, cold caches and compiled code
 * cost CPU the main thread shares while they are paid, which a short file does not repay (the figures: bench/cli.md,
 * "Short files").
 */
export const LONG_RUN_ROWS = 100_000;

/**
 * Whether a run with the default `--jobs` should start its workers: when the rows still to come are expected to be
 * at least {@link LONG_RUN_ROWS} (a file's size over the length of the records read so far), or, for an input of
 * unknown size (stdin, gzip), once that many rows have been read.
 *
 * @example
 * ```ts
 * expectsLongRun({ fileBytes: 70_000_000, rowsRead: 1_000, charsRead: 69_000 }); // true: about a million rows
 * expectsLongRun({ fileBytes: undefined, rowsRead: 1_000, charsRead: 69_000 }); // false until 100,000 rows
 * ```
 */
export function expectsLongRun({
  fileBytes,
  rowsRead,
  charsRead,
}: {
  /** The input file's size; undefined for stdin or a gzipped file. */
  fileBytes: number | undefined;
  /** Records read so far, and their characters (line ends included). */
  rowsRead: number;
  charsRead: number;
}): boolean {
  if (fileBytes === undefined || charsRead === 0) return rowsRead >= LONG_RUN_ROWS;
  const expectedRows = (fileBytes / charsRead) * rowsRead;
  return expectedRows - rowsRead >= LONG_RUN_ROWS;
}

/**
 * The longest the main thread waits for a worker started with the process to say it is ready: the few milliseconds
 * of its context sent and its ready message back, with room to spare. A worker still loading its code or datasets
 * (large `--datasets` files) is not waited for: the main thread computes meanwhile, as for a worker started by the
 * pool.
 */
export const PRESTARTED_WAIT_MS = 50;

/**
 * Chunks a worker may hold at once (the one it computes and those queued behind it). Enough that it does not run
 * dry while the main thread computes a chunk of its own; few, so the main thread takes the rest.
 */
export const WORKER_QUEUE = 3;

export interface ChunkPool {
  /**
   * Sends `records` to a worker that is ready and holds fewer than {@link WORKER_QUEUE} chunks; undefined when
   * none can take it (all starting or busy), and then the caller computes the chunk itself.
   */
  run(records: readonly RecordText[]): Promise<ChunkResult> | undefined;
  /**
   * Whether a worker is still starting (not ready, not failed). Its ready message is read only when the main thread
   * returns to the event loop, which computing chunks back to back may not do for a long while: the caller yields
   * once per chunk while this holds (see run-file.ts).
   */
  readonly starting: boolean;
  /**
   * Settles once a worker started with the process (prestart.ts) is ready, or has failed, or
   * {@link PRESTARTED_WAIT_MS} after the pool started; at once where no such worker was taken. Such a worker is
   * ready a few milliseconds after the pool sends it the run's context, and its ready message is read only when the
   * main thread returns to the event loop: without this wait, it idled while the main thread computed its first,
   * slowest chunk (bench/cli.md).
   */
  readonly firstReady: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `workers` worker threads for one run. A worker is given chunks only once it has said it is ready (its
 * modules imported, its datasets and adapter built), so a run never waits for a worker's start-up: until then,
 * and whenever the workers are full, the main thread computes.
 *
 * @example
 * ```ts
 * const pool = workerPool(1, 'spend', context);
 * const result = pool.run(records) ?? Promise.resolve(process(records));
 * await pool.close();
 * ```
 */
export function workerPool(
  workers: number,
  kind: WorkerKind,
  context: ChunkContext,
  datasetFiles: readonly string[] = [],
): ChunkPool {
  const entry = workerEntry();
  const setup: WorkerSetup = { kind, context, datasetFiles };
  // The first worker may be running already, started with the process (prestart.ts): it is given the run's context.
  const prestarted = takePrestarted(kind, datasetFiles);
  prestarted?.postMessage({ co2eContext: context } satisfies PrestartContext);
  let onFirstReady = (): void => {};
  const firstReady =
    prestarted === undefined
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, PRESTARTED_WAIT_MS);
          onFirstReady = () => {
            clearTimeout(timer);
            resolve();
          };
        });
  const threads = Array.from({ length: workers }, (_, index) => {
    const worker =
      (index === 0 ? prestarted : undefined) ??
      new Worker(entry.script, { workerData: setup, eval: entry.eval });
    const pending: Array<{ resolve: (result: ChunkResult) => void; reject: (error: Error) => void }> = [];
    const thread = { worker, pending, ready: false, failed: false };
    const failAll = (error: Error) => {
      thread.ready = false;
      thread.failed = true;
      onFirstReady();
      for (const waiter of pending.splice(0)) waiter.reject(error);
    };
    worker.on('message', (message: ChunkResult | WorkerReady | { error: string }) => {
      if ('co2eWorkerReady' in message) {
        thread.ready = true;
        onFirstReady();
        return;
      }
      const waiter = pending.shift();
      if ('error' in message) {
        waiter?.reject(new Error(message.error));
        return;
      }
      // Moved here: once written, it is this thread's to reuse.
      ownBuffer(message.bytes.buffer as ArrayBuffer);
      waiter?.resolve(message);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`a worker thread exited (code ${code})`)));
    return thread;
  });
  return {
    run(records) {
      let least: (typeof threads)[number] | undefined;
      for (const thread of threads)
        if (
          thread.ready &&
          thread.pending.length < WORKER_QUEUE &&
          (least === undefined || thread.pending.length < least.pending.length)
        )
          least = thread;
      if (least === undefined) return undefined;
      const { worker, pending } = least;
      return new Promise<ChunkResult>((resolve, reject) => {
        pending.push({ resolve, reject });
        const packed: ChunkRequest = packRecords(records);
        const moved: ArrayBuffer[] = [packed.lines.buffer as ArrayBuffer];
        const output = takeSpareBuffer();
        if (output !== undefined) {
          packed.output = output;
          moved.push(output);
        }
        worker.postMessage(packed, moved);
      });
    },
    firstReady,
    get starting() {
      return threads.some((thread) => !thread.ready && !thread.failed);
    },
    async close() {
      await Promise.all(threads.map(({ worker }) => worker.terminate()));
    },
  };
}
