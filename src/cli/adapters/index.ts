import type { CloudDatasets, SpendDatasets } from '../../datasets/types';
import type { RowAdapter } from '../pipeline/row-adapter';
import { billingRows } from './billing';
import { cloudRows } from './cloud';
import { spendRows } from './spend';

/** The datasets every file command has: the embedded defaults, with `--datasets` files merged over them. */
export type CliDatasets = SpendDatasets & CloudDatasets;

/**
 * The row adapters by name (one per file command), for the worker threads: a worker is told an adapter's name
 * and the `--datasets` files, and builds the same adapter itself. A new kind of row adds its entry here.
 */
export const ROW_ADAPTERS = {
  spend: spendRows,
  cloud: cloudRows,
  billing: (datasets: CliDatasets) => billingRows(datasets),
} as const satisfies Readonly<Record<string, (datasets: CliDatasets) => RowAdapter>>;

export type RowAdapterName = keyof typeof ROW_ADAPTERS;

/**
 * The adapter named `name`, over `datasets`.
 *
 * @throws {@link Error} for a name not in {@link ROW_ADAPTERS} (a programming error: names come from the CLI itself).
 *
 * @example
 * ```ts
 * const rows = rowAdapter('spend', defaultDatasets);
 * ```
 */
export function rowAdapter(name: string, datasets: CliDatasets): RowAdapter {
  if (!Object.hasOwn(ROW_ADAPTERS, name)) throw new Error(`no row adapter '${name}'`);
  return ROW_ADAPTERS[name as RowAdapterName](datasets);
}
