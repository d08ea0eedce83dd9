import { setFlagsFromString } from 'node:v8';

/**
 * The one runtime setting a file run makes. V8 lets a heap grow by several times after a full collection when a
 * program allocates fast, as a file run does, so the garbage that piles up between collections grows with the file's
 * length; bounded growth keeps a run's peak memory flat however long the file is (the figures: bench/cli.md,
 * "Runtime setting"). It is a memory bound, not a speed tuning: no flag is set because it measured faster here.
 */

/** Old-space growth after each full collection, in percent (see the module comment). */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The V8 flags a run sets, given the node flags the user chose (`process.execArgv` and `NODE_OPTIONS`, joined): none
 * the user set already, in either spelling.
 *
 * @example
 * ```ts
 * runtimeFlags(''); // ['--heap-growing-percent=50']
 * runtimeFlags('--heap_growing_percent=20'); // []
 * ```
 */
export function runtimeFlags(chosen: string): string[] {
  return /heap[-_]growing[-_]percent/.test(chosen) ? [] : [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
}

/**
 * Sets {@link runtimeFlags} in V8, once at the start of a run: V8's flags are process-wide, so worker threads
 * started later have them too.
 *
 * @example
 * ```ts
 * tuneRuntime();
 * ```
 */
export function tuneRuntime(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  for (const flag of runtimeFlags(chosen)) setFlagsFromString(flag);
}
