import { createReadStream, realpathSync, rmSync } from 'node:fs';
import { type ChunkContext, decode, renamed } from './chunk';
import { parseRecord } from '../formats/csv/reader';
import { type CliIo, EXIT, UsageError } from '../io';
import type { RowAdapter } from './row-adapter';
import { ENCODERS, type OutputRow, passThroughColumns, resultFields } from '../formats/index';
import { type OutputFile, openOutputFile, partialPaths } from './output-file';
import { readParquetRows } from '../formats/parquet/reader';
import { type ByteSink, parquetWriter } from '../formats/parquet/writer';
import { createProgress } from './progress';
import { errorCode, inputFileSize, streamWriter } from './streams';
import {
  type FileFormat,
  InputFileError,
  type ParquetAwareFormat,
  type RecordSource,
  readRecords,
} from '../formats/records';
import type { Delimiter } from '../formats/csv/reader';
import { headerReading, type ReadingOptions, readingOf } from './reading';
import { RunSummary } from './summary';
import { EmissionsError } from '../../core/errors';
import { parquetRowValues } from '../adapters/cells';

/**
 * `spend FILE` and `cloud FILE` when Parquet is the input or the output format. Rows go through the calculator in
 * input order, one at a time in the main thread, with progress and a summary; a bad row gets its error columns
 * and the run goes on. `--out` goes through output-file.ts, so it is never the input, never silently replaced and
 * written atomically; `--resume` does not apply to Parquet output (a Parquet file is unreadable without its
 * footer, so an interrupted run leaves no partial to continue).
 */

export interface ParquetCommandOptions extends ReadingOptions {
  out?: string;
  /** CSV input: the delimiter; detected from the header when omitted. */
  delimiter?: Delimiter;
  format: ParquetAwareFormat;
  inputFormat: ParquetAwareFormat;
  force?: boolean;
  resume?: boolean;
  neutraliseFormulas?: boolean;
}

/** Rows per text write when Parquet is read into CSV or JSON Lines. */
const TEXT_BATCH = 1_000;

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof EmissionsError) return { code: error.error_code, message: error.message };
  return {
    code: 'internal_error',
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}

interface Rows {
  rows: AsyncIterable<{ line: number; values: Record<string, unknown>; error?: string }>;
  columns: () => readonly string[];
  columnTypes?: Parameters<typeof parquetWriter>[2];
  bytes?: number;
  /** CSV input: its delimiter and how it was chosen. */
  delimiter?: { delimiter: Delimiter; delimiterFrom: RecordSource['delimiterFrom'] };
}

