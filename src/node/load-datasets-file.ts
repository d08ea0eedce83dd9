import { DatasetError } from '../datasets/errors';
import type { Datasets } from '../datasets/types';
import { parseDatasetsFile } from '../loaders/parse-datasets-file';
import { readText, statOf } from './files';

/**
 * Loads a dataset file written by `co2e-engine datasets build` (for example a full EXIOBASE release with your
 * margins) and merges it over `base` with `mergeDatasets`' precedence: the file's records win per key, everything
 * it lacks comes from `base`. The same file the CLI takes as `--datasets`.
 *
 * @example
 * ```ts
 * import { calculateSpend } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * import { loadDatasetsFile } from 'co2e-engine/node';
 * const datasets = loadDatasetsFile('my-data.json', defaultDatasets);
 * const { estimate } = calculateSpend(request, datasets);
 * ```
 * @throws {@link DatasetError} naming the file and where in it: a missing file, invalid JSON, an invalid table, or
 *   table-wide settings (currency, factor year, GWP basis, ...) that differ from the base's.
 */
export function loadDatasetsFile<B extends Datasets>(path: string, base: B): B {
  if (!statOf(path)?.isFile()) throw new DatasetError(path, '', 'no such file');
  return parseDatasetsFile(readText(path), base, { file: path });
}
