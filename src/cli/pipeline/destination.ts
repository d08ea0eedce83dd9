import { realpathSync, rmSync } from 'node:fs';
import packageJson from '../../../package.json';
import { delimiterName } from '../formats/csv/reader';
import { type CliIo, UsageError } from '../io';
import type { ChunkContext } from './chunk';
import {
  inputStats,
  openOutputFile,
  type OutputFile,
  partialPaths,
  type ResumeState,
  type RunIdentity,
} from './output-file';
import type { RowAdapter } from './row-adapter';
import type { RunPlan } from './run-plan';
import type { ByteWrite } from './sink';
import { streamWriter } from './streams';
import type { SummaryState } from './summary';

/**
 * Where a file run's bytes go: stdout, or `--out` through output-file.ts (never the input, never silently replaced,
 * written to a partial renamed over the target once complete), with the run's state saved beside a resumable
 * partial so that `--resume` can continue it.
 */

/**
 * A resumable output's state is saved at most this often (and after the last chunk, and when interrupted): each save
 * writes the run's summary and renames a file, and a killed run redoes at most this long of rows when resumed.
 */
const CHECKPOINT_MS = 500;

export interface Destination {
  write: ByteWrite;
  /** The partial output a `--resume` continues, if any. */
  readonly resumed: ResumeState | undefined;
  /** Whether a write failed (a full disk): the run's error is then about the output, not the rows. */
  readonly failed: boolean;
  /** Input rows a `--resume` would continue after: those the last state saved holds (0 when none is kept). */
  readonly kept: number;
  /** Records that the output holds `rows` input rows with this summary (at most every {@link CHECKPOINT_MS}, unless `now`). */
  checkpoint(rows: number, summary: () => SummaryState, now?: boolean): void;
  /** The output is complete: written, flushed and renamed into place. */
  commit(): Promise<void>;
  /** The run stopped: a resumable partial is kept for `--resume`, any other removed; the target is untouched. */
  abandon(): Promise<void>;
}

/**
 * What a resumed run must match; undefined for a pipe, which cannot be read again. Its options: the pipeline's
 * own that change rows (formats, formula cells, how cells are read), then the adapter's ({@link RowAdapter.rowOptions}).
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

/** Steps on the output (its writes, its commit), noting whether one failed. */
function watched(): { step: <T>(run: () => Promise<T>) => Promise<T>; readonly failed: boolean } {
  const watch = {
    failed: false,
    async step<T>(run: () => Promise<T>): Promise<T> {
      try {
        return await run();
      } catch (error) {
        watch.failed = true;
        throw error;
      }
    },
  };
  return watch;
}

/** Removes the partial a non-resumable output left (a Parquet file without its footer is unreadable). */
function removePartial(out: string): void {
  let target = out;
  try {
    target = realpathSync(out);
  } catch {
    // no existing target: the partial sits beside the name given
  }
  rmSync(partialPaths(target).partial, { force: true });
}

/**
 * Opens the run's destination: stdout, or the guarded `--out` file (continued with `--resume` when `resumes`).
 *
 * @throws {@link UsageError} for an output that exists without `--force` or cannot be written, a partial of another
 *   run, or `--resume` on a pipe.
 *
 * @example
 * ```ts
 * const destination = openDestination(kind, plan, context, sink.resumes, io);
 * await destination.write('id,co2e\n');
 * await destination.commit();
 * ```
 */
export function openDestination(
  kind: RowAdapter,
  plan: RunPlan,
  context: ChunkContext,
  resumes: boolean,
  io: CliIo,
): Destination {
  const { out } = plan;
  if (out === undefined) {
    const stdout = watched();
    const write = streamWriter(io.stdout);
    return {
      write: (bytes) => stdout.step(() => write(bytes)),
      resumed: undefined,
      get failed() {
        return stdout.failed;
      },
      kept: 0,
      checkpoint: () => undefined,
      commit: async () => undefined,
      abandon: async () => undefined,
    };
  }
  const run = resumes ? runIdentity(kind, plan.file, context) : undefined;
  if (run === undefined && plan.resume === true)
    throw new UsageError(
      '--resume needs an input file (stdin redirected from a file is fine, a pipe is not).',
    );
  const file: OutputFile = openOutputFile(out, {
    force: plan.force === true,
    resume: plan.resume === true,
    run,
    notice: (message) => io.stderr.write(`co2e-engine ${kind.name}: ${message}\n`),
  });
  const output = watched();
  let saved = Number.NEGATIVE_INFINITY;
  return {
    // A write that fails is reported by a later one or by the commit (the writes are queued: output-file.ts).
    write: (bytes) => output.step(() => file.write(bytes)),
    resumed: file.resumed,
    get failed() {
      return output.failed;
    },
    get kept() {
      return run === undefined ? 0 : file.savedRows;
    },
    checkpoint(rows, summary, now = false) {
      if (run === undefined || (!now && performance.now() - saved < CHECKPOINT_MS)) return;
      saved = performance.now();
      file.checkpoint(rows, summary());
    },
    commit: () => output.step(() => file.commit()),
    async abandon() {
      await file.keepPartial();
      if (!resumes) removePartial(out);
    },
  };
}
