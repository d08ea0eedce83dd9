import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  fdatasync,
  fsync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
  write,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../io';
import { errorCode } from './streams';
import { recycleBuffer } from './output-buffers';
import { isCount, isSummaryState, type SummaryState } from './summary';

/**
 * Where a file run's output goes, with the guarantees docs/cli.md promises for every format:
 *
 * - never the input file, however it is reached (symlink, hard link, stdin redirected from it): files are
 *   compared by device and inode;
 * - an existing file is replaced only with `--force`;
 * - atomic: rows go to a partial file beside the target, which is renamed over it only once every row is written
 *   and flushed; a run that fails or is killed leaves the target as it was;
 * - resumable: after each chunk, a small state file beside the partial records how many input rows its bytes
 *   hold, so `--resume` truncates the partial to that length and carries on from the next row.
 */

/**
 * What must be the same for a partial output to be continued: the command, the input file, every option that
 * changes what a row's output is, and the package version that computed the rows. `options` is canonical (option
 * → value, e.g. `{ '--format': 'csv', '--export-format': 'focus' }`): the pipeline describes its own options and
 * each row adapter its own (`RowAdapter.rowOptions`); options that do not change rows (`--jobs`) are not in it.
 */
export interface RunIdentity {
  command: string;
  input: { path: string; device: number; inode: number; size: number; modified: number };
  options: Readonly<Record<string, string>>;
  version: string;
}

/** A partial output's state: rows of the input it holds, its length in bytes, and their summary. */
export interface ResumeState {
  version: 1;
  run: RunIdentity;
  rows: number;
  bytes: number;
  summary: SummaryState;
}

