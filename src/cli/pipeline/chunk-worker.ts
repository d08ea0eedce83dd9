import { parentPort } from 'node:worker_threads';
import { type ChunkResult, chunkProcessor } from './chunk';
import { type PackedRecords, unpackRecords } from './packed-records';
import type { WorkerReady, WorkerSetup } from './pool';
import type { RowAdapter } from './row-adapter';

/**
 * A worker thread of {@link workerPool}: builds its row adapter with `adapterFor` (the CLI's entry passes the
 * registry lookup, so the pipeline imports no adapter), says it is ready (the pool sends it chunks only then), then
 * computes each chunk it is sent and posts back its result.
 *
 * @example
 * ```ts
 * runChunkWorker(workerData as WorkerSetup, (setup) => rowAdapter(setup.kind, cliDatasets(setup.datasetFiles ?? [])));
 * ```
 */
export function runChunkWorker(setup: WorkerSetup, adapterFor: (setup: WorkerSetup) => RowAdapter): void {
  const process = chunkProcessor(adapterFor(setup), setup.context);
  parentPort?.postMessage({ co2eWorkerReady: true } satisfies WorkerReady);
  parentPort?.on('message', (records: PackedRecords) => {
    try {
      const { bytes, summary } = process(unpackRecords(records));
      // The bytes move to the main thread rather than being copied (the chunk's buffer is its own); the summary
      // goes as its parts (a RunSummary does not survive structured cloning).
      const message: ChunkResult = { bytes, summary: summary.toParts() };
      parentPort?.postMessage(message, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
