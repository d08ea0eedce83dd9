import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { spendRows } from '../../src/cli/adapters/spend';
import type { RecordText } from '../../src/cli/formats/records';
import { chunkProcessor } from '../../src/cli/pipeline/chunk';
import fc from 'fast-check';
import { csvChunkContext, SPEND_HEADER } from './harness';
import { expectsLongRun, LONG_RUN_ROWS, WORKER_QUEUE, workerPool } from '../../src/cli/pipeline/pool';
import { outputBuffer, recycleBuffer, takeSpareBuffer } from '../../src/cli/pipeline/output-buffers';

/**
 * The worker pool beside the main thread (`--jobs N`: the main thread and N - 1 workers): a worker takes chunks
 * only once it is ready and while its queue has room, and what it computes is byte for byte what the main thread
 * computes from the same records. (A short file may be computed by the main thread alone before a worker is ready,
 * so the CLI's own `--jobs 2` tests need not reach a worker: this one does.)
 */

const context = csvChunkContext(SPEND_HEADER);
const records: RecordText[] = Array.from({ length: 300 }, (_, index) =>
  index % 61 === 7
    ? // a record the reader could not take whole: it crosses to a worker as it is
      {
        line: index + 2,
        error: `line ${index + 2}: the line is not valid UTF-8; save the file as UTF-8.`,
        salvage: `${index},isic4,\uFFFD`,
      }
    : {
        line: index + 2,
        text:
          index % 97 === 5
            ? `${index},isic4,62,2019,DE,n/a,eur` // fails: not a number
            : index % 50 === 3
              ? `"=cmd ${index}",isic4,62,2019,DE,${index + 0.25},eur` // quoted, formula-like: neutralised
              : `${index},isic4,62,2019,DE,${index + 0.5},eur`,
      },
);

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
      // A worker posts its summary as its parts; the main thread's is the summary object.
      const mainState = main.summary.toParts();
      for (const result of await Promise.all(queued)) {
        expect(Buffer.from(result!.bytes).toString('utf8')).toBe(Buffer.from(main.bytes).toString('utf8'));
        expect(result!.summary).toEqual(mainState);
      }
      expect(main.summary.failures).toBe(9); // 4 not numbers, 5 broken records
      const again = pool.run(records); // room again
      expect(again).toBeDefined();
      expect((await again!).summary).toEqual(mainState);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("moves a written output buffer to the worker, which writes its chunk's rows into it", async () => {
    const pool = workerPool(1, 'spend', context);
    try {
      let ready;
      for (let waited = 0; ready === undefined && waited < 30_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ready = pool.run(records);
      }
      await ready;
      while (takeSpareBuffer() !== undefined);
      // A buffer the main thread has written out, larger than a worker would make for this chunk, with old bytes.
      const spare = outputBuffer(1 << 20).fill(0xaa);
      recycleBuffer(spare);
      const result = await pool.run(records)!;
      expect(spare.buffer.byteLength).toBe(0); // moved to the worker
      expect(result.bytes.buffer.byteLength).toBe(1 << 20); // and back, with the chunk's rows in it
      const main = chunkProcessor(spendRows(defaultDatasets), context)(records);
      expect(Buffer.from(result.bytes).toString('utf8')).toBe(Buffer.from(main.bytes).toString('utf8'));
      // Once written, it is the main thread's to reuse.
      while (takeSpareBuffer() !== undefined);
      recycleBuffer(result.bytes);
      expect(takeSpareBuffer()).toBe(result.bytes.buffer);
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

describe('expectsLongRun: when the default --jobs starts workers', () => {
  // A ledger line of about 70 characters: 1,000 rows read are 70,000 characters.
  const read = { rowsRead: 1_000, charsRead: 70_000 };

  it('starts them for a file expected to hold 100,000 rows more than those read, not for a shorter one', () => {
    expect(expectsLongRun({ fileBytes: 70 * (1_000 + LONG_RUN_ROWS), ...read })).toBe(true);
    expect(expectsLongRun({ fileBytes: 70 * (1_000 + LONG_RUN_ROWS) - 70, ...read })).toBe(false);
    expect(expectsLongRun({ fileBytes: 70 * 50_000, ...read })).toBe(false); // a 50k-row ledger: the main thread alone
  });

  it('for an input of unknown size (stdin, gzip), starts them once 100,000 rows have been read', () => {
    expect(expectsLongRun({ fileBytes: undefined, ...read })).toBe(false);
    expect(expectsLongRun({ fileBytes: undefined, rowsRead: LONG_RUN_ROWS - 1, charsRead: 7e6 })).toBe(false);
    expect(expectsLongRun({ fileBytes: undefined, rowsRead: LONG_RUN_ROWS, charsRead: 7e6 })).toBe(true);
  });

  it('property: a larger file never turns workers off, and more rows read of the same file never turn them on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 500 }),
        (a, b, rowsRead, lineChars) => {
          const [small, large] = a < b ? [a, b] : [b, a];
          const charsRead = rowsRead * lineChars;
          if (expectsLongRun({ fileBytes: small, rowsRead, charsRead }))
            expect(expectsLongRun({ fileBytes: large, rowsRead, charsRead })).toBe(true);
          // Reading on in the same file (same line length): the rows still to come only shrink.
          if (!expectsLongRun({ fileBytes: large, rowsRead, charsRead }))
            expect(
              expectsLongRun({ fileBytes: large, rowsRead: rowsRead + 1, charsRead: charsRead + lineChars }),
            ).toBe(false);
        },
      ),
    );
  });
});
