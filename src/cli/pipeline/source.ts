import type { Delimiter } from '../formats/csv/reader';
import { type ParquetColumnType, readParquetRows } from '../formats/parquet/reader';
import { InputFileError, type RecordSource, type RecordText, readRecords } from '../formats/records';
import { type CliIo, UsageError } from '../io';
import type { RunPlan } from './run-plan';
import { isGzip } from './run-plan';
import { errorCode, fileBytes, inputFileSize } from './streams';

/**
 * The record source of a file run, whatever the format: CSV and JSON Lines records as their text (parsed a chunk
 * at a time, possibly on a worker), Parquet rows as their values (read a row group at a time). The rest of the run
 * sees only batches of {@link RecordText}.
 */

export interface InputRecords {
  /** The columns known before any record: the CSV header, the Parquet schema's; [] for JSON Lines. */
  header: readonly string[];
  /** The records, a batch at a time (a source chunk of text, or part of a row group). */
  batches: AsyncIterator<RecordText[]>;
  /** The input's size in bytes for the progress bar; undefined for stdin and gzip (bytes read are decompressed). */
  bytes: number | undefined;
  /** Bytes read so far. */
  bytesRead(): number;
  /** CSV: the delimiter and how it was chosen. */
  delimiter?: Pick<RecordSource, 'delimiter' | 'delimiterFrom'>;
  /** Parquet: each column's type, which Parquet output keeps. */
  columnTypes?: () => Readonly<Record<string, ParquetColumnType>>;
}

/** Parquet rows handed on at most this many at a time. */
const PARQUET_BATCH = 1_000;

async function* parquetBatches(
  rows: AsyncIterable<{ line: number; values: Record<string, unknown> }>,
): AsyncGenerator<RecordText[]> {
  let batch: RecordText[] = [];
  for await (const { line, values } of rows) {
    batch.push({ line, values });
    if (batch.length >= PARQUET_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function textInput(file: string, io: CliIo): Promise<AsyncIterable<Uint8Array | string>> {
  if (file === '-') return io.stdin;
  return fileBytes(file);
}

/**
 * Opens the records of the plan's input (CSV and JSON Lines from a file, gzipped or not, or stdin; Parquet from a file).
 *
 * @throws {@link UsageError} for an input that is not a readable file, or a malformed CSV header or Parquet footer.
 *
 * @example
 * ```ts
 * const input = await openRecordSource(planRun('ledger.csv', {}), io);
 * const first = await input.batches.next();
 * ```
 */
export async function openRecordSource(plan: RunPlan, io: CliIo): Promise<InputRecords> {
  const { file, inputFormat } = plan;
  const size = file === '-' ? undefined : await inputFileSize(file);
  let read = 0;
  const onChunk = (bytes: number) => (read += bytes);
  try {
    if (inputFormat === 'parquet') {
      const source = await readParquetRows(file, { onChunk });
      return {
        header: source.columns(),
        batches: parquetBatches(source.rows),
        bytes: source.bytes,
        bytesRead: () => read,
        columnTypes: source.columnTypes,
      };
    }
    const source = await readRecords(await textInput(file, io), inputFormat, {
      onChunk,
      ...(plan.delimiter !== undefined && { delimiter: plan.delimiter }),
    });
    return {
      header: source.header,
      batches: source.batches,
      bytes: isGzip(file) ? undefined : size,
      bytesRead: () => read,
      ...(inputFormat === 'csv' && {
        delimiter: { delimiter: source.delimiter, delimiterFrom: source.delimiterFrom },
      }),
    };
  } catch (error) {
    throw inputError(file, error);
  }
}

/**
 * What went wrong reading an input file, as the usage error the user reads (exit 2): a malformed record as the
 * reader says it, anything else (a missing file, a gzip that is not whole) as `cannot read FILE: reason`.
 *
 * @example
 * ```ts
 * await firstRecords(input.batches, 1000).catch((error: unknown) => { throw inputError('ledger.csv.gz', error); });
 * ```
 */
export function inputError(file: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  if (error instanceof InputFileError) return new UsageError(`${file}: ${error.message}.`);
  return new UsageError(`cannot read ${file}: ${errorCode(error)}`);
}

/** A comma file's reading, for inputs that have no delimiter. */
export const NO_DELIMITER: { delimiter: Delimiter; delimiterFrom: 'header' } = {
  delimiter: ',',
  delimiterFrom: 'header',
};
