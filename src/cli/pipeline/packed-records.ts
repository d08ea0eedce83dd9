import type { RecordText } from '../formats/records';

/**
 * A chunk of records as it crosses to a worker thread: the texts end to end in one string, and each record's line
 * and end in one typed array that is transferred rather than copied. Structured cloning an array of `{ line, text }`
 * objects writes both keys and a string per record and makes them again on the other side; this is one string and
 * one buffer a chunk, and the worker's records are slices of that string.
 */
export interface PackedRecords {
  /** The plain records' texts, end to end. */
  text: string;
  /** Per record: its line, then where its text ends in `text` (a record that is not plain takes no text). */
  spans: Int32Array;
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
 * worker.postMessage(packed, [packed.spans.buffer]);
 * ```
 */
export function packRecords(records: readonly RecordText[]): PackedRecords {
  const spans = new Int32Array(records.length * 2);
  const texts: string[] = [];
  const others: PackedRecords['others'] = [];
  let end = 0;
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as RecordText;
    spans[2 * index] = record.line;
    if (isPlain(record)) {
      const text = record.text as string;
      texts.push(text);
      end += text.length;
    } else others.push([index, record]);
    spans[2 * index + 1] = end;
  }
  return { text: texts.join(''), spans, others };
}

/**
 * The records {@link packRecords} packed, in their order.
 *
 * @example
 * ```ts
 * unpackRecords(packRecords([{ line: 2, text: 'a,1' }])); // [{ line: 2, text: 'a,1' }]
 * ```
 */
export function unpackRecords({ text, spans, others }: PackedRecords): RecordText[] {
  const records = new Array<RecordText>(spans.length >> 1);
  let start = 0;
  for (let index = 0; index < records.length; index++) {
    const end = spans[2 * index + 1] as number;
    records[index] = { line: spans[2 * index] as number, text: text.slice(start, end) };
    start = end;
  }
  for (const [index, record] of others) records[index] = record;
  return records;
}
