import { join } from 'node:path';
import { DatasetError } from '../datasets/errors';
import {
  EXIOBASE_MARGIN_FILES,
  EXIOBASE_MARGIN_LAYERS,
  type ExiobaseMarginLayer,
  type ExiobaseMargins,
  type ExiobaseMarginsInput,
  parseExiobaseMargins,
} from '../loaders/parse-exiobase-margins';
import { fileLines, linesOfChunks, statOf } from './files';
import { zipEntries, zipEntryChunks } from './zip';

/** Options of {@link loadExiobaseMargins}: those of `parseExiobaseMargins` but the tables, plus their file names. */
export type LoadExiobaseMarginsOptions = Omit<ExiobaseMarginsInput, 'tables' | 'files'> & {
  /** File names of the four tables in the folder or zip (default `EXIOBASE_MARGIN_FILES`). */
  files?: Partial<Record<ExiobaseMarginLayer, string>>;
};

/** Refuses a folder or zip named for another year. */
function checkName(path: string, year: number): void {
  const match = /MRSUT_(\d{4})/.exec(path);
  if (match !== null && Number(match[1]) !== year)
    throw new DatasetError(path, '', `this is the ${match[1]} release, but year ${year} was asked for`);
}

/**
 * Default margins from an EXIOBASE 3 multi-regional supply-use release and its valuation layers: a folder holding
 * the four tables, or the release zip (`MRSUT_<year>.zip`, tables at its root or in one folder), read as streams
 * so that tables larger than memory allows as text still load. See `parseExiobaseMargins` for the layout and the
 * assumed file names.
 *
 * @example
 * ```ts
 * import { loadExiobaseMargins } from 'co2e-engine/node';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const { margins } = loadExiobaseMargins('MRSUT_2019.zip', {
 *   year: 2019, version: '3.8.2', products: defaultTables.classifications.products,
 * });
 * ```
 * @throws {@link DatasetError} for a missing path, a zip or folder without one of the tables, a release of another year,
 *   and everything `parseExiobaseMargins` refuses.
 */
export function loadExiobaseMargins(path: string, options: LoadExiobaseMarginsOptions): ExiobaseMargins {
  const names = { ...EXIOBASE_MARGIN_FILES, ...options.files };
  const stat = statOf(path);
  if (stat === undefined) throw new DatasetError(path, '', 'no such file or folder');
  checkName(path, options.year);
  const tables = {} as Record<ExiobaseMarginLayer, Iterable<string>>;
  const files = {} as Record<ExiobaseMarginLayer, string>;
  if (stat.isDirectory()) {
    for (const layer of EXIOBASE_MARGIN_LAYERS) {
      const file = join(path, names[layer]);
      if (!statOf(file)?.isFile())
        throw new DatasetError(path, '', `no ${names[layer]} in the folder (the ${layer} table)`);
      files[layer] = file;
      tables[layer] = { [Symbol.iterator]: () => fileLines(file) };
    }
  } else {
    const entries = zipEntries(path);
    for (const layer of EXIOBASE_MARGIN_LAYERS) {
      const found = entries.filter(
        (entry) => entry.name === names[layer] || entry.name.endsWith(`/${names[layer]}`),
      );
      if (found.length !== 1)
        throw new DatasetError(
          path,
          '',
          found.length === 0
            ? `no ${names[layer]} in the zip (the ${layer} table)`
            : `several ${names[layer]} in the zip: ${found.map((entry) => entry.name).join(', ')}`,
        );
      const entry = found[0] as (typeof found)[number];
      const label = `${path}:${entry.name}`;
      files[layer] = label;
      tables[layer] = { [Symbol.iterator]: () => linesOfChunks(zipEntryChunks(path, entry), label) };
    }
  }
  return parseExiobaseMargins({ ...options, tables, files });
}
