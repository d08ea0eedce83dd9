import { createTableDatasets, type DatasetTables } from '../datasets/create';
import { DatasetError } from '../datasets/errors';
import { mergeDatasets } from '../datasets/merge';
import type { Datasets } from '../datasets/types';
import { jsonSyntaxErrorOffset } from './json-locate';
import { failAt, positionOfOffset, refuseUnderflow } from './text';

/** The `format` field of a dataset file written by `co2e-engine datasets build`. */
export const DATASETS_FILE_FORMAT = 'co2e-engine-datasets/1';

/**
 * A dataset file: table layers, merged in order over a base with `mergeDatasets` (a later layer wins per key,
 * each record keeping its own dataset's provenance). Each layer holds tables in the JSON format of
 * `createTableDatasets`.
 */
export interface DatasetsFile {
  format: typeof DATASETS_FILE_FORMAT;
  layers: DatasetTables[];
}

/**
 * Parses a dataset file (as written by `co2e-engine datasets build`) and merges its layers over `base` with
 * `mergeDatasets`' precedence: the file's records win, everything it lacks comes from `base`.
 *
 * @example
 * ```ts
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * import { parseDatasetsFile } from 'co2e-engine/loaders';
 * const text = await (await fetch('/my-data.json')).text();
 * const datasets = parseDatasetsFile(text, defaultDatasets, { file: 'my-data.json' });
 * ```
 * @throws {@link DatasetError} naming the file and where in it: invalid JSON, another format, an invalid table (its
 *   layer, kind and path), or a layer whose table-wide settings differ from the base's.
 */
export function parseDatasetsFile<B extends Datasets>(
  text: string,
  base: B,
  options: { file?: string } = {},
): B {
  const file = options.file ?? 'datasets.json';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    const offset = jsonSyntaxErrorOffset(text);
    return failAt(
      file,
      offset === undefined ? { line: 1 } : positionOfOffset(text, offset),
      `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  refuseUnderflow(text, file);
  const record = parsed as Partial<DatasetsFile> | null;
  if (record === null || typeof record !== 'object' || record.format !== DATASETS_FILE_FORMAT) {
    throw new DatasetError(
      file,
      'format',
      `not a dataset file: "format" must be ${JSON.stringify(DATASETS_FILE_FORMAT)} (write one with co2e-engine datasets build)`,
    );
  }
  if (!Array.isArray(record.layers) || record.layers.length === 0)
    throw new DatasetError(file, 'layers', 'must be a non-empty array of table layers');
  const layers = record.layers.map((layer, index) => {
    try {
      if (layer === null || typeof layer !== 'object' || Array.isArray(layer))
        throw new DatasetError('layer', '', 'must be an object of tables');
      return createTableDatasets(layer);
    } catch (error) {
      if (!(error instanceof DatasetError)) throw error;
      const where = `layers[${index}]${error.table === 'layer' ? '' : `.${error.table}`}${error.location === '' ? '' : `.${error.location}`}`;
      throw new DatasetError(file, where, error.problem);
    }
  });
  try {
    return mergeDatasets(base, ...layers);
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    throw new DatasetError(file, error.location, `${error.table}: ${error.problem}`);
  }
}
