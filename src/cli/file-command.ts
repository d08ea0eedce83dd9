import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { EmissionsError } from '../core/errors';
import { type CliIo, EXIT, UsageError } from './io';
import type { RowKind } from './outcome';
import { csvWriter, jsonlWriter, resultFields, type RowWriter, streamSink, type TextSink } from './output';
import { type ParquetAwareFormat, runParquetFileCommand } from './parquet-command';
import { createProgress } from './progress';
import { InputFileError, readRows } from './read-rows';
import { RunSummary } from './summary';

/** `spend FILE` and `cloud FILE`: stream rows through a calculator into CSV or JSON Lines, then a summary. */

export interface FileCommandOptions {
  out?: string;
  /** Output format; default from the `--out` extension, else the input format. */
  format?: ParquetAwareFormat;
  /** Input format; default from the file extension (`.csv`; `.jsonl`, `.ndjson`; `.parquet`), `csv` for stdin. */
  inputFormat?: ParquetAwareFormat;
}

const FORMAT_BY_EXTENSION: Readonly<Record<string, ParquetAwareFormat>> = {
  '.csv': 'csv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
};
const formatOf = (path: string): ParquetAwareFormat | undefined =>
  FORMAT_BY_EXTENSION[extname(path).toLowerCase()];

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof EmissionsError) return { code: error.error_code, message: error.message };
  // Not the row's fault: an engine bug. Reported in the row, and the run goes on.
  return {
    code: 'internal_error',
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}

async function openInput(
  file: string,
  io: CliIo,
): Promise<{ source: AsyncIterable<Uint8Array | string>; bytes?: number }> {
  if (file === '-') return { source: io.stdin };
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file} is not a file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return { source: createReadStream(file, { highWaterMark: 64 * 1024 }), bytes: size };
}

async function openOutput(out: string | undefined, io: CliIo): Promise<TextSink> {
  if (out === undefined) return streamSink(io.stdout, false);
  const stream = createWriteStream(out);
  try {
    await new Promise<void>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen());
      stream.once('error', reject);
    });
  } catch (error) {
    throw new UsageError(
      `cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return streamSink(stream, true);
}

/**
 * Runs one batch file. Returns the exit code: 0 when every row succeeded, 1 when any failed, 130 when interrupted.
 *
 * @throws {UsageError} for an unreadable input, an unwritable output, an unknown format or a malformed header.
 */
export async function runFileCommand(
  kind: RowKind,
  file: string,
  options: FileCommandOptions,
  io: CliIo,
): Promise<number> {
  const inputFormat = options.inputFormat ?? (file === '-' ? 'csv' : formatOf(file));
  if (inputFormat === undefined) {
    throw new UsageError(
      `cannot tell the format of ${file} from its extension; use --input-format csv|jsonl|parquet.`,
    );
  }
  const format =
    options.format ?? (options.out !== undefined ? formatOf(options.out) : undefined) ?? inputFormat;
  if (inputFormat === 'parquet' || format === 'parquet') {
    return runParquetFileCommand(kind, file, { ...options, inputFormat, format }, io);
  }
  if (options.out !== undefined && file !== '-' && resolve(options.out) === resolve(file)) {
    throw new UsageError('--out must not be the input file.');
  }

  const input = await openInput(file, io);
  const sink = await openOutput(options.out, io);
  let bytesRead = 0;
  const rows = readRows(input.source, inputFormat, { onChunk: (bytes) => (bytesRead += bytes) });
  const writer: RowWriter = format === 'csv' ? csvWriter(sink, rows.columns) : jsonlWriter(sink);
  const summary = new RunSummary(kind.groupings);
  const progress = createProgress(io.stderr, input.bytes);
  const started = performance.now();
  let interrupted = false;

  try {
    for await (const row of rows.rows) {
      if (io.signal?.aborted === true) {
        interrupted = true;
        break;
      }
      if (row.error !== undefined) {
        summary.failure(row.line, 'invalid_request', row.error);
        await writer.write({}, resultFields(undefined, { code: 'invalid_request', message: row.error }));
      } else {
        let written = false;
        try {
          const { outcome, groups } = kind.compute(row.values, inputFormat);
          summary.success(outcome.co2e, groups);
          written = true;
          await writer.write(row.values, resultFields(outcome));
        } catch (error) {
          if (written) throw error; // the output failed, not the row
          const { code, message } = describeError(error);
          summary.failure(row.line, code, message);
          await writer.write(row.values, resultFields(undefined, { code, message }));
        }
      }
      progress.tick(summary.rows, bytesRead);
    }
    await writer.close();
  } catch (error) {
    progress.stop();
    await sink.close().catch(() => undefined); // keep what was written; the first error is the one to report
    if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
    throw new UsageError(
      `stopped after ${summary.rows} rows: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  progress.stop();
  io.stderr.write(summary.format(kind.name, (performance.now() - started) / 1000, interrupted));
  if (interrupted) return EXIT.interrupted;
  return summary.failures > 0 ? EXIT.rowsFailed : EXIT.ok;
}