export interface OutputFile {
  /** The state to continue from (`--resume` with a matching partial), or undefined for a fresh start. */
  readonly resumed: ResumeState | undefined;
  /** Bytes written so far (including those of a resumed partial). */
  readonly bytes: number;
  /** Input rows the saved state says the partial holds: what `--resume` continues after. */
  readonly savedRows: number;
  /**
   * Appends text (UTF-8) or bytes (Parquet), which the caller no longer changes. Queued: resolves at once unless
   * many bytes are still to write; rejects when an earlier write failed.
   */
  write(text: string | Uint8Array): Promise<void>;
  /** Records, once the bytes written so far are on file, that they hold `rows` input rows with this summary. */
  checkpoint(rows: number, summary: SummaryState): void;
  /** Writes what is queued, flushes the partial to disk and renames it over the target. */
  commit(): Promise<void>;
  /** Writes what is queued, closes the partial and leaves it (with its state) for `--resume`. */
  keepPartial(): Promise<void>;
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The input's file identity: the named file, or what stdin is (a pipe has none worth comparing). */
export function inputStats(file: string): Stats | undefined {
  if (file !== '-') return statOrUndefined(file);
  try {
    return fstatSync(0);
  } catch {
    return undefined;
  }
}

/**
 * Refuses to write results into the input: `--out` (or, without it, stdout redirected into a file) that is the
 * input file through any name.
 *
 * @throws {@link UsageError} when they are the same file.
 *
 * @example
 * ```ts
 * refuseSameFile(inputStats('ledger.csv'), 'link-to-ledger.csv'); // throws UsageError
 * ```
 */
export function refuseSameFile(input: Stats | undefined, out: string | undefined): void {
  if (input === undefined || !input.isFile()) return;
  if (out !== undefined) {
    const target = statOrUndefined(out);
    if (target !== undefined && sameFile(input, target))
      throw new UsageError(`--out ${out} is the input file (through another name or link); write elsewhere.`);
    return;
  }
  let stdout: Stats | undefined;
  try {
    stdout = fstatSync(1);
  } catch {
    return;
  }
  if (stdout.isFile() && sameFile(input, stdout))
    throw new UsageError('stdout is redirected into the input file; write elsewhere.');
}

/**
 * The partial output, its state file and the lock, beside the target (same directory, so the rename is atomic).
 */
export function partialPaths(target: string): { partial: string; state: string; lock: string } {
  const partial = join(dirname(target), `.${basename(target)}.co2e-partial`);
  return { partial, state: `${partial}.json`, lock: join(dirname(target), `.${basename(target)}.co2e-lock`) };
}

/** Names of the files co2e-engine keeps beside an output: never an input. */
const RESERVED_NAME = /\.co2e-(partial(\.json(\.tmp)?)?|lock)$/;

/**
 * Refuses an input that is, or is named like, one of the files kept beside an output (partial, state, lock): a
 * run would truncate or delete it while reading it.
 *
 * @throws {@link UsageError} for such an input.
 *
 * @example
 * ```ts
 * refuseReservedInput('.out.csv.co2e-partial', 'out.csv'); // throws UsageError
 * ```
 */
export function refuseReservedInput(file: string, out: string | undefined): void {
  if (file === '-') return;
  if (RESERVED_NAME.test(basename(file)))
    throw new UsageError(
      `${file} is named like a file co2e-engine keeps beside an output (.NAME.co2e-partial, .co2e-partial.json, .co2e-lock), which a run may truncate or delete; rename it to use it as input.`,
    );
  if (out === undefined) return;
  const input = statOrUndefined(file);
  if (input === undefined) return;
  let target = out;
  try {
    target = realpathSync(out);
  } catch {
    // no target yet: its files sit beside the name given
  }
  const paths = partialPaths(target);
  for (const path of [paths.partial, paths.state, `${paths.state}.tmp`, paths.lock]) {
    const other = statOrUndefined(path);
    if (other !== undefined && sameFile(input, other))
      throw new UsageError(
        `${file} is ${path}, a file this run would truncate or delete; use another input.`,
      );
  }
}

/** Whether a process is running (a lock whose process is gone was left by a killed run). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock beside the target: a file created exclusively, holding this process's id. A lock held by a
 * running process refuses at once, naming it; one left by a process that is gone (SIGKILL) is taken over.
 * Returns its release.
 */
function takeLock(lock: string, out: string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new UsageError(`cannot write ${out}: ${errorCode(error)}`);
      }
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(holder) && holder > 0 && running(holder))
        throw new UsageError(
          `${out} is being written by another run (pid ${holder}; lock ${lock}); wait for it to finish or stop it.`,
        );
      if (attempt > 2)
        throw new UsageError(`cannot take the lock ${lock}; remove it if no run is writing ${out}.`);
      try {
        unlinkSync(lock); // left by a run that is gone
      } catch {
        // taken over by another run meanwhile: the next attempt sees its lock
      }
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}

/**
 * The state saved beside a partial output: undefined when there is none, `'unreadable'` when it is not a state this
 * version wrote whole (not JSON, another format version, or a summary that would not merge exactly). Its run is
 * checked against this one's by {@link refuseOtherRun}.
 */
function readState(path: string): ResumeState | 'unreadable' | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as ResumeState;
    const whole =
      state.version === 1 && isCount(state.rows) && isCount(state.bytes) && isSummaryState(state.summary);
    return whole ? state : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

export interface OpenOutputOptions {
  force: boolean;
  resume: boolean;
  /** The run's identity; undefined when the input is a pipe (no state is kept, as it cannot be resumed). */
  run: RunIdentity | undefined;
  /** Told when `--resume` finds nothing to continue and starts afresh. */
  notice: (message: string) => void;
}

/**
 * Opens the partial output for `out`: a fresh one, or with `resume` the one an earlier run of the same input
 * and options left.
 *
 * @throws {@link UsageError} when the target exists without `force`, is not a regular file, cannot be written, or
 *   the partial to resume belongs to another input or other options.
 *
 * @example
 * ```ts
 * const output = openOutputFile('out.csv', { force: false, resume: false, run, notice: console.error });
 * await output.write('id,co2e\n');
 * output.checkpoint(0, summary.toState());
 * await output.commit(); // out.csv appears, complete
 * ```
 */
