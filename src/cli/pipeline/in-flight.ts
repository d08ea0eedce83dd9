import type { RecordText } from '../formats/records';
import type { ChunkResult } from './chunk';

/**
 * The chunks of a file run that are dispatched and not yet written, in input order: computed by the main thread
 * (their result is in), or queued at a worker (their records kept until its result is in, so that the main thread
 * can still compute them itself: {@link InFlightChunks.computeQueued}). The run writes them from the front.
 *
 * @example
 * ```ts
 * const chunks = new InFlightChunks();
 * chunks.add(records, pool.run(records) ?? process(records));
 * await chunks.computeQueued(process); // at the end of the input
 * for (let head; (head = chunks.shift()) !== undefined; ) write(await head.result);
 * ```
 */
export class InFlightChunks {
  private readonly entries: Array<{
    rows: number;
    result: Promise<ChunkResult>;
    queued: readonly RecordText[] | undefined;
  }> = [];

  get length(): number {
    return this.entries.length;
  }

  /** A chunk and its result: the result itself when the main thread computed it, a worker's promise otherwise. */
  add(records: readonly RecordText[], result: ChunkResult | Promise<ChunkResult>): void {
    if (!(result instanceof Promise)) {
      this.entries.push({ rows: records.length, result: Promise.resolve(result), queued: undefined });
      return;
    }
    const entry = { rows: records.length, result, queued: records as readonly RecordText[] | undefined };
    const settle = () => (entry.queued = undefined);
    // Awaited in order by the caller; this also keeps a rejection from being unhandled meanwhile.
    result.then(settle, settle);
    this.entries.push(entry);
  }

  /**
   * Computes the chunks still queued at workers with `compute`, last first (those a worker has not started yet),
   * and takes its result for each: for when the main thread has nothing left to read and would otherwise wait. A
   * worker's first chunks are slow (its caches and compiled code are cold), and on a short file they are the last
   * ones. A chunk's bytes and summary are the same from any thread, so whichever result is taken, the output is.
   */
  async computeQueued(compute: (records: readonly RecordText[]) => ChunkResult): Promise<void> {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      // Lets in the results workers have posted, so that a chunk already done is not computed again.
      await new Promise((resolve) => setImmediate(resolve));
      const entry = this.entries[index];
      if (entry?.queued === undefined) continue;
      entry.result = Promise.resolve(compute(entry.queued));
      entry.queued = undefined;
    }
  }

  /** The oldest chunk, to be written next, with its row count. */
  shift(): { rows: number; result: Promise<ChunkResult> } | undefined {
    return this.entries.shift();
  }
}
