import { DatasetError } from '../datasets/errors';
import type { MarginsTable } from '../datasets/tables';
import { parseMarginsCsv, type ParseMarginsCsvOptions } from '../loaders/parse-margins-csv';
import { readText, statOf } from './files';

/** Options of {@link loadMarginsCsv}: those of `parseMarginsCsv` but the file name, which is the path. */
export type LoadMarginsCsvOptions = Omit<ParseMarginsCsvOptions, 'file'>;

/**
 * Reads a plain margins CSV (`region`, `product` or `classification` + `code`, `tax`, `trade`, `transport`) into a
 * `margins` table; see `parseMarginsCsv` in `co2e-engine/loaders` for the format and its bounds.
 *
 * @example
 * ```ts
 * import { createTableDatasets, mergeDatasets } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * import { loadMarginsCsv } from 'co2e-engine/node';
 * const margins = loadMarginsCsv('data/margins.csv', {
 *   dataset: { id: 'our-margins', version: '2024', source: 'Us', source_dataset: 'Our margins',
 *     licence: 'internal', attribution: 'Us' },
 * });
 * const datasets = mergeDatasets(defaultDatasets, createTableDatasets({ margins }));
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a missing file and everything the parser refuses.
 */
export function loadMarginsCsv(path: string, options: LoadMarginsCsvOptions): MarginsTable {
  if (!statOf(path)?.isFile()) throw new DatasetError(path, '', 'no such file');
  return parseMarginsCsv(readText(path), { ...options, file: path });
}
