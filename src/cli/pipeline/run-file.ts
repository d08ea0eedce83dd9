import { passThroughColumns } from '../formats/index';
import { parseJsonLine } from '../formats/jsonl/reader';
import { InputFileError, type RecordText } from '../formats/records';
import { type CliIo, EXIT, UsageError } from '../io';
import type { ChunkContext } from './chunk';
import { type Chunk, CHUNK_ROWS, chunksOf, firstRecords, type ReadSoFar } from './chunker';
import { type Destination, openDestination } from './destination';
import { createExecutor, type Executor } from './executor';
import { createProgress, type Progress } from './progress';
import { FIRST_RECORD_WORDS, HEADER_WORDS, recordKeys } from './header';
import { headerReading, readingOf } from './reading';
import type { CellReading, RowAdapter } from './row-adapter';
import { type FileCommandOptions, planRun, type RunPlan } from './run-plan';
import { recordSink, type RecordSink } from './sink';
import { inputError, type InputRecords, NO_DELIMITER, openRecordSource } from './source';
import { errorCode } from './streams';
import { RunSummary } from './summary';
import { tuneRuntime } from './runtime';
import { isGzip } from './run-plan';

export type { FileCommandOptions } from './run-plan';

/**
 * `spend FILE`, `cloud FILE` and `billing FILE`: one pipeline of named stages for every format. The plan
 * (run-plan.ts) → the record source (source.ts: CSV, JSON Lines, Parquet) → the chunker (chunker.ts) → the executor
 * (executor.ts: the main thread or a worker pool) → the record sink (sink.ts: CSV, JSON Lines, Parquet) → the
 * destination (destination.ts: stdout, or the guarded `--out` file) → the summary on stderr.
 */

/**
 * Runs one batch file. Returns the exit code: 0 when every row succeeded, 1 when any failed, 130 when interrupted.
 *
 * @throws {@link UsageError} for an unreadable input, an output that is the input or exists without `force`, an
 *   unwritable output, an unknown format or a malformed header.
 *
 * @example
 * ```ts
 * const code = await runFileCommand(rowAdapter('spend', defaultDatasets), 'ledger.csv', { out: 'out.csv' }, io);
 * ```
 */
export async function runFileCommand(
  kind: RowAdapter,
  file: string,
  options: FileCommandOptions,
  io: CliIo,
): Promise<number> {
  const plan = planRun(file, options);
  tuneRuntime();
  const input = await openRecordSource(plan, io);
  const reading = readingOf(input.delimiter ?? NO_DELIMITER, plan.inputFormat, plan);
  // The first chunk is read before anything is written: a JSON Lines input's columns are its first object's keys.
  const { first, batches } = await firstRecords(input.batches, CHUNK_ROWS).catch((error: unknown) => {
    throw inputError(file, error);
  });
  const names = inputNames(kind, plan, input, first);
  const words = plan.inputFormat === 'jsonl' ? FIRST_RECORD_WORDS : HEADER_WORDS;
  const header = headerReading(kind, file, names.checked, words);
  const context = chunkContext(kind, plan, input, names, reading.cells, header.rename);
  const sink = recordSink(kind, context, {
    write: (bytes) => destination.write(bytes),
    gzip: plan.out !== undefined && isGzip(plan.out),
    columnTypes: input.columnTypes,
  });
  const destination = openDestination(kind, plan, context, sink.resumes, io);
  const tally = plan.tallied === undefined ? undefined : kind.newTally?.();
  const summary = new RunSummary(kind.groupings, tally);
  const run: Run = { kind, plan, io, input, sink, destination, summary };
  const skip = resumeFrom(run);
  const read: ReadSoFar = { rows: 0, chars: 0, interrupted: false };
  const executor = createExecutor(kind, context, {
    jobs: plan.jobs,
    workers: sink.workers,
    fileBytes: input.bytes,
    read,
  });
  const progress = createProgress(io.stderr, input.bytes);
  const writing: Writing = { ...run, executor, progress, read, written: skip };
  const started = performance.now();
  try {
    await writeAll(
      writing,
      chunksOf(batches, skip, () => io.signal?.aborted === true, read),
    );
  } catch (error) {
    // The rows written so far are saved for --resume, unless writing them is what failed.
    if (!destination.failed) destination.checkpoint(writing.written, () => summary.toState(), true);
    await destination.abandon();
    throw stoppedError(writing, error);
  } finally {
    progress.stop();
    await executor.close();
  }
  const notes = [...reading.notes, ...header.notes];
  if (tally !== undefined && !read.interrupted) plan.tallied?.(tally);
  return endReport(run, (performance.now() - started) / 1000, read.interrupted, notes);
}

/** What the stages of one run share. */
interface Run {
  kind: RowAdapter;
  plan: RunPlan;
  io: CliIo;
  input: InputRecords;
  sink: RecordSink;
  destination: Destination;
  summary: RunSummary;
}

/** A run while it writes: the executor, the progress bar, and the input rows the output holds so far. */
interface Writing extends Run {
  executor: Executor;
  progress: Progress;
  read: ReadSoFar;
  written: number;
}

