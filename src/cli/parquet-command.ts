import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { EmissionsError } from '../core/errors';
import { type CliIo, EXIT, UsageError } from './io';
import type { RowKind } from './outcome';
import { csvWriter, jsonlWriter, resultFields, type RowWriter, streamSink } from './output';
import { readParquetRows } from './parquet-rows';
import { type ByteSink, parquetWriter } from './parquet-writer';
import { createProgress } from './progress';
import { type FileFormat, InputFileError, type InputRow, readRows } from './read-rows';
import { RunSummary } from './summary';

/**
 * `spend FILE` and `cloud FILE` when Parquet is the input or the output format. Rows go through the calculator in
 * input order, one at a time, with progress and a summary; a bad row gets its error columns and the run goes on.
 * Parquet output is written to a temporary file beside `--out` and renamed onto it only when the run completes, so
 * `--out` never holds a partial file (a Parquet file is unreadable without its footer, so an interrupted run leaves
 * nothing, and `--resume` does not apply).
 */

export type ParquetAwareFormat = FileFormat | 'parquet';

export interface ParquetCommandOptions {
  out?: string;
  format: ParquetAwareFormat;
  inputFormat: ParquetAwareFormat;
  /** Replace an existing `--out`; when undefined, an existing file is replaced (the CLI's default then). */
  force?: boolean;
  resume?: boolean;
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof EmissionsError) return { code: error.error_code, message: error.message };
  return {
    code: 'internal_error',
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** A byte sink on a stream (a file, or stdout), honouring backpressure. */
function byteSink(
  stream: NodeJS.WritableStream,
  ownsStream: boolean,
): ByteSink & { text: ReturnType<typeof streamSink> } {
  const text = streamSink(stream, ownsStream);
  return {
    text,
    // streamSink hands its argument to stream.write, which takes bytes as well as text.
    write: (bytes) => text.write(bytes as unknown as string),
    close: () => text.close(),
  };
}

async function openFileStream(path: string): Promise<NodeJS.WritableStream> {
  const stream = createWriteStream(path);
  await new Promise<void>((resolveOpen, reject) => {
    stream.once('open', () => resolveOpen());
    stream.once('error', reject);
  });
  return stream;
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
 * @throws {UsageError} for a Parquet input on stdin, an unreadable or non-Parquet input, an unwritable output, an
 *   existing output without `force`, or `--resume` with Parquet output.
 */
export async function runParquetFileCommand(
  kind: RowKind,
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
  if (out !== undefined && file !== '-' && resolve(out) === resolve(file)) {
    throw new UsageError('--out must not be the input file.');
  }
  if (out !== undefined && options.force === false && existsSync(out)) {
    throw new UsageError(`${out} exists; use --force to replace it.`);
  }

  // Input.
  let bytesRead = 0;
  const onChunk = (bytes: number) => (bytesRead += bytes);
  let rows: AsyncGenerator<InputRow>;
  let columns: () => readonly string[];
  let columnTypes: Parameters<typeof parquetWriter>[2];
  let totalBytes: number | undefined;
  if (inputFormat === 'parquet') {
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new UsageError(`${file} is not a file.`);
      const source = await readParquetRows(file, { onChunk });
      ({ rows, columns } = source);
      columnTypes = source.columnTypes;
      totalBytes = source.bytes;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
      throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
    }
  } else {
    let source: AsyncIterable<Uint8Array | string> = io.stdin;
    if (file !== '-') {
      try {
        const info = await stat(file);
        if (!info.isFile()) throw new UsageError(`${file} is not a file.`);
        totalBytes = info.size;
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
      }
      source = createReadStream(file, { highWaterMark: 64 * 1024 });
    }
    ({ rows, columns } = readRows(source, inputFormat, { onChunk }));
  }

  // Output: Parquet into a temporary file beside --out, renamed onto it at the end.
  const partial =
    out === undefined ? undefined : join(dirname(out), `.${basename(out)}.${process.pid}.partial`);
  let sink: ByteSink & { text: ReturnType<typeof streamSink> };
  try {
    sink = partial === undefined ? byteSink(io.stdout, false) : byteSink(await openFileStream(partial), true);
  } catch (error) {
    throw new UsageError(`cannot write ${out}: ${errorCode(error)}`);
  }
  const writer: RowWriter =
    format === 'parquet'
      ? parquetWriter(sink, columns, columnTypes)
      : format === 'csv'
        ? csvWriter(sink.text, columns)
        : jsonlWriter(sink.text);

  const source = inputFormat === 'csv' ? 'csv' : 'jsonl';
  const summary = new RunSummary(kind.groupings);
  const progress = createProgress(io.stderr, totalBytes);
  const started = performance.now();
  let interrupted = false;
  const discard = async () => {
    await sink.close().catch(() => undefined);
    if (partial !== undefined) await rm(partial, { force: true });
  };

  try {
    for await (const row of rows) {
      if (io.signal?.aborted === true) {
        interrupted = true;
        break;
      }
      if (row.error !== undefined) {
        summary.failure(row.line, 'invalid_request', row.error);
        await writer.write({}, resultFields(undefined, { code: 'invalid_request', message: row.error }));
      } else {
        let computed;
        try {
          computed = kind.compute(row.values, source);
        } catch (error) {
          const { code, message } = describeError(error);
          summary.failure(row.line, code, message);
          await writer.write(row.values, resultFields(undefined, { code, message }));
          progress.tick(summary.rows, bytesRead);
          continue;
        }
        summary.success(computed.outcome.co2e, computed.groups);
        await writer.write(row.values, resultFields(computed.outcome));
      }
      progress.tick(summary.rows, bytesRead);
    }
    if (interrupted && format === 'parquet') await discard();
    else {
      await writer.close();
      if (partial !== undefined && out !== undefined) await rename(partial, out);
    }
  } catch (error) {
    progress.stop();
    await discard();
    if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
    throw new UsageError(`stopped after ${summary.rows} rows: ${errorCode(error)}`);
  }
  progress.stop();
  io.stderr.write(summary.format(kind.name, (performance.now() - started) / 1000, interrupted));
  if (interrupted) return EXIT.interrupted;
  return summary.failures > 0 ? EXIT.rowsFailed : EXIT.ok;
}
