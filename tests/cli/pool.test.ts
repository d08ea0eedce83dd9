import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/datasets/index';
import { spendRows } from '../../src/cli/adapters/spend';
import { passThroughColumns } from '../../src/cli/formats/index';
import { type ChunkContext, chunkProcessor } from '../../src/cli/pipeline/chunk';
import { WORKER_QUEUE, workerPool } from '../../src/cli/pipeline/pool';

/**
 * The worker pool beside the main thread (`--jobs N`: the main thread and N - 1 workers): a worker takes chunks
 * only once it is ready and while its queue has room, and what it computes is byte for byte what the main thread
 * computes from the same records. (A short file may be computed by the main thread alone before a worker is ready,
 * so the CLI's own `--jobs 2` tests need not reach a worker: this one does.)
 */

const HEADER = [
  'id',
  'classification_type',
  'classification_code',
  'spend_year',
  'spend_region',
  'money',
  'money_unit',
];
const context: ChunkContext = {
  inputFormat: 'csv',
  format: 'csv',
  header: HEADER,
  columns: passThroughColumns(HEADER, undefined),
  neutraliseFormulas: true,
};
const records = Array.from({ length: 300 }, (_, index) => ({
  line: index + 2,
  text:
    index % 97 === 5
      ? `${index},isic4,62,2019,DE,n/a,eur` // fails: not a number
      : index % 50 === 3
        ? `"=cmd ${index}",isic4,62,2019,DE,${index + 0.25},eur` // quoted, formula-like: neutralised
        : `${index},isic4,62,2019,DE,${index + 0.5},eur`,
}));

describe('workerPool', () => {
  it('gives a worker chunks only once it is ready and has room, and it computes them as the main thread does', async () => {
    const pool = workerPool(1, 'spend', context);
    try {
      // Just started: the worker is importing its modules, so the caller computes.
      expect(pool.starting).toBe(true);
      expect(pool.run(records)).toBeUndefined();
      let first;
      for (let waited = 0; first === undefined && waited < 30_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        first = pool.run(records);
      }
      expect(first).toBeDefined();
      expect(pool.starting).toBe(false);
      const queued = [first];
      for (let index = 1; index < WORKER_QUEUE; index++) queued.push(pool.run(records));
      expect(queued.every((result) => result !== undefined)).toBe(true);
      expect(pool.run(records)).toBeUndefined(); // full: the main thread takes this one

      const main = chunkProcessor(spendRows(defaultDatasets), context)(records);
      // A worker posts its summary as plain data; the main thread's is the summary object.
      const mainState = main.summary.toState();
      for (const result of await Promise.all(queued)) {
        expect(Buffer.from(result!.bytes).toString('utf8')).toBe(Buffer.from(main.bytes).toString('utf8'));
        expect(result!.summary).toEqual(mainState);
      }
      expect(main.summary.failures).toBe(4);
      const again = pool.run(records); // room again
      expect(again).toBeDefined();
      expect((await again!).summary).toEqual(mainState);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('is no longer starting once its worker has failed, so the caller stops waiting for it', async () => {
    // An adapter no worker can build: the worker throws while starting and exits.
    const pool = workerPool(1, 'no-such-adapter', context);
    try {
      for (let waited = 0; pool.starting && waited < 30_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pool.starting).toBe(false);
      expect(pool.run(records)).toBeUndefined();
    } finally {
      await pool.close();
    }
  }, 60_000);
});
