import { parseRecord, readCsvRecordTexts } from './csv/reader';
import { MAX_LINE_CHARS, type PhysicalLine, readLines } from './lines';

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
}

async function* jsonlRecordTexts(
  lines: AsyncIterable<PhysicalLine>,
  maxLineChars: number,
): AsyncGenerator<RecordText> {
  for await (const { text, line, tooLong, invalidUtf8 } of lines) {
    if (tooLong) yield { line, error: `line ${line}: the line is longer than ${maxLineChars} characters.` };
    else if (text.trim() === '') continue;
    else if (invalidUtf8)
      yield { line, error: `line ${line}: the line is not valid UTF-8; save the file as UTF-8.` };
    else yield { line, text };
  }
}

/**
 * Opens the records of `source`; for CSV, reads and checks the header first.
 *
 * @throws {InputFileError} for a CSV header that is malformed or names a column twice.
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
  const lines = readLines(source, max, options.onChunk);
  if (format === 'jsonl') return { header: [], records: jsonlRecordTexts(lines, max) };
  const records = readCsvRecordTexts(lines, max);
  const first = await records.next();
  if (first.done === true) return { header: [], records };
  const parsed =
    first.value.text === undefined ? first.value : parseRecord(first.value.text, first.value.line);
  if ('error' in parsed) throw new InputFileError(`the header is not valid CSV (${parsed.error})`);
  const header = parsed.fields;
  const duplicate = header.find((name, index) => header.indexOf(name) !== index);
  if (duplicate !== undefined) throw new InputFileError(`the header names the column '${duplicate}' twice`);
  return { header, records };
}
