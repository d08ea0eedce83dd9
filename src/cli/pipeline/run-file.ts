import { createGunzip, gzipSync } from 'node:zlib';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { type ChunkContext, chunkProcessor } from './chunk';
import { type CliIo, EXIT, UsageError } from '../io';
import { parseJsonLine } from '../formats/jsonl/reader';
import type { RowAdapter } from './row-adapter';
import { ENCODERS, passThroughColumns } from '../formats/index';
import packageJson from '../../../package.json';
import {
  inputStats,
  type OutputFile,
  openOutputFile,
  refuseReservedInput,
  refuseSameFile,
  type RunIdentity,
} from './output-file';
import { InFlightChunks } from './in-flight';
import { applyGcFlags } from './gc-flags';
import { type ChunkPool, defaultJobs, expectsLongRun, WORKER_QUEUE, workerPool } from './pool';
import { runParquetFileCommand } from './run-parquet';
import { createProgress } from './progress';
import { errorCode, inputFileSize, streamWriter } from './streams';
import {
  type FileFormat,
  InputFileError,
  type ParquetAwareFormat,
  type RecordText,
  readRecords,
} from '../formats/records';
import { RunSummary } from './summary';
import { type Delimiter, delimiterName } from '../formats/csv/reader';
import { headerReading, readingOf } from './reading';

/**
 * `spend FILE` and `cloud FILE`: stream records through a calculator a chunk at a time (on worker threads when
 * the file is longer than one chunk), write the results in input order, then a summary.
 */

export interface FileCommandOptions {
  out?: string;
  /** Output format; default from the `--out` extension, else the input format. */
  format?: ParquetAwareFormat;
  /** Input format; default from the file extension (`.csv`; `.jsonl`, `.ndjson`; `.parquet`), `csv` for stdin. */
  inputFormat?: ParquetAwareFormat;
  /** Replace an existing `--out` file. */
  force?: boolean;
  /** Continue the partial output an interrupted run of the same input and options left. */
  resume?: boolean;
  /**
   * Threads computing rows (the main thread and `jobs - 1` workers); 1 computes in the main thread. Default: the
   * cores available, with workers started only for a long input ({@link expectsLongRun}).
   */
  jobs?: number;
  /** CSV output: make formula-like pass-through cells inert (default true). */
  neutraliseFormulas?: boolean;
  /** CSV input: the delimiter; detected from the header when omitted. */
  delimiter?: Delimiter;
  /** CSV input: numbers have a decimal comma; when omitted, on for a `;` file. */
  decimalComma?: boolean;
  /** Negative amounts (credit notes): refused (default), or estimated as negative emissions. */
  credits?: 'refuse' | 'net';
}

/** Records per chunk, and the most characters of record text in one (long records make shorter chunks). */
export const CHUNK_ROWS = 1_000;
const CHUNK_CHARS = 1_000_000;
/** Chunks the main thread may compute past the oldest one still with a worker (see `maxInFlight`). */
const MAIN_AHEAD = 8;

/**
 * State of a resumable output is saved at most this often (and after the last chunk, and when interrupted). Each
 * save writes the run's summary (every group's exact total) and renames a file: 1 % of a 100k-row ledger's run at
 * 100 ms, a fifth of that at 500 ms. A killed run redoes at most this long of rows when resumed.
 */
const CHECKPOINT_MS = 500;

const FORMAT_BY_EXTENSION: Readonly<Record<string, ParquetAwareFormat>> = {
  '.csv': 'csv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
};
/** A gzipped input (`.csv.gz`, `.jsonl.gz`) is read through gunzip; its format is the extension before `.gz`. */
const isGzip = (path: string): boolean => path.toLowerCase().endsWith('.gz');
const formatOf = (path: string): ParquetAwareFormat | undefined =>
  FORMAT_BY_EXTENSION[extname(isGzip(path) ? path.slice(0, -3) : path).toLowerCase()];

async function openInput(
  file: string,
  io: CliIo,
): Promise<{ source: AsyncIterable<Uint8Array | string>; bytes?: number }> {
  if (file === '-') return { source: io.stdin };
  const size = await inputFileSize(file);
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  // Progress counts decompressed bytes, so a gzipped file's size is no measure of them.
  if (isGzip(file)) return { source: stream.pipe(createGunzip()) };
  return { source: stream, bytes: size };
}

/** The input columns the output keeps: the CSV header, or the keys of the first JSON object in the first chunk. */
function outputColumns(
  header: readonly string[],
  first: readonly RecordText[],
  inputFormat: FileFormat,
  resultColumns: readonly string[] | undefined,
) {
  if (inputFormat === 'csv') return passThroughColumns(header, resultColumns);
  for (const record of first) {
    if (record.text === undefined) continue;
    const parsed = parseJsonLine(record.text, record.line);
    if ('values' in parsed) return passThroughColumns(Object.keys(parsed.values), resultColumns);
  }
  return [];
}

/**
 * What a resumed run must match; undefined for a pipe, which cannot be read again. Its options: the pipeline's
 * own that change rows (formats, formula cells), then the adapter's ({@link RowAdapter.rowOptions}).
 */
