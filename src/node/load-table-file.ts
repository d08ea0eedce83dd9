import { extname } from 'node:path';
import { DatasetError } from '../datasets/errors';
import { parseTableCsv } from '../loaders/parse-table-csv';
import { parseTableJson } from '../loaders/parse-table-json';
import type { TableKind, TableMeta, TableOf } from '../loaders/table-kinds';
import { jsonSyntaxErrorOffset } from '../loaders/json-locate';
import { failAt, positionOfOffset } from '../loaders/text';
import { readText, statOf } from './files';

/** Options of {@link loadTableFile}. */
export interface LoadTableFileOptions<K extends TableKind> {
  /** For a CSV file: its table-wide fields. Default: read from `<name>.meta.json` beside the CSV. */
  meta?: TableMeta<K>;
}

/** The meta file of a CSV table: `fx.csv` → `fx.meta.json`. */
const metaPathOf = (csvPath: string) =>
  `${csvPath.slice(0, csvPath.length - extname(csvPath).length)}.meta.json`;

function readMeta(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = jsonSyntaxErrorOffset(text) ?? /position (\d+)/.exec(message)?.[1];
    return failAt(
      path,
      offset === undefined ? { line: 1 } : positionOfOffset(text, Number(offset)),
      `not valid JSON: ${message}`,
    );
  }
}

/**
 * Loads a table file of a kind: `.json` in the table's JSON format, or `.csv` with the kind's columns and its
 * table-wide fields in `options.meta` or in `<name>.meta.json` beside it. See `parseTableCsv` and `parseTableJson`
 * in `co2e-engine/loaders` for the formats.
 *
 * @example
 * ```ts
 * import { createTableDatasets } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * import { loadTableFile } from 'co2e-engine/node';
 * const fx = loadTableFile('fx', 'data/fx.csv'); // with data/fx.meta.json beside it
 * const datasets = { ...defaultDatasets, ...createTableDatasets({ fx }) };
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a missing file or meta file, an unknown extension, and
 *   everything the parsers refuse.
 */
export function loadTableFile<K extends TableKind>(
  kind: K,
  path: string,
  options: LoadTableFileOptions<K> = {},
): TableOf<K> {
  if (!statOf(path)?.isFile()) throw new DatasetError(path, '', 'no such file');
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return parseTableJson(kind, readText(path), { file: path });
  if (extension !== '.csv')
    throw new DatasetError(
      path,
      '',
      `unknown file type ${JSON.stringify(extension)}; a table file is .csv or .json`,
    );
  if (options.meta !== undefined)
    return parseTableCsv(kind, readText(path), { file: path, meta: options.meta });
  const metaPath = metaPathOf(path);
  if (!statOf(metaPath)?.isFile()) {
    throw new DatasetError(
      path,
      '',
      `a CSV table needs its table-wide fields (dataset, ...): pass { meta } or write them to ${metaPath}`,
    );
  }
  return parseTableCsv(kind, readText(path), {
    file: path,
    meta: readMeta(metaPath) as TableMeta<K>,
    metaFile: metaPath,
  });
}
