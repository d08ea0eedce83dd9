import { DatasetError } from '../../datasets/errors';
import { defaultDatasets } from '../../datasets/index';
import { loadDatasetsFile } from '../../node/load-datasets-file';
import { UsageError } from '../io';

/**
 * The datasets of a run: the embedded defaults with each `--datasets` file merged over them in order (a later file
 * wins per key, as in `mergeDatasets`). The CLI's worker threads call this with the same files.
 *
 * @example
 * ```ts
 * const datasets = cliDatasets(['my-data.json']);
 * ```
 * @throws {UsageError} with the file, where in it and what is wrong, for a file that cannot be loaded.
 */
export function cliDatasets(files: readonly string[]): typeof defaultDatasets {
  let datasets = defaultDatasets;
  for (const file of files) {
    try {
      datasets = loadDatasetsFile(file, datasets);
    } catch (error) {
      if (error instanceof DatasetError) throw new UsageError(`--datasets ${error.message}`);
      throw error;
    }
  }
  return datasets;
}