function runIdentity(kind: RowAdapter, file: string, context: ChunkContext): RunIdentity | undefined {
  const info = inputStats(file);
  if (info === undefined || !info.isFile()) return undefined;
  return {
    command: kind.name,
    input: { path: file, device: info.dev, inode: info.ino, size: info.size, modified: info.mtimeMs },
    options: {
      '--input-format': context.inputFormat,
      '--format': context.format,
      '--allow-formulas': context.neutraliseFormulas ? 'off' : 'on',
      // Recorded only when they differ from a plain comma file's reading, so partials of such files still resume.
      ...(context.delimiter !== undefined &&
        context.delimiter !== ',' && { '--delimiter': delimiterName(context.delimiter) }),
      ...(context.reading?.decimalComma === true && { '--decimal-comma': 'on' }),
      ...(context.reading?.credits === 'net' && { '--credits': 'net' }),
      ...kind.rowOptions,
    },
    version: packageJson.version,
  };
}

/**
 * Runs one batch file. Returns the exit code: 0 when every row succeeded, 1 when any failed, 130 when interrupted.
 *
 * @throws {@link UsageError} for an unreadable input, an output that is the input or exists without `force`, an
 *   unwritable output, an unknown format or a malformed header.
 */
export async function runFileCommand(
  kind: RowAdapter,
  file: string,
  given: FileCommandOptions,
  io: CliIo,
): Promise<number> {
  // `--out -` is stdout, as `-` is stdin for the input: never a file named `-`.
  const { out: givenOut, ...rest } = given;
  const options: FileCommandOptions = givenOut === '-' || givenOut === undefined ? rest : given;
  const inputFormat = options.inputFormat ?? (file === '-' ? 'csv' : formatOf(file));
  if (inputFormat === undefined) {
    throw new UsageError(
      `cannot tell the format of ${file} from its extension; use --input-format csv|jsonl|parquet.`,
    );
  }
  const format =
    options.format ?? (options.out !== undefined ? formatOf(options.out) : undefined) ?? inputFormat;
  if (options.resume === true && options.out === undefined) throw new UsageError('--resume needs --out.');
  refuseSameFile(inputStats(file), options.out);
  refuseReservedInput(file, options.out);
  // Before any worker starts, so that its isolate has them too.
  applyGcFlags(1);
  if (inputFormat === 'parquet' || format === 'parquet') {
    return runParquetFileCommand(kind, file, { ...options, inputFormat, format }, io);
  }
  const jobs = options.jobs ?? defaultJobs();

  const input = await openInput(file, io);
  let bytesRead = 0;
  let source;
  try {
    source = await readRecords(input.source, inputFormat, {
      onChunk: (bytes) => (bytesRead += bytes),
      ...(options.delimiter !== undefined && { delimiter: options.delimiter }),
    });
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(`${file}: ${error.message}.`);
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
  const { header, batches } = source;
  const reading = readingOf(source, inputFormat, options);
  const header_ = headerReading(kind, file, header, inputFormat === 'csv');

  // The first chunk is read before anything is written: JSON Lines written as CSV takes its columns from it.
  // Records come a source chunk (64 KB) at a time, so reading awaits once per batch, not once per record.
  const nextBatch = async () => {
    const next = await batches.next();
    return next.done === true ? undefined : next.value;
  };
  const first: RecordText[] = [];
  let ended = false;
  while (first.length < CHUNK_ROWS) {
    const batch = await nextBatch();
    if (batch === undefined) {
      ended = true;
      break;
    }
    for (const record of batch) first.push(record);
  }
  const context: ChunkContext = {
    inputFormat,
    format,
    header,
    columns: outputColumns(header, first, inputFormat, kind.resultColumns),
    neutraliseFormulas: options.neutraliseFormulas ?? true,
    ...(kind.resultColumns !== undefined && { resultColumns: kind.resultColumns }),
    ...(inputFormat === 'csv' && { delimiter: source.delimiter }),
    reading: reading.cells,
    rename: header_.rename,
  };

  const summary = new RunSummary(kind.groupings);
  let output: OutputFile | undefined;
  let write: (text: string | Uint8Array) => Promise<void>;
  if (options.out !== undefined) {
    const run = runIdentity(kind, file, context);
    if (run === undefined && options.resume === true)
      throw new UsageError(
        '--resume needs an input file (stdin redirected from a file is fine, a pipe is not).',
      );
    const file_ = openOutputFile(options.out, {
      force: options.force === true,
      resume: options.resume === true,
      run,
      notice: (message) => io.stderr.write(`co2e-engine ${kind.name}: ${message}\n`),
    });
    output = file_;
    // `--out x.csv.gz`: each write (the header, then each chunk) is one gzip member. Members one after another are
    // one gzip file (RFC 1952; gunzip, zcat and our own reader read them through), and a resumed run truncates
    // the partial at a member's end, so the finished file is the same as an uninterrupted run's.
    write = isGzip(options.out)
      ? async (text) => file_.write(gzipSync(text))
      : async (text) => file_.write(text);
  } else {
    write = streamWriter(io.stdout);
  }
  const skip = output?.resumed?.rows ?? 0;
  if (output?.resumed !== undefined) {
    summary.merge(output.resumed.summary);
    io.stderr.write(`co2e-engine ${kind.name}: resuming after ${skip} rows\n`);
  }

  const process = chunkProcessor(kind, context);
  let pool: ChunkPool | undefined;
  const inFlight = new InFlightChunks();
  // Room for every worker's queue and for chunks the main thread computes meanwhile: it waits for the oldest
  // chunk (a worker's, often) only when this many are under way, so a slower worker does not stall it.
  const maxInFlight = jobs > 1 ? WORKER_QUEUE * (jobs - 1) + MAIN_AHEAD : 2;
  const progress = createProgress(io.stderr, input.bytes);
  const started = performance.now();
  let rowsWritten = skip;
  // Records read so far and their characters (line ends included), resumed ones too: how long the file looks.
  let seen = 0;
  let charsRead = 0;
  let lastCheckpoint = 0;
  let interrupted = false;

  const checkpoint = (force: boolean) => {
    if (output === undefined) return;
    const now = performance.now();
    if (!force && now - lastCheckpoint < CHECKPOINT_MS) return;
    lastCheckpoint = now;
    output.checkpoint(rowsWritten, summary.toState());
  };
  const dispatch = (chunk: RecordText[], last: boolean) => {
    // `--jobs N`: the main thread and N - 1 workers compute. The main thread has its adapter built and its code
    // warm already; each worker pays its own start-up, dataset import, JIT and cache warm-up (bench/cli.md), so
    // it takes a chunk only when it is ready and not full, and the main thread computes the rest.
    // With the default `--jobs`, only once the run is expected to be long enough to repay a worker's start-up.
    if (
      pool === undefined &&
      !last &&
      jobs > 1 &&
      kind.worker !== undefined &&
      (options.jobs !== undefined || expectsLongRun({ fileBytes: input.bytes, rowsRead: seen, charsRead }))
    ) {
      applyGcFlags(jobs);
      pool = workerPool(jobs - 1, kind.worker, context, kind.workerDatasets);
    }
    inFlight.add(chunk, pool?.run(chunk) ?? process(chunk));
  };
  const writeHead = async () => {
    const head = inFlight.shift();
    if (head === undefined) return;
    const { bytes, summary: part } = await head.result;
    await write(bytes);
    summary.merge(part);
    rowsWritten += head.rows;
    checkpoint(false);
    progress.tick(summary.rows, bytesRead);
  };

  try {
    if (output?.resumed === undefined) {
      await write(ENCODERS[format](context).header);
      checkpoint(true);
    }
    let chunk: RecordText[] = [];
    let chunkChars = 0;
    const take = async (records: readonly RecordText[]) => {
      for (const record of records) {
        seen += 1;
        charsRead += (record.text?.length ?? 0) + 1;
        if (seen <= skip) continue; // already in the resumed output
        if (chunk.length >= CHUNK_ROWS || chunkChars >= CHUNK_CHARS) {
          // A full chunk is sent once a record follows it, so a file of one chunk never starts workers.
          // A worker's ready message waits for the event loop; without this the main thread, computing chunk after
          // chunk from data already read, would notice a ready worker only some chunks later.
          if (pool?.starting === true) await new Promise((resolve) => setImmediate(resolve));
          dispatch(chunk, false);
          chunk = [];
          chunkChars = 0;
          while (inFlight.length >= maxInFlight) await writeHead();
        }
        chunk.push(record);
        chunkChars += record.text?.length ?? 0;
      }
    };
    await take(first);
    first.length = 0;
    if (!ended) {
      for (let batch; (batch = await nextBatch()) !== undefined;) {
        if (io.signal?.aborted === true) {
          interrupted = true;
          break;
        }
        await take(batch);
      }
    }
    if (io.signal?.aborted === true) interrupted = true;
    if (!interrupted && chunk.length > 0) dispatch(chunk, true);
    // Nothing left to read: rather than wait for chunks still queued at workers, compute them here too.
    if (pool !== undefined) await inFlight.computeQueued(process);
    while (inFlight.length > 0) await writeHead();
    checkpoint(true);
    if (!interrupted) output?.commit();
    else output?.keepPartial();
  } catch (error) {
    progress.stop();
    output?.keepPartial();
    const kept =
      output !== undefined && rowsWritten > 0
        ? `; the ${rowsWritten} rows written are kept for --resume, and ${options.out} is untouched`
        : '';
    throw new UsageError(`stopped after ${rowsWritten} rows: ${errorCode(error)}${kept}`);
  } finally {
    await pool?.close();
  }
  progress.stop();
  io.stderr.write(summary.format(kind.name, (performance.now() - started) / 1000, interrupted));
  for (const note of [...reading.notes, ...header_.notes])
    io.stderr.write(`co2e-engine ${kind.name}: ${note}\n`);
  if (interrupted && output !== undefined)
    io.stderr.write(
      `co2e-engine ${kind.name}: ${options.out} is untouched; run the same command with --resume to continue\n`,
    );
  if (interrupted) return EXIT.interrupted;
  return summary.failures > 0 ? EXIT.rowsFailed : EXIT.ok;
}
