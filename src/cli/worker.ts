/**
 * The entry of the CLI's worker threads (dist/cli-worker.js, which pipeline/pool.ts starts): the chunk worker with
 * the row adapters and the datasets, and nothing of the command line (commander, the HTTP server, Parquet, the
 * datasets fetcher's proxy agent). A worker that loads only this is ready sooner than one loading the whole CLI, and
 * a worker's start-up is the fixed cost that `--jobs` pays before its first row.
 */
import { workerData } from 'node:worker_threads';
import { rowAdapter } from './adapters/index';
import { cliDatasets } from './commands/datasets-flag';
import { runChunkWorker } from './pipeline/chunk-worker';
import type { WorkerSetup } from './pipeline/pool';

runChunkWorker(workerData as WorkerSetup, (setup) =>
  rowAdapter(setup.kind, cliDatasets(setup.datasetFiles ?? [])),
);
