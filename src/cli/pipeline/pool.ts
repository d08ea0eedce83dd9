import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RecordText } from '../formats/records';
import type { ChunkContext, ChunkResult } from './chunk';

/**
 * Worker threads that run {@link chunkProcessor} on chunks of a file run. Chunks go to the worker with the fewest
 * pending, each worker answers in the order it was asked, and the caller awaits results in input order, so the
 * output is the same whatever `--jobs` is.
 */

/** A row adapter a worker can build on its own: its name in the registry (adapters/index.ts, `ROW_ADAPTERS`). */
export type WorkerKind = string;

/** What a worker is started with (`workerData`). */
export interface WorkerSetup {
  co2eChunkWorker: true;
  kind: WorkerKind;
  context: ChunkContext;
  /** `--datasets` files, merged over the embedded defaults in order, as the main thread did. */
  datasetFiles?: readonly string[];
}

/** Default `--jobs`: the cores this process may use. */
export const defaultJobs = (): number => availableParallelism();

export interface ChunkPool {
  run(records: readonly RecordText[]): Promise<ChunkResult>;
  close(): Promise<void>;
}

/**
 * Where the worker's code is: this very file once bundled (dist/cli.js starts a worker when `workerData` says
 * so), or the CLI's entry through tsx when running from source.
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL(here), eval: false };
  // From source (tsx, vitest): a worker does not inherit the TypeScript loader, so register tsx's first.
  const api = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(api).href;
  const entry = new URL('../index.ts', here).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}

/**
 * Starts `jobs` worker threads for one run.
 *
 * @example
 * ```ts
 * const pool = workerPool(2, 'spend', context);
 * const { text, summary } = await pool.run(records);
 * await pool.close();
 * ```
 */
export function workerPool(
  jobs: number,
  kind: WorkerKind,
  context: ChunkContext,
  datasetFiles: readonly string[] = [],
): ChunkPool {
  const entry = workerEntry();
  const setup: WorkerSetup = { co2eChunkWorker: true, kind, context, datasetFiles };
  const workers = Array.from({ length: jobs }, () => {
    const worker = new Worker(entry.script, { workerData: setup, eval: entry.eval });
    const pending: Array<{ resolve: (result: ChunkResult) => void; reject: (error: Error) => void }> = [];
    const failAll = (error: Error) => {
      for (const waiter of pending.splice(0)) waiter.reject(error);
    };
    worker.on('message', (message: ChunkResult | { error: string }) => {
      const waiter = pending.shift();
      if ('error' in message) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`a worker thread exited (code ${code})`)));
    return { worker, pending };
  });
  return {
    run(records) {
      const least = workers.reduce((best, next) => (next.pending.length < best.pending.length ? next : best));
      return new Promise<ChunkResult>((resolve, reject) => {
        least.pending.push({ resolve, reject });
        least.worker.postMessage(records);
      });
    },
    async close() {
      await Promise.all(workers.map(({ worker }) => worker.terminate()));
    },
  };
}