export function openOutputFile(out: string, options: OpenOutputOptions): OutputFile {
  const existing = statOrUndefined(out);
  if (existing !== undefined && !existing.isFile()) throw new UsageError(`--out ${out} is not a file.`);
  if (existing !== undefined && !options.force)
    throw new UsageError(`${out} exists; use --force to replace it.`);
  // Replace what a symlink points to, not the link itself.
  const target = existing !== undefined ? realpathSync(out) : out;
  const paths = partialPaths(target);
  const release = takeLock(paths.lock, out);
  try {
    return openLocked(out, target, existing, paths, options, release);
  } catch (error) {
    release();
    throw error;
  }
}

function openLocked(
  out: string,
  target: string,
  existing: Stats | undefined,
  paths: ReturnType<typeof partialPaths>,
  options: OpenOutputOptions,
  release: () => void,
): OutputFile {
  let resumed: ResumeState | undefined;
  if (options.resume && options.run !== undefined) {
    const saved = readState(paths.state);
    resumed = saved === 'unreadable' ? undefined : saved;
    const partial = statOrUndefined(paths.partial);
    if (resumed !== undefined) refuseOtherRun(resumed.run, options.run, paths.partial);
    if (resumed !== undefined && (partial === undefined || partial.size < resumed.bytes)) resumed = undefined;
    if (saved === 'unreadable')
      options.notice(
        `the state kept beside the partial output of ${out} is unreadable; starting from the first row`,
      );
    else if (resumed === undefined)
      options.notice(`no partial output of ${out} to resume; starting from the first row`);
  }

  let fd: number;
  try {
    fd = openSync(paths.partial, resumed !== undefined ? 'r+' : 'w');
    if (resumed !== undefined) ftruncateSync(fd, resumed.bytes);
  } catch (error) {
    throw new UsageError(`cannot write ${out}: ${errorCode(error)}`);
  }
  if (resumed === undefined && existsSync(paths.state)) unlinkSync(paths.state);

  const writes = new QueuedWrites(fd, resumed?.bytes ?? 0);
  let savedRows = resumed?.rows ?? 0;
  return {
    resumed,
    get bytes() {
      return writes.bytes;
    },
    get savedRows() {
      return savedRows;
    },
    write: (text) => writes.write(text),
    checkpoint(rows, summary) {
      if (options.run === undefined) return;
      const state: ResumeState = { version: 1, run: options.run, rows, bytes: writes.bytes, summary };
      const text = JSON.stringify(state);
      // After the bytes it counts are written (a kill leaves a partial at least that long), written whole and then
      // renamed: a kill leaves the previous state or this one, never half of one.
      writes.after(() => {
        writeFileSync(`${paths.state}.tmp`, text);
        renameSync(`${paths.state}.tmp`, paths.state);
        savedRows = rows;
      });
    },
    async commit() {
      await writes.close(true);
      if (existing !== undefined) chmodSync(paths.partial, existing.mode & 0o7777);
      renameSync(paths.partial, target);
      if (existsSync(paths.state)) unlinkSync(paths.state);
      release();
    },
    async keepPartial() {
      await writes.close(false).catch(() => undefined);
      release();
    },
  };
}

/** Bytes handed to the kernel's writes at most, beyond those written: a write waits for them once more are queued. */
const QUEUED_BYTES = 16 << 20;
/** The partial is flushed to disk after each this many bytes, while the run goes on, so the commit has little to flush. */
const FLUSH_BYTES = 64 << 20;

/**
 * A partial output's writes, in order, off the main thread: each write is queued to libuv's threads (the copy into
 * the kernel's page cache is CPU work the main thread need not wait for), and the written bytes are flushed to disk
 * in the background every {@link FLUSH_BYTES}. A write waits only once {@link QUEUED_BYTES} are queued (a disk slower
 * than the rows). A failed write fails every later step: the next write, and the close.
 */
