import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatasetError } from '../../datasets/errors';
import { defaultDatasets } from '../../embedded/index';
import { isDatasetPresetName } from '../../embedded/presets';
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
 * @throws {@link UsageError} with the file, where in it and what is wrong, for a file that cannot be loaded.
 */
export function cliDatasets(files: readonly string[]): typeof defaultDatasets {
  try {
    return loadDatasets(files, defaultDatasets);
  } catch (error) {
    if (error instanceof DatasetError) throw new UsageError(`--datasets ${error.message}`);
    throw error;
  }
}

/**
 * The `--datasets` list as `--resume` compares it: presets by name, files by absolute path and content digest (a
 * file edited in place is another dataset), in order; `none` for the embedded defaults alone.
 *
 * @example
 * ```ts
 * describeDatasets(['hosted-api-2021', 'my-data.json']); // 'hosted-api-2021, /work/my-data.json (sha256 3f2a…)'
 * ```
 */
export function describeDatasets(specs: readonly string[]): string {
  if (specs.length === 0) return 'none';
  return specs
    .map((spec) => {
      if (isDatasetPresetName(spec)) return spec;
      let digest = 'unreadable';
      try {
        digest = createHash('sha256').update(readFileSync(spec)).digest('hex');
      } catch {
        // the run itself reports an unreadable file
      }
      return `${resolve(spec)} (sha256 ${digest})`;
    })
    .join(', ');
}
