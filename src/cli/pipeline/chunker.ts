import type { RecordText } from '../formats/records';

/**
 * The chunker of a file run: records, a source batch at a time, grouped into the chunks that are computed together
 * (in the main thread or on a worker) and written in input order.
 */

/** Records per chunk, and the most characters of record text in one (long records make shorter chunks). */
export const CHUNK_ROWS = 1_000;
const CHUNK_CHARS = 1_000_000;

/** One chunk of records; `last` when no record follows it. */
export interface Chunk {
  records: RecordText[];
  last: boolean;
}

/** How far a run has read: records seen (those a resumed run skips included) and their characters, line ends included. */
export interface ReadSoFar {
  rows: number;
  chars: number;
  /** Set when reading stopped because the run was interrupted. */
  interrupted: boolean;
}

/**
 * The first `count` records of `batches` (fewer when the input is shorter), read before anything is written (JSON
 * Lines written as CSV takes its columns from them), and the batches that give them again, then the rest.
 *
 * @example
 * ```ts
 * const { first, batches } = await firstRecords(input.batches, CHUNK_ROWS);
 * ```
 */
export async function firstRecords(
  batches: AsyncIterator<RecordText[]>,
  count: number,
): Promise<{ first: readonly RecordText[]; batches: AsyncIterator<RecordText[]> }> {
  const first: RecordText[] = [];
  let ended = false;
  while (first.length < count && !ended) {
    const next = await batches.next();
    if (next.done === true) ended = true;
    else first.push(...next.value);
  }
  async function* again(): AsyncGenerator<RecordText[]> {
    if (first.length > 0) yield first.splice(0);
    if (ended) return;
    for (let next = await batches.next(); next.done !== true; next = await batches.next()) yield next.value;
  }
  return { first: [...first], batches: again() };
}

/**
 * The chunks of `batches`, skipping the first `skip` records (already in a resumed output). A full chunk is handed on
 * once a record follows it, so a file of one chunk ends with a `last` chunk. `stopped` is asked before each batch:
 * once it says so, reading ends and the chunk under way is dropped (`read.interrupted`).
 *
 * @example
 * ```ts
 * for await (const { records, last } of chunksOf(batches, 0, () => signal.aborted, read)) compute(records, last);
 * ```
 */
export async function* chunksOf(
  batches: AsyncIterator<RecordText[]>,
  skip: number,
  stopped: () => boolean,
  read: ReadSoFar,
): AsyncGenerator<Chunk> {
  let chunk: RecordText[] = [];
  let chars = 0;
  let first = true;
  for (let next = await batches.next(); next.done !== true; next = await batches.next()) {
    // The records read before the run started (the first batch) are taken whatever happens meanwhile.
    if (!first && stopped()) break;
    first = false;
    for (const record of next.value) {
      read.rows += 1;
      read.chars += (record.text?.length ?? 0) + 1;
      if (read.rows <= skip) continue;
      if (chunk.length >= CHUNK_ROWS || chars >= CHUNK_CHARS) {
        yield { records: chunk, last: false };
        chunk = [];
        chars = 0;
      }
      chunk.push(record);
      chars += record.text?.length ?? 0;
    }
  }
  read.interrupted = stopped();
  if (!read.interrupted && chunk.length > 0) yield { records: chunk, last: true };
}