class QueuedWrites {
  /** Bytes queued so far, from the start of the file: the next write's position. */
  bytes: number;
  private queued = 0;
  private unflushed = 0;
  private tail: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private open = true;

  constructor(
    private readonly fd: number,
    start: number,
  ) {
    this.bytes = start;
  }

  async write(text: string | Uint8Array): Promise<void> {
    this.throwFailure();
    // A fresh buffer either way: the bytes of a chunk are not reused once handed over (sink.ts).
    const buffer =
      typeof text === 'string'
        ? Buffer.from(text, 'utf8')
        : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const position = this.bytes;
    this.bytes += buffer.length;
    this.queued += buffer.length;
    this.after(async () => {
      await writeAt(this.fd, buffer, position);
      // Written: a chunk's buffer is the pool's again, for a later chunk's rows.
      if (typeof text !== 'string') recycleBuffer(text);
      this.queued -= buffer.length;
      this.unflushed += buffer.length;
      if (this.unflushed >= FLUSH_BYTES) {
        this.unflushed = 0;
        await fdatasyncAsync(this.fd);
      }
    });
    if (this.queued > QUEUED_BYTES) await this.tail;
    this.throwFailure();
  }

  /** Runs `step` after every step queued before it, unless one failed. */
  after(step: () => void | Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await step();
      } catch (error) {
        this.failure = { error };
      }
    });
  }

  /** Waits for the queued steps, flushes the file to disk if `flush`, and closes it; throws a step's failure. */
  async close(flush: boolean): Promise<void> {
    await this.tail;
    if (!this.open) return;
    try {
      this.throwFailure();
      if (flush) await fsyncAsync(this.fd);
    } finally {
      this.open = false;
      closeSync(this.fd);
    }
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }
}

/** Writes all of `buffer` at `position` (a write may take part of it). */
async function writeAt(fd: number, buffer: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await writeAsync(fd, buffer, offset, buffer.length - offset, position + offset);
    offset += bytesWritten;
  }
}

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

/**
 * Refuses to continue a partial that another command, input or version made, or one whose output-affecting
 * options differ, naming each such option with its recorded and its new value.
 */
function refuseOtherRun(saved: RunIdentity, now: RunIdentity, partial: string): void {
  const again = 'run without --resume to start over';
  if (saved.command !== now.command || JSON.stringify(saved.input) !== JSON.stringify(now.input))
    throw new UsageError(`the partial output ${partial} is from another command or input file; ${again}.`);
  if (saved.version !== now.version)
    throw new UsageError(
      `the partial output ${partial} was computed by co2e-engine ${saved.version ?? 'of an unknown version'}, this is ${now.version}; ${again}.`,
    );
  if (typeof saved.options !== 'object' || saved.options === null)
    throw new UsageError(
      `the partial output ${partial} does not record its options (an earlier build wrote it); ${again}.`,
    );
  const names = [...new Set([...Object.keys(saved.options), ...Object.keys(now.options)])];
  const value = (options: RunIdentity['options'], name: string) =>
    Object.hasOwn(options, name) ? options[name] : '(not recorded)';
  const changed = names
    .filter((name) => value(saved.options, name) !== value(now.options, name))
    .map((name) => `${name} was ${value(saved.options, name)}, now ${value(now.options, name)}`);
  if (changed.length > 0)
    throw new UsageError(
      `the partial output ${partial} was written with other options (${changed.join('; ')}); resume with the same options, or ${again}.`,
    );
}

/**
 * A file a run writes besides its rows (`--summary`, `--report`, and any later one): the option that names it and
 * the path given.
 */
export interface SideFile {
  option: string;
  path: string;
}

