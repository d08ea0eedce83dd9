import { readFileSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  buffersMade,
  MAX_FREE_BUFFERS,
  outputBuffer,
  ownBuffer,
  recycleBuffer,
  spareBuffer,
  takeSpareBuffer,
} from '../../src/cli/pipeline/output-buffers';
import { openOutputFile } from '../../src/cli/pipeline/output-file';
import { recordSink } from '../../src/cli/pipeline/sink';
import { spendRows } from '../../src/cli/adapters/spend';
import { defaultDatasets } from '../../src/embedded/index';
import { RunSummary } from '../../src/cli/pipeline/summary';
import { csvChunkContext, SPEND_HEADER, tempPath } from './harness';

/**
 * Chunks' output buffers are reused once written (output-buffers.ts): what must hold is that a buffer is reused only
 * when nothing reads it any more, and that only the pool's own buffers are ever written over.
 */

/** Empties this thread's pool, so that each test starts from none kept. */
const emptyPool = () => {
  while (takeSpareBuffer() !== undefined);
};

beforeEach(emptyPool);

describe('outputBuffer and recycleBuffer', () => {
  it('gives a written buffer back out instead of making one', () => {
    const first = outputBuffer(64 * 1024);
    expect(first.length).toBeGreaterThanOrEqual(64 * 1024);
    const made = buffersMade();
    recycleBuffer(first.subarray(0, 10));
    const again = outputBuffer(1024);
    expect(again.buffer).toBe(first.buffer);
    expect(buffersMade()).toBe(made);
  });

  it('lets go of a kept buffer too small for the next chunk', () => {
    const small = outputBuffer(4096);
    recycleBuffer(small);
    const large = outputBuffer(small.buffer.byteLength + 1);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.length).toBe(small.buffer.byteLength + 1);
    // The small one is gone, not kept for later.
    expect(takeSpareBuffer()).toBeUndefined();
  });

  it('never takes back memory that is not its own', () => {
    // A small Buffer is a view into Node's shared pool; zlib's output is zlib's.
    recycleBuffer(Buffer.from('id,co2e\n'));
    recycleBuffer(gzipSync('id,co2e\n'));
    recycleBuffer(new Uint8Array(100_000));
    expect(takeSpareBuffer()).toBeUndefined();
  });

  it('keeps a buffer once, however often it is given back', () => {
    const buffer = outputBuffer(8192);
    recycleBuffer(buffer);
    recycleBuffer(buffer.subarray(5));
    expect(takeSpareBuffer()).toBe(buffer.buffer);
    expect(takeSpareBuffer()).toBeUndefined();
  });

  it(`keeps at most ${MAX_FREE_BUFFERS}`, () => {
    const buffers = Array.from({ length: MAX_FREE_BUFFERS + 5 }, () => outputBuffer(4096));
    for (const buffer of buffers) recycleBuffer(buffer);
    let kept = 0;
    while (takeSpareBuffer() !== undefined) kept += 1;
    expect(kept).toBe(MAX_FREE_BUFFERS);
  });

  it('ignores a buffer moved to another thread since (detached here)', () => {
    const buffer = outputBuffer(8192);
    structuredClone(buffer.buffer, { transfer: [buffer.buffer] });
    expect(buffer.buffer.byteLength).toBe(0);
    recycleBuffer(buffer);
    expect(takeSpareBuffer()).toBeUndefined();
  });

  it('takes back a buffer moved in from another thread once it is written, and spares one moved in to write into', () => {
    const moved = structuredClone(new ArrayBuffer(10_000), { transfer: [] });
    recycleBuffer(new Uint8Array(moved));
    expect(takeSpareBuffer()).toBeUndefined(); // not the pool's yet
    ownBuffer(moved);
    recycleBuffer(new Uint8Array(moved, 0, 10));
    expect(takeSpareBuffer()).toBe(moved);
    const spare = new ArrayBuffer(20_000);
    spareBuffer(spare);
    expect(outputBuffer(20_000).buffer).toBe(spare);
  });
});

describe('an --out file reuses a chunk buffer only once its bytes are written', () => {
  it('writes every chunk as it was, with many queued and new buffers taken meanwhile', async () => {
    const out = tempPath('reused.csv');
    const file = openOutputFile(out, {
      force: false,
      resume: false,
      run: undefined,
      notice: () => undefined,
    });
    const expected: Buffer[] = [];
    const writes: Array<Promise<void>> = [];
    const taken = new Set<ArrayBufferLike>();
    for (let chunk = 0; chunk < 40; chunk++) {
      // Each chunk's rows fill its buffer with its own letter: a buffer reused before its write is done would put
      // a later chunk's letter where an earlier one's belongs.
      const buffer = outputBuffer(256 * 1024);
      taken.add(buffer.buffer);
      buffer.fill(0x41 + (chunk % 26), 0, 256 * 1024);
      const bytes = buffer.subarray(0, 256 * 1024);
      expected.push(Buffer.from(bytes));
      writes.push(file.write(bytes));
      // Some chunks go on while earlier writes are under way, others after they are done, as a run's do.
      if (chunk % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(writes);
    await file.commit();
    expect(readFileSync(out).equals(Buffer.concat(expected))).toBe(true);
    // Every write done, the last buffer written is the pool's again (whatever the disk's speed meanwhile).
    expect(taken.has(outputBuffer(1).buffer)).toBe(true);
  });

  it('gives a gzipped chunk buffer back once compressed, and writes what it held', async () => {
    const context = csvChunkContext(SPEND_HEADER);
    const written: Buffer[] = [];
    const sink = recordSink(spendRows(defaultDatasets), context, {
      write: async (bytes) => {
        written.push(Buffer.from(bytes));
      },
      gzip: true,
    });
    const buffer = outputBuffer(4096);
    const length = buffer.write('1,isic4,62,2019,DE,1.5,eur,0.1\n');
    await sink.write({ bytes: buffer.subarray(0, length), summary: new RunSummary({}) });
    expect(gunzipSync(written[0] as Buffer).toString()).toBe('1,isic4,62,2019,DE,1.5,eur,0.1\n');
    expect(takeSpareBuffer()).toBe(buffer.buffer);
  });
});
