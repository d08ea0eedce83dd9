import { buildTableDatasets, type DatasetTables } from './create';
import { mergeDatasets } from './merge';
import type { Datasets } from './types';

/**
 * Datasets whose parts are indexed on first use, so importing the embedded defaults costs no indexing and a cloud
 * estimate never pays for the spend tables' indexes. Each part is built once; `{ ...datasets }` builds them all.
 * A part that `underlays` also has is layered over it with {@link mergeDatasets} (the part's own table wins).
 */
export function lazyTableDatasets(tables: DatasetTables, underlays: DatasetTables = {}): Datasets {
  const datasets: Datasets = {};
  for (const part of Object.keys(tables) as Array<keyof DatasetTables>) {
    const build = () => {
      const own = buildTableDatasets({ [part]: tables[part] });
      if (underlays[part] === undefined) return own[part];
      return mergeDatasets(buildTableDatasets({ [part]: underlays[part] }), own)[part];
    };
    let built: Datasets[typeof part];
    Object.defineProperty(datasets, part, {
      enumerable: true,
      get: () => (built ??= build()),
    });
  }
  return datasets;
}
