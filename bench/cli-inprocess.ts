import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ledgerRequest } from './cli-ledger';

/**
 * `tsx bench/cli-inprocess.ts ROWS`: the in-process rate the CLI is compared with, `calculateSpendBatch` from the
 * built package over the bench ledger's requests (in batches of 100,000, so memory stays that of one batch),
 * after a warm-up. Prints `{ rowsPerSec }` as JSON.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const rows = Number(process.argv[2]);
const { calculateSpendBatch } = (await import(
  pathToFileURL(join(ROOT, 'dist', 'index.js')).href
)) as typeof import('../src/index');
const { defaultDatasets } = (await import(
  pathToFileURL(join(ROOT, 'dist', 'datasets.js')).href
)) as typeof import('../src/datasets/index');

const BATCH = 100_000;
const requests = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, offset) => ledgerRequest(from + offset + 1));
calculateSpendBatch(requests(0, Math.min(rows, 2_000)), defaultDatasets); // warm-up

let seconds = 0;
for (let from = 0; from < rows; from += BATCH) {
  const batch = requests(from, Math.min(rows, from + BATCH));
  const started = performance.now();
  const results = calculateSpendBatch(batch, defaultDatasets);
  seconds += (performance.now() - started) / 1000;
  if (results.length !== batch.length) throw new Error('short batch');
}
console.log(JSON.stringify({ rowsPerSec: rows / seconds }));
