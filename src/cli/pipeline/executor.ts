import type { RecordText } from '../formats/records';
import { type ChunkContext, type ChunkResult, chunkProcessor } from './chunk';
import { InFlightChunks } from './in-flight';
import { discardPrestarted } from './prestart';
import { type ChunkPool, defaultJobs, expectsLongRun, WORKER_QUEUE, workerPool } from './pool';
import type { RowAdapter } from './row-adapter';
import type { ReadSoFar } from './chunker';

/**
 * The executor of a file run: computes chunks in the main thread or on a worker pool, and hands their results back
 * in input order. The output does not depend on which thread computed a chunk (chunk.ts is one pure function).
 */

/** Chunks the main thread may compute past the oldest one still with a worker (see {@link Executor.full}). */
const MAIN_AHEAD = 8;

export interface Executor {
  /** Starts computing `records`: on a worker that is ready and free, else here. */
  dispatch(records: RecordText[], last: boolean): Promise<void>;
  /**
   * Whether as many chunks are under way as the run allows: room for every worker's queue and for the chunks the
   * main thread computes meanwhile, so that a slower worker does not stall it. The caller then takes the oldest.
   */
  readonly full: boolean;
  /** The oldest chunk's result, with its row count; undefined when none is under way. */
  next(): Promise<{ rows: number; result: ChunkResult } | undefined>;
  /** Nothing is left to read: computes here the chunks still queued at workers rather than wait for them. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export interface ExecutorOptions {
  /** `--jobs`, when given (workers then start with the first full chunk). */
  jobs: number | undefined;
  /** Whether chunks may go to workers (Parquet output gathers its rows in the main thread). */
  workers: boolean;
  /** The input's size, to tell a long run ({@link expectsLongRun}); undefined for stdin and gzip. */
  fileBytes: number | undefined;
  /** How far the run has read (the chunker keeps it). */
  read: ReadSoFar;
}

/**
 * The executor for `kind`'s chunks. With `--jobs N` the main thread and N - 1 workers compute; the main thread has its
 * adapter built and its code warm already, while each worker pays its own start-up, so a worker takes a chunk only
 * when it is ready and not full, and the main thread computes the rest. With the default `--jobs`, workers start
 * only once the run is expected to be long enough to repay their start-up.
 *
 * @example
 * ```ts
 * const executor = createExecutor(kind, context, { jobs: 2, workers: true, fileBytes, read });
 * await executor.dispatch(records, false);
 * const head = await executor.next();
 * ```
 */
export function createExecutor(kind: RowAdapter, context: ChunkContext, options: ExecutorOptions): Executor {
  const jobs = options.workers ? (options.jobs ?? defaultJobs()) : 1;
  // A worker started with the process (prestart.ts) that this run will not use is let go at once.
  if (jobs < 2 || kind.worker === undefined) discardPrestarted();
  const compute = chunkProcessor(kind, context);
  const inFlight = new InFlightChunks();
  const maxInFlight = jobs > 1 ? WORKER_QUEUE * (jobs - 1) + MAIN_AHEAD : 2;
  let pool: ChunkPool | undefined;
  const wantsWorkers = () =>
    pool === undefined &&
    jobs > 1 &&
    kind.worker !== undefined &&
    (options.jobs !== undefined ||
      expectsLongRun({
        fileBytes: options.fileBytes,
        rowsRead: options.read.rows,
        charsRead: options.read.chars,
      }));
  return {
    async dispatch(records, last) {
      // A worker's ready message waits for the event loop; without this the main thread, computing chunk after
      // chunk from data already read, would notice a ready worker only some chunks later.
      if (!last && pool?.starting === true) await new Promise((resolve) => setImmediate(resolve));
      // The last chunk never starts workers: a file of one chunk is computed here.
      if (!last && wantsWorkers()) {
        pool = workerPool(jobs - 1, kind.worker!, context, kind.workerDatasets);
        await pool.firstReady;
      }
      // A file too short for workers at its first chunk stays so (fewer rows are still to come at each chunk): a
      // worker started with the process for it is let go now rather than held to the end. (An input of unknown size,
      // gzip, may still grow long enough: its worker waits.)
      if (pool === undefined && (options.fileBytes !== undefined || last)) discardPrestarted();
      inFlight.add(records, pool?.run(records) ?? compute(records));
    },
    get full() {
      return inFlight.length >= maxInFlight;
    },
    async next() {
      const head = inFlight.shift();
      return head === undefined ? undefined : { rows: head.rows, result: await head.result };
    },
    async drain() {
      if (pool !== undefined) await inFlight.computeQueued(compute);
    },
    async close() {
      discardPrestarted();
      await pool?.close();
    },
  };
}
