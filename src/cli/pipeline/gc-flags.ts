import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

/**
 * The V8 garbage-collection flags a file run sets for itself. V8's flags are process-wide, so they are set in the
 * main thread before any worker starts, and a worker's isolate has them too. A flag the user gave node (on the
 * command line or in `NODE_OPTIONS`) is theirs: the run does not override it.
 */

/**
 * Old-space growth of the V8 heap after each full collection, in percent, for a run computing on one thread (V8 picks
 * up to 300 % when it allocates fast, as a file run does). A run's live heap is flat (datasets, caches, the chunks
 * under way), but with V8's own growth the garbage it lets pile up between full collections grows with the run's
 * length: a FOCUS bill's peak RSS at `--jobs 1` grows 1.5× from 100k to 1M rows. At 50 % it stays within 1.1×
 * (bench/cli.md), for 2–10 % of the speed.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * V8's own heap growth (`--heap-growing-percent=0`), for a run whose computing threads fill the cores. A full
 * collection then has no idle core for its concurrent marking and costs the computing threads more, and fewer of
 * them pay: a varied 1M-row spend ledger ran 4 % faster at `--jobs 2` on two cores (103.5k against 99.4k rows/s,
 * medians of 5), and peak RSS stays within 1.2× from 100k to 1M rows (spend 297 → 343 MB, FOCUS bill 217 → 253 MB).
 */
const V8_HEAP_GROWTH = 0;

/**
 * Flags that, given to node, already decide how young-generation collections run (V8's `--single-threaded-gc`
 * implies `--no-parallel-scavenge`).
 */
const SCAVENGE_CHOSEN = /parallel[-_]scavenge|single[-_]threaded[-_]gc/;

/**
 * V8 allocates objects straight into the old generation from an allocation site (a line of code that makes objects)
 * once nearly all that site's objects have survived a young-generation collection. A run's warm-up trips it: a slice of
 * parsed CSV records stays alive while its first rows are computed slowly (cold code, empty caches, a small young
 * generation), so csv-parse's field strings and record arrays are judged long-lived and, for the rest of the run, every
 * parsed record goes to the old generation and dies there (measured: the decision held to the end of a 1M-row run). The
 * run turns pretenuring off: a varied 1M-row spend ledger then promotes 0.43 GB rather than 1.04 GB, needs 17 full
 * collections rather than 34, and runs at `--jobs 1` in 16.9 s of CPU rather than 20.3 s (bench/cli.md).
 */
const PRETENURING = '--no-allocation-site-pretenuring';

/**
 * The flags a file run should set: no allocation-site pretenuring always; heap growth bounded, until the computing
 * threads occupy every core; then V8's own heap growth and young-generation collection on the collecting thread alone
 * (`--no-parallel-scavenge`), each thread then collecting its own garbage without parallel helper threads, which would
 * only take the cores from the other computing threads: `--jobs 2` on two cores ran a varied 1M-row spend ledger 11 %
 * faster (88.0k against 79.5k rows/s) and a 1M-row FOCUS bill 6 % faster, for less CPU (bench/cli.md). With a core to
 * spare, the helpers use it, so parallel collection stays.
 *
 * @example
 * ```ts
 * gcFlags({ threads: 1, cores: 2, chosen: '' });
 * // ['--heap-growing-percent=50', '--no-allocation-site-pretenuring']
 * gcFlags({ threads: 2, cores: 2, chosen: '' });
 * // ['--heap-growing-percent=0', '--no-allocation-site-pretenuring', '--no-parallel-scavenge']
 * gcFlags({ threads: 2, cores: 2, chosen: '--heap-growing-percent=0 --allocation-site-pretenuring' });
 * // ['--no-parallel-scavenge']
 * ```
 */
export function gcFlags({
  threads,
  cores,
  chosen,
}: {
  /** Threads computing rows: the main thread and its workers. */
  threads: number;
  /** The cores this process may use (`os.availableParallelism()`). */
  cores: number;
  /** The node flags the user gave, joined (`process.execArgv` and `NODE_OPTIONS`). */
  chosen: string;
}): string[] {
  const flags: string[] = [];
  const fillCores = threads > 1 && threads >= cores;
  if (!/heap[-_]growing[-_]percent/.test(chosen))
    flags.push(`--heap-growing-percent=${fillCores ? V8_HEAP_GROWTH : HEAP_GROWING_PERCENT}`);
  if (!/allocation[-_]site[-_]pretenuring/.test(chosen)) flags.push(PRETENURING);
  if (fillCores && !SCAVENGE_CHOSEN.test(chosen)) flags.push('--no-parallel-scavenge');
  return flags;
}

/** The node flags this process was started with, for {@link gcFlags}' `chosen`. */
export const chosenNodeFlags = (): string => [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');

/**
 * Sets {@link gcFlags} in V8 for `threads` computing threads on this machine's cores. `--no-parallel-scavenge` is
 * read at every young-generation collection, so it takes effect mid-run; V8's `--single-threaded-gc` cannot be set
 * this way (set at run time, it aborts V8 at the next full collection).
 *
 * @example
 * ```ts
 * applyGcFlags(1); // at the start of a run
 * applyGcFlags(jobs); // just before its workers start
 * ```
 */
export function applyGcFlags(threads: number): void {
  const flags = gcFlags({ threads, cores: availableParallelism(), chosen: chosenNodeFlags() });
  for (const flag of flags) setFlagsFromString(flag);
}
