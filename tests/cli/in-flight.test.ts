import { describe, expect, it } from 'vitest';
import type { ChunkResult } from '../../src/cli/pipeline/chunk';
import { InFlightChunks } from '../../src/cli/pipeline/in-flight';
import type { RecordText } from '../../src/cli/formats/records';

/**
 * The chunks under way in a file run: written in input order, and at the end of the input the main thread computes
 * the chunks still queued at workers itself, last first, taking whichever result is in first.
 */

const records = (name: string): RecordText[] => [{ line: 2, text: name }];
const result = (text: string): ChunkResult => ({
  bytes: new TextEncoder().encode(text),
  summary: {
    rows: 1,
    failures: 0,
    total: { scaled: 0n, rest: undefined },
    groups: [],
    errorCodes: [],
    firstFailures: [],
  },
});
const textOf = async (entry: { result: Promise<ChunkResult> } | undefined) =>
  new TextDecoder().decode((await entry!.result).bytes);
/** A worker's answer that has not come (a slow worker), or that comes when `resolve` is called. */
function pending() {
  let resolve!: (value: ChunkResult) => void;
  const promise = new Promise<ChunkResult>((done) => (resolve = done));
  return { promise, resolve };
}

describe('InFlightChunks', () => {
  it('computes the chunks still queued at a worker, last first, and keeps those the main thread computed', async () => {
    const chunks = new InFlightChunks();
    const slow = [pending(), pending()];
    chunks.add(records('a'), result('a by main'));
    chunks.add(records('b'), slow[0]!.promise);
    chunks.add(records('c'), slow[1]!.promise);
    const computed: string[] = [];
    await chunks.computeQueued((queued) => {
      computed.push(queued[0]!.text!);
      return result(`${queued[0]!.text} by main`);
    });
    expect(computed).toEqual(['c', 'b']);
    expect(chunks.length).toBe(3);
    expect(await textOf(chunks.shift())).toBe('a by main');
    expect(await textOf(chunks.shift())).toBe('b by main'); // the worker never answered: no wait
    expect(await textOf(chunks.shift())).toBe('c by main');
    expect(chunks.shift()).toBeUndefined();
  });

  it("takes a worker's result that is in, and computes only what is still queued", async () => {
    const chunks = new InFlightChunks();
    const done = pending();
    const slow = pending();
    chunks.add(records('a'), done.promise);
    chunks.add(records('b'), slow.promise);
    done.resolve(result('a by worker'));
    const computed: string[] = [];
    await chunks.computeQueued((queued) => {
      computed.push(queued[0]!.text!);
      return result(`${queued[0]!.text} by main`);
    });
    expect(computed).toEqual(['b']);
    expect(await textOf(chunks.shift())).toBe('a by worker');
    expect(await textOf(chunks.shift())).toBe('b by main');
  });

  it("leaves a worker's failure to the caller (a failed chunk is not computed again)", async () => {
    const chunks = new InFlightChunks();
    chunks.add(records('a'), Promise.reject(new Error('a worker thread exited (code 1)')));
    let computed = 0;
    await chunks.computeQueued((queued) => {
      computed += 1;
      return result(queued[0]!.text!);
    });
    expect(computed).toBe(0);
    await expect(chunks.shift()!.result).rejects.toThrow('a worker thread exited');
  });
});
