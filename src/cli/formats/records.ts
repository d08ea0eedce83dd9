import {
  type Delimiter,
  detectDelimiter,
  parseRecord,
  readCsvRecordTextBatches,
  sepLine,
} from './csv/reader';
import { LineRecord, MAX_LINE_CHARS, type PhysicalLine, readLineBatches } from './lines';

/**
 * Input records of a batch file, CSV or JSON Lines, streamed: split into records here (cheap, in the main
 * thread), parsed and computed a chunk at a time in pipeline/chunk.ts (possibly in a worker).
 */

/** The streamed text formats, read a record at a time. */
export type FileFormat = 'csv' | 'jsonl';
/** Every format a file command reads or writes (Parquet rows are read and written a row group at a time). */
export type ParquetAwareFormat = FileFormat | 'parquet';

/** An input record as read from the file: its text (not parsed yet), or why its lines make no record. */
export interface RecordText {
  line: number;
  text?: string;
  error?: string;
  /** For a broken record: text whose leading fields can still be read. */
  salvage?: string;
  /** For a record too long to keep: its cells but the oversized ones (emptied), where the header puts them. */
  fields?: readonly string[];
  /** A record read as values already (a Parquet row): its cells by column. */
  values?: Record<string, unknown>;
}

/** A problem with the file as a whole (a malformed or duplicated header): a usage error. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}

export interface ReadRecordsOptions {
  onChunk?: (bytes: number) => void;
  maxRecordChars?: number;
  /** CSV: the delimiter (`--delimiter`); detected from the header when omitted. */
  delimiter?: Delimiter;
}

export interface RecordSource {
  /** The CSV header's column names ([] for JSON Lines, and for an empty CSV file). */
  header: string[];
  /** CSV: the delimiter the records are read with (given, named by a `sep=` line, or detected from the header). */
  delimiter: Delimiter;
  /** CSV: how the delimiter was chosen. */
  delimiterFrom: 'option' | 'sep line' | 'header';
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

const source_ = (
  header: string[],
  batches: AsyncIterator<RecordText[]>,
  delimiter: Pick<RecordSource, 'delimiter' | 'delimiterFrom'> = { delimiter: ',', delimiterFrom: 'header' },
): RecordSource => ({
  header,
  ...delimiter,
  batches,
  records: oneByOne(batches),
});

/**
 * The delimiter of a CSV file whose first line with text is `header`: the one given, else the one a `sep=` line
 * names, else the one the header uses most.
 *
 * @example
 * ```ts
 * chooseDelimiter('sep=;', undefined); // { delimiter: ';', delimiterFrom: 'sep line' }
 * ```
 */
export function chooseDelimiter(
  header: string,
  given: Delimiter | undefined,
): Pick<RecordSource, 'delimiter' | 'delimiterFrom'> {
  if (given !== undefined) return { delimiter: given, delimiterFrom: 'option' };
  const sep = sepLine(header);
  if (sep !== undefined) return { delimiter: sep, delimiterFrom: 'sep line' };
  return { delimiter: detectDelimiter(header), delimiterFrom: 'header' };
}

/**
 * The line batches of `lines` with the file's delimiter: the option's, else a leading `sep=` line's (dropped), else
 * the one the header (the first line with text) uses most.
 */
async function withDelimiter(
  lines: AsyncIterable<PhysicalLine[]>,
  given: Delimiter | undefined,
): Promise<{
  lines: AsyncIterable<PhysicalLine[]>;
  delimiter: Delimiter;
  delimiterFrom: RecordSource['delimiterFrom'];
}> {
  const iterator = lines[Symbol.asyncIterator]();
  const read: PhysicalLine[][] = [];
  let header: PhysicalLine | undefined;
  while (header === undefined) {
    const next = await iterator.next();
    if (next.done === true) break;
    read.push(next.value);
    header = next.value.find((line) => line.tooLong || line.text.trim() !== '');
  }
  const text = header === undefined || header.tooLong ? '' : header.text;
  const { delimiter, delimiterFrom } = chooseDelimiter(text, given);
  if (sepLine(text) !== undefined) {
    const batch = read[read.length - 1] as PhysicalLine[];
    batch.splice(batch.indexOf(header as PhysicalLine), 1);
  }
  async function* all(): AsyncGenerator<PhysicalLine[]> {
    yield* read;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { lines: all(), delimiter, delimiterFrom };
}

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
      else records.push(new LineRecord(line, text));
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
  // With the header's delimiter, a line too long to keep still yields its short cells.
  const physical = readLineBatches(source, max, options.onChunk, (header) =>
    format === 'csv' ? chooseDelimiter(header, options.delimiter).delimiter : undefined,
  );
  if (format === 'jsonl') return source_([], jsonlRecordTexts(physical, max));
  const { lines, ...delimiter } = await withDelimiter(physical, options.delimiter);
  const batches = readCsvRecordTextBatches(lines, max, delimiter.delimiter);
  let batch: RecordText[] = [];
  while (batch.length === 0) {
    const next = await batches.next();
    if (next.done === true) return source_([], batches, delimiter);
    batch = next.value;
  }
  const [first, ...rest] = batch as [RecordText, ...RecordText[]];
  const parsed =
    first.text === undefined
      ? { error: first.error ?? 'unreadable record' }
      : parseRecord(first.text, first.line, delimiter.delimiter);
  if ('error' in parsed) throw new InputFileError(`the header is not valid CSV (${parsed.error})`);
  const header = parsed.fields;
  const duplicate = header.find((name, index) => header.indexOf(name) !== index);
  if (duplicate !== undefined) throw new InputFileError(`the header names the column '${duplicate}' twice`);
  return source_(header, after(rest, batches), delimiter);
}