/** What the output's rows take from the input: its columns (a JSON Lines input's from its first object), its reading. */
function chunkContext(
  kind: RowAdapter,
  plan: RunPlan,
  input: InputRecords,
  { columns, checked }: InputNames,
  cells: CellReading,
  rename: Readonly<Record<string, string>>,
): ChunkContext {
  return {
    inputFormat: plan.inputFormat,
    format: plan.format,
    header: input.header,
    columns: passThroughColumns(columns, kind.resultColumns),
    neutraliseFormulas: plan.neutraliseFormulas ?? true,
    ...(kind.resultColumns !== undefined && { resultColumns: kind.resultColumns }),
    ...(input.delimiter !== undefined && { delimiter: input.delimiter.delimiter }),
    reading: cells,
    rename,
    ...(plan.inputFormat === 'jsonl' && { keys: checked }),
    ...(plan.tallied !== undefined && kind.newTally !== undefined && { tally: true }),
  };
}

/** An input's column names, and the names its header check reads. */
interface InputNames {
  columns: readonly string[];
  checked: readonly string[];
}

/**
 * The input's columns (the CSV header, the Parquet schema's, a JSON Lines input's first object's keys), and the names
 * the header check reads (for JSON Lines, with those of the objects that hold columns: spend's nested `activity`).
 */
function inputNames(
  kind: RowAdapter,
  plan: RunPlan,
  input: InputRecords,
  first: readonly RecordText[],
): InputNames {
  if (plan.inputFormat !== 'jsonl') return { columns: input.header, checked: input.header };
  for (const record of first) {
    if (record.text === undefined) continue;
    const parsed = parseJsonLine(record.text, record.line);
    if (!('values' in parsed)) continue;
    const checked = kind.columns === undefined ? [] : recordKeys(parsed.values, kind.columns);
    return { columns: Object.keys(parsed.values), checked };
  }
  return { columns: [], checked: [] };
}

/** The rows a resumed output holds already (their summary taken in), or 0 for a fresh output. */
function resumeFrom({ kind, io, destination, summary }: Run): number {
  if (destination.resumed === undefined) return 0;
  summary.merge(destination.resumed.summary);
  io.stderr.write(`co2e-engine ${kind.name}: resuming after ${destination.resumed.rows} rows\n`);
  return destination.resumed.rows;
}

/** Computes every chunk and writes the results in input order, then completes the output (or keeps it to resume). */
async function writeAll(run: Writing, chunks: AsyncIterable<Chunk>): Promise<void> {
  const { executor, sink, destination, summary } = run;
  if (destination.resumed === undefined) {
    await sink.start();
    destination.checkpoint(run.written, () => summary.toState(), true);
  }
  for await (const { records, last } of chunks) {
    await executor.dispatch(records, last);
    while (executor.full) await writeOldest(run);
  }
  await executor.drain();
  while (await writeOldest(run));
  destination.checkpoint(run.written, () => summary.toState(), true);
  if (run.read.interrupted) await destination.abandon();
  else {
    await sink.finish();
    await destination.commit();
  }
}

/** Writes the oldest chunk under way, once computed; false when none is. */
async function writeOldest(run: Writing): Promise<boolean> {
  const head = await run.executor.next();
  if (head === undefined) return false;
  await run.sink.write(head.result);
  run.summary.merge(head.result.summary);
  run.written += head.rows;
  run.destination.checkpoint(run.written, () => run.summary.toState());
  run.progress.tick(run.summary.rows, run.input.bytesRead());
  return true;
}

/** The usage error of a run that stopped on `error`, saying what its output holds. */
function stoppedError({ plan, sink, destination, summary, written }: Writing, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  if (error instanceof InputFileError) return new UsageError(`${plan.file}: ${error.message}.`);
  const code = errorCode(error);
  const kept =
    sink.resumes && plan.out !== undefined && destination.kept > 0
      ? `; the first ${destination.kept} rows are kept for --resume, and ${plan.out} is untouched`
      : '';
  if (!destination.failed) return new UsageError(`stopped after ${written} rows: ${code}${kept}`);
  // Rows are computed before they are written (a Parquet row group, a queued write), so the rows computed are not
  // the rows written.
  const failed = `writing the output failed (${code}) after ${summary.rows} rows were computed`;
  if (kept !== '') return new UsageError(`${failed}${kept}`);
  return new UsageError(
    plan.out === undefined
      ? `${failed}; the output on stdout is incomplete; do not use it.`
      : sink.resumes
        ? `${failed}; ${plan.out} is untouched.`
        : `${failed}; ${plan.out} was not written (a partial Parquet file is unreadable, so none is kept).`,
  );
}

/** The summary and notes on stderr, and the exit code. */
function endReport(
  { kind, plan, io, sink, summary }: Run,
  seconds: number,
  interrupted: boolean,
  notes: readonly string[],
): number {
  io.stderr.write(summary.format(kind.name, seconds, interrupted));
  for (const note of notes) io.stderr.write(`co2e-engine ${kind.name}: ${note}\n`);
  if (interrupted && plan.out !== undefined && sink.resumes)
    io.stderr.write(
      `co2e-engine ${kind.name}: ${plan.out} is untouched; run the same command with --resume to continue\n`,
    );
  if (interrupted) return EXIT.interrupted;
  return summary.failures > 0 ? EXIT.rowsFailed : EXIT.ok;
}
