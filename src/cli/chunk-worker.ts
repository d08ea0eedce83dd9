import { parentPort } from 'node:worker_threads';
import { cliDatasets } from './datasets-flag';
import { chunkProcessor, type RecordText } from './chunk';
import { cloudRows } from './cloud-rows';
import type { WorkerSetup } from './pool';
import { spendRows } from './spend-rows';

/** A worker thread of {@link workerPool}: computes each chunk it is sent and posts back its result. */
export function runChunkWorker(setup: WorkerSetup): void {
  const datasets = cliDatasets(setup.datasetFiles ?? []);
  const kind = setup.kind === 'spend' ? spendRows(datasets) : cloudRows(datasets);
  const process = chunkProcessor(kind, setup.context);
  parentPort?.on('message', (records: RecordText[]) => {
    try {
      parentPort?.postMessage(process(records));
    } catch (error) {
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
