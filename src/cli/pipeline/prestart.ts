import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry';

/**
 * A file run's first worker, started with the process. The main thread starts by loading the CLI (Node's start, then
 * reading and evaluating the bundle) while the other cores idle, and a worker needs about as long to be ready (its
 * bootstrap, code and datasets). Started only once the run asks for it, a worker's start-up came on top of the main
 * thread's, and competed with the main thread's first rows; started with the process, from the command line alone,
 * it overlaps the main thread's loading, and the run gives it its context when it makes its pool
 * ({@link takePrestarted}). The timelines: bench/cli.md, "a worker started with the process". A worker the run does
 * not take (its guess was wrong: a short file, Parquet output, other datasets) is terminated; until then it is
 * unreferenced, so it never keeps the process alive.
 */

/** The commands that run a file through worker threads; each names its rows' worker kind. */
const FILE_COMMANDS = new Set(['spend', 'cloud', 'billing']);

/**
 * The file commands' options that take a value: the next argument, unless given as `--name=value`. The same set as
 * the commands declare (tests/cli/prestart.test.ts holds them equal).
 */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-o',
  '--out',
  '--format',
  '--input-format',
  '--jobs',
  '--summary',
  '--report',
  '--datasets',
  '--delimiter',
  '--credits',
  '--export-format',
  '--unknown',
  '--group-by',
]);

/**
 * Input bytes from which a run with the default `--jobs` starts a worker with the process: a run starts its workers
 * from 100,000 rows (pool.ts, LONG_RUN_ROWS), which at 40 bytes a row, short for a ledger, are 4 MB.
 */
export const PRESTART_BYTES = 4_000_000;
/** With `--jobs N` given, a run starts its workers with its first full chunk: an input of more than one chunk. */
export const PRESTART_BYTES_WITH_JOBS = 64 * 1024;

/** The worker a command line would have its run start: its kind and `--datasets`, as the run gives them. */
export interface PrestartPlan {
  kind: string;
  datasetFiles: string[];
}

/**
 * The worker to start with the process for `args` (the command line after `node cli.js`), or undefined: a file
 * command, reading a file (not stdin) long enough for workers, without `--jobs 1`. A guess from the arguments alone
 * (commander has not parsed them yet); a wrong guess costs a worker started and terminated, never a different result.
 *
 * @example
 * ```ts
 * prestartPlan(['spend', 'ledger.csv', '--datasets', 'ceda'], () => 70_000_000, 2);
 * // { kind: 'spend', datasetFiles: ['ceda'] }
 * prestartPlan(['spend', 'ledger.csv', '--jobs', '1'], () => 70_000_000, 2); // undefined
 * ```
 */
export function prestartPlan(
  args: readonly string[],
  sizeOf: (file: string) => number | undefined,
  cores: number,
): PrestartPlan | undefined {
  const [command, ...rest] = args;
  if (command === undefined || !FILE_COMMANDS.has(command)) return undefined;
  let file: string | undefined;
  let jobs: string | undefined;
  const datasetFiles: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (arg === '--') {
      file ??= rest[index + 1];
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      file ??= arg;
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (!VALUE_OPTIONS.has(name)) continue;
    const value = equals > 0 ? arg.slice(equals + 1) : rest[++index];
    if (name === '--jobs') jobs = value;
    else if (name === '--datasets' && value !== undefined) datasetFiles.push(value);
  }
  if (file === undefined || file === '-') return undefined;
  const threads = jobs === undefined ? cores : Number(jobs);
  if (!Number.isInteger(threads) || threads < 2) return undefined;
  const size = sizeOf(file);
  const least = jobs === undefined ? PRESTART_BYTES : PRESTART_BYTES_WITH_JOBS;
  return size !== undefined && size >= least ? { kind: command, datasetFiles } : undefined;
}

/** A regular file's size; undefined for anything else, or a path that cannot be read. */
function fileSize(path: string): number | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/** The worker started with the process and not yet taken, with whether it has failed or exited since. */
interface Prestarted {
  worker: Worker;
  plan: PrestartPlan;
  failed: boolean;
}

/**
 * Where the started worker is held: on the global object, as the executable (dist/cli.js, launch.ts) and the CLI it
 * loads (dist/cli-main.js) are two bundles, each with its own copy of this module.
 */
const HELD = Symbol.for('co2e-engine.prestarted-worker');
const holder = globalThis as { [HELD]?: Prestarted | undefined };

/** Takes the held worker, if any, so that it is taken once. */
function release(): Prestarted | undefined {
  const held = holder[HELD];
  holder[HELD] = undefined;
  return held;
}

/**
 * Starts the worker {@link prestartPlan} gives for `args`, if any (then true): the executable (launch.ts) calls this
 * before it loads the CLI.
 *
 * @example
 * ```ts
 * prestartWorker(process.argv.slice(2));
 * ```
 */
export function prestartWorker(
  args: readonly string[],
  sizeOf: (file: string) => number | undefined = fileSize,
  cores: number = availableParallelism(),
): boolean {
  const plan = prestartPlan(args, sizeOf, cores);
  if (plan === undefined) return false;
  const entry = workerEntry();
  // pool.ts's WorkerSetup without its context, which the run sends once its pool takes the worker.
  const setup = { kind: plan.kind, datasetFiles: plan.datasetFiles };
  const worker = new Worker(entry.script, { workerData: setup, eval: entry.eval });
  worker.unref();
  const held: Prestarted = { worker, plan, failed: false };
  const fail = () => (held.failed = true);
  worker.on('error', fail);
  worker.on('exit', fail);
  holder[HELD] = held;
  return true;
}

/**
 * The worker started with the process, for a pool of `kind` over `datasetFiles`: taken once, and only when it was
 * started for the same kind and files and has not failed; otherwise it is terminated and undefined is returned (the
 * pool starts its own).
 *
 * @example
 * ```ts
 * const worker = takePrestarted('spend', []) ?? new Worker(script, { workerData: setup });
 * ```
 */
export function takePrestarted(kind: string, datasetFiles: readonly string[]): Worker | undefined {
  const held = release();
  if (held === undefined) return undefined;
  const same =
    held.plan.kind === kind &&
    held.plan.datasetFiles.length === datasetFiles.length &&
    held.plan.datasetFiles.every((file, index) => file === datasetFiles[index]);
  if (held.failed || !same) {
    void held.worker.terminate();
    return undefined;
  }
  held.worker.ref();
  return held.worker;
}

/**
 * Terminates the worker started with the process, if no pool took it: for a run that computes in its main thread
 * alone.
 *
 * @example
 * ```ts
 * discardPrestarted();
 * ```
 */
export function discardPrestarted(): void {
  void release()?.worker.terminate();
}