/** The path a name will have once written: symlinks in its directory (and the name itself, if any) resolved. */
function resolvedTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * Refuses, before any work starts, every side file that would destroy or race a file of the same run: the input
 * (through any name or link, or stdin redirected from it), `--out` or the partial, state and lock files kept beside
 * it, another side file, a name co2e-engine reserves, something that is not a regular file, or an existing file
 * without `--force`. One place for these rules, for every file option of every command.
 *
 * @throws {@link UsageError} naming the option and the file it would destroy.
 *
 * @example
 * ```ts
 * // `billing in.csv --out out.csv --summary in.csv`: refused, the bill is kept.
 * refuseSideFileClashes('in.csv', 'out.csv', [{ option: '--summary', path: 'in.csv' }], false); // throws
 * ```
 */
export function refuseSideFileClashes(
  input: string,
  out: string | undefined,
  sideFiles: readonly SideFile[],
  force: boolean,
): void {
  const inputInfo = inputStats(input);
  const outTarget = out === undefined || out === '-' ? undefined : resolvedTarget(out);
  const outInfo = out === undefined || out === '-' ? undefined : statOrUndefined(out);
  const kept =
    outTarget === undefined ? [] : Object.values(partialPaths(outTarget)).flatMap((p) => [p, `${p}.tmp`]);
  const taken = new Map<string, string>();
  for (const { option, path } of sideFiles) {
    const refuse = (why: string) => {
      throw new UsageError(`${option} ${path} ${why}; write it elsewhere.`);
    };
    if (path === '-' || path === '') refuse('is not a file name');
    if (RESERVED_NAME.test(basename(path))) refuse('is named like a file kept beside an output');
    const target = resolvedTarget(path);
    const info = statOrUndefined(path);
    if (input !== '-' && target === resolvedTarget(input)) refuse('is the input file');
    if (inputInfo?.isFile() === true && info !== undefined && sameFile(inputInfo, info))
      refuse('is the input file (through another name or link)');
    if (target === outTarget || (outInfo !== undefined && info !== undefined && sameFile(outInfo, info)))
      refuse('is the --out file');
    if (kept.includes(target)) refuse('is a file kept beside --out (partial, state or lock)');
    const other = taken.get(target);
    if (other !== undefined) refuse(`is also ${other}`);
    taken.set(target, option);
    if (info !== undefined && !info.isFile()) refuse('is not a regular file');
    if (info !== undefined && !force)
      throw new UsageError(`${option} ${path} exists; use --force to replace it.`);
  }
}

/**
 * Writes a side file atomically: the text goes to a partial file beside it, flushed, then renamed over it, so a
 * reader sees the old file or the whole new one. Held under the same lock as an output, so two runs never write
 * it at once; an existing file is replaced only with `force` (checked again here: it may have appeared during the
 * run).
 *
 * @throws {@link UsageError} when it exists without `force`, is locked by another run, or cannot be written.
 *
 * @example
 * ```ts
 * writeSideFile({ option: '--summary', path: 'summary.json' }, '{}\n', false);
 * ```
 */
export function writeSideFile(file: SideFile, text: string, force: boolean): void {
  const existing = statOrUndefined(file.path);
  if (existing !== undefined && !existing.isFile())
    throw new UsageError(`${file.option} ${file.path} is not a regular file; write it elsewhere.`);
  if (existing !== undefined && !force)
    throw new UsageError(`${file.option} ${file.path} exists; use --force to replace it.`);
  const target = existing !== undefined ? realpathSync(file.path) : file.path;
  const paths = partialPaths(target);
  const release = takeLock(paths.lock, file.path);
  try {
    const fd = openSync(paths.partial, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (existing !== undefined) chmodSync(paths.partial, existing.mode & 0o7777);
    renameSync(paths.partial, target);
  } catch (error) {
    try {
      unlinkSync(paths.partial);
    } catch {
      // never created
    }
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write ${file.option} ${file.path}: ${errorCode(error)}`);
  } finally {
    release();
  }
}
