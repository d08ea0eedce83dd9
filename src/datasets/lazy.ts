import { deepFreeze } from '../core/freeze';
import { buildTableDatasets, type DatasetTables } from './create';
import type { Datasets } from './types';

/** Builds a part from its own provider, e.g. by merging a supplement in (kept out of here so cloud bundles skip it). */
export type PartBuilder = <K extends keyof Datasets>(part: K, own: Datasets) => Datasets[K];

/**
 * Datasets whose parts are indexed on first use, so importing the embedded defaults costs no indexing and a cloud
 * estimate never pays for the spend tables' indexes. Each part is built once; `{ ...datasets }` builds them all.
 * `finish`, where given, builds each part from the datasets of its own table (see `spendSupplements`).
 */
export function lazyTableDatasets(tables: DatasetTables, finish?: PartBuilder): Datasets {
  const datasets: Datasets = {};
  for (const part of Object.keys(tables) as Array<keyof DatasetTables>) {
    const build = () => {
      const own = buildTableDatasets({ [part]: tables[part] });
      return deepFreeze(finish === undefined ? own[part] : finish(part, own));
    };
    let built: Datasets[typeof part];
    Object.defineProperty(datasets, part, {
      enumerable: true,
      get: () => (built ??= build()),
    });
  }
  return Object.freeze(datasets);
}
