import { parseRecord, readCsvRecordTextBatches } from './csv/reader';
import { MAX_LINE_CHARS, type PhysicalLine, readLineBatches } from './lines';

/**
 * Input records of a batch file, CSV or JSON Lines, streamed: split into records here (cheap, in the main
 * thread), parsed and computed a chunk at a time in pipeline/chunk.ts (possibly in a worker).
 */

/** The streamed text formats, read a record at a time. */
export type FileFormat = 'csv' | 'jsonl';
/** Every format a file command reads or writes (Parquet is read and written whole-file, in the main thread). */
export type ParquetAwareFormat = FileFormat | 'parquet';

/** An input record as read from the file: its text (not parsed yet), or why its lines make no record. */
export interface RecordText {
  line: number;
  text?: string;
  error?: string;
  /** For a broken record: text whose leading fields can still be read. */
  salvage?: string;
}

/** A problem with the file as a whole (a malformed or duplicated header): a usage error. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}

export interface ReadRecordsOptions {
  onChunk?: (bytes: number) => void;
  maxRecordChars?: number;
}

export interface RecordSource {
  /** The CSV header's column names ([] for JSON Lines, and for an empty CSV file). */
  header: string[];
  /** The records after the header, one per output row. */
  records: AsyncIterator<RecordText>;
  /**
   * The same records a source chunk at a time (arrays, possibly empty). Read either `records` or `batches`, not
   * both: they share one reader.
   */
  batches: AsyncIterator<RecordText[]>;
}

async function* oneByOne(batches: AsyncIterator<RecordText[]>): AsyncGenerator<RecordText> {
  for (let next = await batches.next(); next.done !== true; next = await batches.next()) yield* next.value;
}

/** `first` (records already taken from the batches), then the rest of `batches`. */
async function* after(
  first: RecordText[],
  batches: AsyncIterator<RecordText[]>,
): AsyncGenerator<RecordText[]> {
  if (first.length > 0) yield first;
  for (let next = await batches.next(); next.done !== true; next = await batches.next()) yield next.value;
}

const source_ = (header: string[], batches: AsyncIterator<RecordText[]>): RecordSource => ({
  header,
  batches,
  records: oneByOne(batches),
});

async function* jsonlRecordTexts(
  lines: AsyncIterable<readonly PhysicalLine[]>,
  maxLineChars: number,
): AsyncGenerator<RecordText[]> {
  for await (const batch of lines) {
    const records: RecordText[] = [];
    for (const { text, line, tooLong, invalidUtf8 } of batch) {
      if (tooLong)
        records.push({ line, error: `line ${line}: the line is longer than ${maxLineChars} characters.` });
      else if (text.trim() === '') continue;
      else if (invalidUtf8)
        records.push({ line, error: `line ${line}: the line is not valid UTF-8; save the file as UTF-8.` });
      else records.push({ line, text });
    }
    yield records;
  }
}

/**
 * Opens the records of `source`; for CSV, reads and checks the header first.
 *
 * @throws {@link InputFileError} for a CSV header that is malformed or names a column twice.
 *
 * @example
 * ```ts
 * const { header, records } = await readRecords(createReadStream('ledger.csv'), 'csv');
 * ```
 */
export async function readRecords(
  source: AsyncIterable<Uint8Array | string>,
  format: FileFormat,
  options: ReadRecordsOptions = {},
): Promise<RecordSource> {
  const max = options.maxRecordChars ?? MAX_LINE_CHARS;
  const lines = readLineBatches(source, max, options.onChunk);
  if (format === 'jsonl') return source_([], jsonlRecordTexts(lines, max));
  const batches = readCsvRecordTextBatches(lines, max);
  let batch: RecordText[] = [];
  while (batch.length === 0) {
    const next = await batches.next();
    if (next.done === true) return source_([], batches);
    batch = next.value;
  }
  const [first, ...rest] = batch as [RecordText, ...RecordText[]];
  const parsed =
    first.text === undefined
      ? { error: first.error ?? 'unreadable record' }
      : parseRecord(first.text, first.line);
  if ('error' in parsed) throw new InputFileError(`the header is not valid CSV (${parsed.error})`);
  const header = parsed.fields;
  const duplicate = header.find((name, index) => header.indexOf(name) !== index);
  if (duplicate !== undefined) throw new InputFileError(`the header names the column '${duplicate}' twice`);
  return source_(header, after(rest, batches));
}
