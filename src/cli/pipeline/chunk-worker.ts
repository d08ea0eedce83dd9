import { parentPort } from 'node:worker_threads';
import { type ChunkContext, type ChunkResult, chunkProcessor } from './chunk';
import { unpackRecords } from './packed-records';
import type { ChunkRequest, PrestartContext, WorkerReady, WorkerSetup } from './pool';
import { spareBuffer } from './output-buffers';
import type { RowAdapter } from './row-adapter';

/**
 * A worker thread of {@link workerPool}: builds its row adapter with `adapterFor` (the CLI's entry passes the
 * registry lookup, so the pipeline imports no adapter), says it is ready (the pool sends it chunks only then), then
 * computes each chunk it is sent and posts back its result. A worker started with the process (prestart.ts) has no
 * context in its setup: it builds its adapter, then waits for the run to send the context.
 *
 * @example
 * ```ts
 * runChunkWorker(workerData as WorkerSetup, (setup) => rowAdapter(setup.kind, cliDatasets(setup.datasetFiles ?? [])));
 * ```
 */
export function runChunkWorker(setup: WorkerSetup, adapterFor: (setup: WorkerSetup) => RowAdapter): void {
  const adapter = adapterFor(setup);
  if (setup.context !== undefined) {
    serveChunks(adapter, setup.context);
    return;
  }
  // Started with the process (prestart.ts): the run's context comes first, once the run takes this worker.
  parentPort?.once('message', ({ co2eContext }: PrestartContext) => serveChunks(adapter, co2eContext));
}

/** Says the worker is ready, then computes each chunk it is sent and posts back its result. */
function serveChunks(adapter: RowAdapter, context: ChunkContext): void {
  const process = chunkProcessor(adapter, context);
  parentPort?.postMessage({ co2eWorkerReady: true } satisfies WorkerReady);
  parentPort?.on('message', (request: ChunkRequest) => {
    try {
      // A written buffer of the main thread's, for this chunk's rows (output-buffers.ts).
      if (request.output !== undefined) spareBuffer(request.output);
      const { bytes, summary } = process(unpackRecords(request));
      // The bytes move to the main thread rather than being copied (the chunk's buffer is its own); the summary
      // goes as its parts (a RunSummary does not survive structured cloning).
      const message: ChunkResult = { bytes, summary: summary.toParts() };
      parentPort?.postMessage(message, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
