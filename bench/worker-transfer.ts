import { spendRows } from '../src/cli/adapters/spend';
import type { RecordText } from '../src/cli/formats/records';
import { chunkProcessor } from '../src/cli/pipeline/chunk';
import { packRecords, unpackRecords } from '../src/cli/pipeline/packed-records';
import { defaultDatasets } from '../src/embedded/index';
import { ledgerChunks } from './cli-ledger';
import { median } from './statistics';

/**
 * What a chunk costs on its way to a worker (`--jobs 2` and more): the varied ledger's records (bench/cli-ledger.ts)
 * in chunks of CHUNK_ROWS, structured-cloned as `postMessage` does: as `{ line, text }` objects (before), packed
 * (pipeline/packed-records.ts: the texts as an array beside a transferred buffer of lines), and joined (the first
 * packing: one string and a buffer of ends, the records slices of that string). A chunk at a time, as a worker takes
 * them, the spend adapter (its kept parts warm) then computes the chunk as it arrived. Interleaved rounds; medians.
 * The crossing is one thread's share of the work; a whole `--jobs 2` run also shows what each way leaves the garbage
 * collectors (bench/cli.md).
 *   tsx bench/worker-transfer.ts [rows] [rounds]     (default 200,000 and 7)
 */

const ROWS = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 7);

const { chunks, context } = ledgerChunks(ROWS);
const compute = chunkProcessor(spendRows(defaultDatasets), context);
for (const chunk of chunks) compute(chunk); // the kept parts and the compiled code warm

const ways = {
  objects: (chunk: RecordText[]) => structuredClone(chunk),
  packed: (chunk: RecordText[]) => {
    const packed = packRecords(chunk);
    return unpackRecords(structuredClone(packed, { transfer: [packed.lines.buffer as ArrayBuffer] }));
  },
  /** The first packing, measured and dropped: the texts end to end in one string, the records slices of it. */
  joined: (chunk: RecordText[]) => {
    const ends = new Int32Array(chunk.length);
    let end = 0;
    chunk.forEach((record, index) => (ends[index] = end += (record.text as string).length));
    const sent = structuredClone(
      { text: chunk.map((record) => record.text).join(''), ends },
      { transfer: [ends.buffer] },
    );
    return chunk.map((record, index) => ({
      line: record.line,
      text: sent.text.slice(index === 0 ? 0 : sent.ends[index - 1], sent.ends[index]),
    }));
  },
};
const times = Object.fromEntries(
  Object.keys(ways).map((name) => [name, { crossing: [] as number[], rows: [] as number[] }]),
) as Record<keyof typeof ways, { crossing: number[]; rows: number[] }>;
let bytes = 0;
for (let round = 0; round < ROUNDS; round++)
  for (const [name, cross] of Object.entries(ways) as Array<
    [keyof typeof ways, (chunk: RecordText[]) => RecordText[]]
  >) {
    // A chunk at a time, as a worker takes them: its crossing, then its rows.
    let crossing = 0;
    let rows = 0;
    for (const chunk of chunks) {
      const start = performance.now();
      const arrived = cross(chunk);
      const computing = performance.now();
      bytes += compute(arrived).bytes.length;
      crossing += computing - start;
      rows += performance.now() - computing;
    }
    times[name].crossing.push(crossing);
    times[name].rows.push(rows);
  }

for (const [name, { crossing, rows }] of Object.entries(times))
  console.log(
    `${name}: crossing ${median(crossing).toFixed(0)} ms, computing ${median(rows).toFixed(0)} ms (medians of ${ROUNDS}, ${ROWS} rows)`,
  );
console.log(
  `packed ÷ objects: crossing ${(median(times.packed.crossing) / median(times.objects.crossing)).toFixed(2)}×, computing ${(median(times.packed.rows) / median(times.objects.rows)).toFixed(2)}× (${bytes} bytes written)`,
);
