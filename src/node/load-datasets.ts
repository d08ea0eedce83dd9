import { closestSpellings } from '../core/spelling';
import { DatasetError } from '../datasets/errors';
import type { CloudInstanceDatasets, Datasets, SpendDatasets } from '../datasets/types';
import { embeddedDatasets } from './embedded';
import { loadDatasetsFile } from './load-datasets-file';
import { statOf } from './files';

/**
 * The datasets named by a list of presets and files, applied in order over `base` (default: the embedded
 * defaults), as the CLI's repeated `--datasets` does: a preset name (`default`, `hosted-api-2021`, `ccf-grid`,
 * `ccf-app`, `electricitymaps-grid`, `useeio`; see `DATASET_PRESETS`) replaces the parts it holds whole; a file
 * (written by `co2e-engine datasets build`) merges over what came before, a later one winning per key. A preset
 * name wins over a file of that name; write `./default` for the file.
 *
 * @example
 * ```ts
 * import { loadDatasets } from 'co2e-engine/node';
 * // The hosted API's 2021 cloud factors, with my own regions merged over them:
 * const datasets = loadDatasets(['hosted-api-2021', 'my-2021-regions.json']);
 * ```
 * @throws {@link DatasetError} naming the file and what is wrong: no such file (or preset), invalid content, or
 *   table-wide settings (currency, GWP basis, ...) that differ from those of the tables it merges over.
 */
export function loadDatasets(
  specs: readonly string[],
  base?: Datasets,
): CloudInstanceDatasets & SpendDatasets {
  // The embedded tables are loaded here, on the first call, not when `co2e-engine/node` is imported.
  const { defaultDatasets, DATASET_PRESET_NAMES, isDatasetPresetName, withDatasetPreset } =
    embeddedDatasets();
  let datasets = base ?? defaultDatasets;
  for (const spec of specs) {
    if (isDatasetPresetName(spec)) {
      datasets = withDatasetPreset(datasets, spec);
      continue;
    }
    if (!statOf(spec)?.isFile()) {
      const close = closestSpellings(DATASET_PRESET_NAMES, spec);
      throw new DatasetError(
        spec,
        '',
        `no such file, and not a preset (presets: ${DATASET_PRESET_NAMES.join(', ')})${close.length === 0 ? '' : `. Did you mean: ${close.join(', ')}?`}`,
      );
    }
    try {
      datasets = loadDatasetsFile(spec, datasets);
    } catch (error) {
      if (error instanceof DatasetError && /\bdiffers from\b/.test(error.problem))
        throw new DatasetError(
          error.table,
          error.location,
          `${error.problem}; or name a preset with the file's basis before it (hosted-api-2021 and ccf-grid are AR4, ` +
            'e.g. --datasets hosted-api-2021 --datasets <file>): a preset replaces a table whole',
        );
      throw error;
    }
  }
  return datasets as CloudInstanceDatasets & SpendDatasets;
}
