import type { RecordText } from '../formats/records';
import { LineRecord } from '../formats/lines';

/**
 * A chunk of records as it crosses to a worker thread: the plain records' texts as an array of strings, and every
 * record's line in one typed array. Structured cloning an array of `{ line, text }` objects writes both keys and a
 * string per record and makes an object again for each on the other side; this writes only the strings, and the
 * worker's texts arrive as strings of their own (bench/worker-transfer.ts).
 */
export interface PackedRecords {
  /** The plain records' texts, in order. */
  texts: string[];
  /** Every record's line. */
  lines: Int32Array;
  /** The records that are not a line and its text (an error, a salvaged or Parquet record), by index. */
  others: Array<[index: number, record: RecordText]>;
}

const isPlain = (record: RecordText): boolean =>
  record.text !== undefined &&
  record.error === undefined &&
  record.salvage === undefined &&
  record.fields === undefined &&
  record.values === undefined;

/**
 * Packs a chunk's records for a worker; {@link unpackRecords} gives them back equal.
 *
 * @example
 * ```ts
 * const packed = packRecords([{ line: 2, text: 'a,1' }, { line: 3, error: 'line 3: …' }]);
 * worker.postMessage(packed, [packed.lines.buffer]);
 * ```
 */
export function packRecords(records: readonly RecordText[]): PackedRecords {
  const lines = new Int32Array(records.length);
  const texts: string[] = [];
  const others: PackedRecords['others'] = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as RecordText;
    lines[index] = record.line;
    if (isPlain(record)) texts.push(record.text as string);
    else others.push([index, record]);
  }
  return { texts, lines, others };
}

/**
 * The records {@link packRecords} packed, in their order.
 *
 * @example
 * ```ts
 * unpackRecords(packRecords([{ line: 2, text: 'a,1' }])); // [{ line: 2, text: 'a,1' }]
 * ```
 */
export function unpackRecords({ texts, lines, others }: PackedRecords): RecordText[] {
  const records = new Array<RecordText>(lines.length);
  let next = 0;
  let other = 0;
  let otherAt = others[0]?.[0] ?? -1;
  for (let index = 0; index < records.length; index++) {
    if (index === otherAt) {
      records[index] = (others[other] as [number, RecordText])[1];
      other++;
      otherAt = others[other]?.[0] ?? -1;
    } else records[index] = new LineRecord(lines[index] as number, texts[next++] as string);
  }
  return records;
}
