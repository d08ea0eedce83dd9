import { DatasetError } from '../../datasets/errors';
import { defaultDatasets } from '../../datasets/index';
import { loadDatasets } from '../../node/load-datasets';
import { UsageError } from '../io';

/**
 * The datasets of a run: the embedded defaults with each `--datasets` preset or file applied in order (see
 * `loadDatasets`). The CLI's worker threads call this with the same list.
 *
 * @example
 * ```ts
 * const datasets = cliDatasets(['my-data.json']);
 * ```
 * @throws {UsageError} with the file, where in it and what is wrong, for a file that cannot be loaded.
 */
export function cliDatasets(files: readonly string[]): typeof defaultDatasets {
  try {
    return loadDatasets(files, defaultDatasets);
  } catch (error) {
    if (error instanceof DatasetError) throw new UsageError(`--datasets ${error.message}`);
    throw error;
  }
}
