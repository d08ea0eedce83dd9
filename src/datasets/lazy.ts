import { buildTableDatasets, type DatasetTables } from './create';
import type { Datasets } from './types';

/**
 * Datasets whose parts are indexed on first use, so importing the embedded defaults costs no indexing and a cloud
 * estimate never pays for the spend tables' indexes. Each part is built once; `{ ...datasets }` builds them all.
 */
export function lazyTableDatasets(tables: DatasetTables): Datasets {
  const datasets: Datasets = {};
  for (const part of Object.keys(tables) as Array<keyof DatasetTables>) {
    let built: Datasets[typeof part];
    Object.defineProperty(datasets, part, {
      enumerable: true,
      get: () => (built ??= buildTableDatasets({ [part]: tables[part] })[part]),
    });
  }
  return datasets;
}