async function openRows(
  file: string,
  inputFormat: ParquetAwareFormat,
  io: CliIo,
  onChunk: (bytes: number) => void,
  delimiter?: Delimiter,
): Promise<Rows> {
  const size = file === '-' ? undefined : await inputFileSize(file);
  try {
    if (inputFormat === 'parquet') {
      const source = await readParquetRows(file, { onChunk });
      return {
        rows: source.rows,
        columns: source.columns,
        columnTypes: source.columnTypes,
        bytes: source.bytes,
      };
    }
    const stream = file === '-' ? io.stdin : createReadStream(file, { highWaterMark: 64 * 1024 });
    const { header, records, ...read } = await readRecords(stream, inputFormat, {
      onChunk,
      ...(delimiter !== undefined && { delimiter }),
    });
    const context: ChunkContext = {
      inputFormat,
      format: 'jsonl',
      header,
      columns: [],
      neutraliseFormulas: false,
      delimiter: read.delimiter,
    };
    let columns: readonly string[] = inputFormat === 'csv' ? header : [];
    async function* decoded() {
      for (let next = await records.next(); next.done !== true; next = await records.next()) {
        const record = next.value;
        const parsed =
          inputFormat === 'csv' && record.text !== undefined
            ? parseRecord(record.text, record.line, read.delimiter)
            : undefined;
        const row = decode(record, context, parsed);
        if (columns.length === 0 && row.error === undefined) columns = Object.keys(row.values);
        yield { line: record.line, ...row };
      }
    }
    return {
      rows: decoded(),
      columns: () => columns,
      ...(size !== undefined && { bytes: size }),
      ...(inputFormat === 'csv' && {
        delimiter: { delimiter: read.delimiter, delimiterFrom: read.delimiterFrom },
      }),
    };
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
}

/**
 * Runs one batch file with Parquet on either side. Returns the exit code as `runFileCommand` does.
 *
 * @example
 * ```ts
 * await runParquetFileCommand(spendRows(defaultDatasets), 'ledger.parquet',
 *   { out: 'ledger-co2e.parquet', inputFormat: 'parquet', format: 'parquet' }, io);
 * ```
 *
 * @throws {@link UsageError} for a Parquet input on stdin, an unreadable or non-Parquet input, an output that exists
 *   without `force` or cannot be written, or `--resume` with Parquet output.
 */
export async function runParquetFileCommand(
  kind: RowAdapter,
  file: string,
  options: ParquetCommandOptions,
  io: CliIo,
): Promise<number> {
  const { format, inputFormat, out } = options;
  if (inputFormat === 'parquet' && file === '-') {
    throw new UsageError(
      'Parquet input must be a file: it is read from its footer, which a pipe cannot seek to.',
    );
  }
  if (format === 'parquet' && options.resume === true) {
    throw new UsageError('--resume does not apply to Parquet output, which is written whole or not at all.');
  }

  let bytesRead = 0;
  const input = await openRows(file, inputFormat, io, (bytes) => (bytesRead += bytes), options.delimiter);
  const reading = readingOf(
    input.delimiter ?? { delimiter: ',', delimiterFrom: 'header' },
    inputFormat,
    options,
  );
  // JSON Lines has no header: each row names its own columns.
  const header = headerReading(kind, file, input.columns(), inputFormat !== 'jsonl');
  const rename = Object.keys(header.rename).length > 0 ? header.rename : undefined;

  let output: OutputFile | undefined;
  if (out !== undefined) {
    output = openOutputFile(out, {
      force: options.force === true,
      resume: false,
      run: undefined,
      notice: (message) => io.stderr.write(`co2e-engine ${kind.name}: ${message}\n`),
    });
  }
  const send =
    output !== undefined
      ? async (chunk: string | Uint8Array) => output?.write(chunk)
      : streamWriter(io.stdout);
  /** Set when writing the output failed (a full disk): the error is then about the output, not the rows. */
  let writeFailed = false;
  const emit = async (chunk: string | Uint8Array) => {
    try {
      await send(chunk);
    } catch (error) {
      writeFailed = true;
      throw error;
    }
  };
  /** A run that does not complete leaves no partial: without its footer a Parquet file is unreadable. */
  const discard = () => {
    if (output === undefined) return;
    output.keepPartial();
    let target = out as string;
    try {
      target = realpathSync(target);
    } catch {
      // no existing target: the partial sits beside the name given
    }
    rmSync(partialPaths(target).partial, { force: true });
  };

  const source = inputFormat === 'csv' ? 'csv' : 'jsonl';
  const failed = (code: string, message: string) =>
    kind.errorFields?.(code, message) ?? resultFields(undefined, { code, message });
  const summary = new RunSummary(kind.groupings);
  const progress = createProgress(io.stderr, input.bytes);
  const started = performance.now();
  let interrupted = false;

  let write: (row: OutputRow) => Promise<void>;
  let finish: () => Promise<void>;
  if (format === 'parquet') {
    const sink: ByteSink = { write: (bytes) => emit(bytes), close: async () => undefined };
    const writer = parquetWriter(
      sink,
      input.columns,
      input.columnTypes,
      undefined,
      kind.resultColumns === undefined
        ? undefined
        : { columns: kind.resultColumns, types: kind.resultTypes ?? {} },
    );
    write = (row) => writer.write(row.input, row.result);
    finish = () => writer.close();
  } else {
    let encoder: ReturnType<(typeof ENCODERS)[FileFormat]> | undefined;
    let batch: OutputRow[] = [];
    const start = async () => {
      if (encoder !== undefined) return encoder;
      encoder = ENCODERS[format]({
        columns: passThroughColumns(input.columns(), kind.resultColumns),
        neutraliseFormulas: options.neutraliseFormulas ?? true,
        ...(kind.resultColumns !== undefined && { resultColumns: kind.resultColumns }),
      });
      await emit(encoder.header);
      return encoder;
    };
    const flush = async () => {
      const current = await start();
      if (batch.length > 0) await emit(current.encode(batch));
      batch = [];
    };
    write = async (row) => {
      await start();
      batch.push(row);
      if (batch.length >= TEXT_BATCH) await flush();
    };
    finish = flush;
  }

  try {
    for await (const row of input.rows) {
      if (io.signal?.aborted === true) {
        interrupted = true;
        break;
      }
      if (row.error !== undefined) {
        summary.failure(row.line, 'invalid_request', row.error);
        await write({ input: row.values, result: failed('invalid_request', row.error) });
      } else {
        let values: Record<string, unknown> | undefined;
        try {
          const read = inputFormat === 'parquet' ? parquetRowValues(row.values) : row.values;
          values = rename === undefined ? read : renamed(read, rename);
          const { outcome, groups, fields } = kind.compute(values, source, reading.cells);
          summary.success(outcome.co2e, groups);
          await write({ input: row.values, result: fields ?? outcome });
        } catch (error) {
          const { code, message } = describeError(error);
          const hint =
            values === undefined ? undefined : kind.failureHint?.(values, source, error, reading.cells);
          summary.failure(row.line, code, message, hint);
          await write({ input: row.values, result: failed(code, message) });
        }
      }
      progress.tick(summary.rows, bytesRead);
    }
    if (interrupted) discard();
    else {
      await finish();
      output?.commit();
    }
  } catch (error) {
    progress.stop();
    discard();
    if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
    if (error instanceof UsageError) throw error;
    if (writeFailed) {
      // Rows are computed before their row group (or text batch) is written, so the rows computed are not the rows
      // written: say what the output holds instead.
      throw new UsageError(
        `writing the output failed (${errorCode(error)}) after ${summary.rows} rows were computed; ` +
          (out !== undefined
            ? `${out} was not written (a partial Parquet file is unreadable, so none is kept).`
            : 'the output on stdout is incomplete; do not use it.'),
      );
    }
    throw new UsageError(`stopped after ${summary.rows} rows: ${errorCode(error)}`);
  }
  progress.stop();
  io.stderr.write(summary.format(kind.name, (performance.now() - started) / 1000, interrupted));
  for (const note of [...reading.notes, ...header.notes])
    io.stderr.write(`co2e-engine ${kind.name}: ${note}\n`);
  if (interrupted) return EXIT.interrupted;
  return summary.failures > 0 ? EXIT.rowsFailed : EXIT.ok;
}
