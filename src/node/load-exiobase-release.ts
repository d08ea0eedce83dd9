import { join } from 'node:path';
import { DatasetError } from '../datasets/errors';
import {
  type ExiobaseRelease,
  type ExiobaseReleaseInput,
  parseExiobaseRelease,
} from '../loaders/parse-exiobase-release';
import { decodeUtf8, readText, statOf } from './files';
import { readZip } from './zip';

/** Options of {@link loadExiobaseRelease}: everything {@link parseExiobaseRelease} takes but the file texts. */
export type LoadExiobaseReleaseOptions = Omit<ExiobaseReleaseInput, 'multipliers' | 'output' | 'files'>;

const MULTIPLIERS = 'impacts/M.txt';
const OUTPUT = 'x.txt';

/** Refuses a folder or zip named for another year or for the industry-by-industry tables. */
function checkName(name: string, year: number): void {
  const match = /IOT_(\d{4})_(pxp|ixi)/.exec(name);
  if (match === null) return;
  if (match[2] === 'ixi') {
    throw new DatasetError(
      name,
      '',
      'this is the industry-by-industry release (ixi); spend factors per product need the product-by-product release, IOT_<year>_pxp',
    );
  }
  if (Number(match[1]) !== year)
    throw new DatasetError(name, '', `this is the ${match[1]} release, but year ${year} was asked for`);
}

function fromZip(path: string, year: number) {
  let chosen: { prefix: string } | undefined;
  const files = readZip(path, (entries) => {
    const names = new Set(entries.map((entry) => entry.name));
    const prefixes = entries
      .filter((entry) => entry.name === MULTIPLIERS || entry.name.endsWith(`/${MULTIPLIERS}`))
      .map((entry) => entry.name.slice(0, entry.name.length - MULTIPLIERS.length))
      .filter((prefix) => names.has(`${prefix}${OUTPUT}`));
    const forYear =
      prefixes.length > 1 ? prefixes.filter((prefix) => prefix.includes(`IOT_${year}_pxp`)) : prefixes;
    if (forYear.length !== 1) {
      throw new DatasetError(
        path,
        '',
        forYear.length === 0
          ? `no ${MULTIPLIERS} with an ${OUTPUT} beside it in the zip${prefixes.length > 0 ? ` for IOT_${year}_pxp (it has ${prefixes.join(', ')})` : ''}`
          : `several releases in the zip: ${forYear.join(', ')}`,
      );
    }
    chosen = { prefix: forYear[0] as string };
    return entries.filter(
      (entry) =>
        entry.name === `${chosen?.prefix}${MULTIPLIERS}` || entry.name === `${chosen?.prefix}${OUTPUT}`,
    );
  });
  const prefix = chosen?.prefix ?? '';
  checkName(prefix, year);
  const label = (name: string) => `${path}:${prefix}${name}`;
  return {
    multipliers: decodeUtf8(files.get(`${prefix}${MULTIPLIERS}`) as Uint8Array, label(MULTIPLIERS)),
    output: decodeUtf8(files.get(`${prefix}${OUTPUT}`) as Uint8Array, label(OUTPUT)),
    files: { multipliers: label(MULTIPLIERS), output: label(OUTPUT) },
  };
}

function fromFolder(folder: string) {
  const files = { multipliers: join(folder, MULTIPLIERS), output: join(folder, OUTPUT) };
  return { multipliers: readText(files.multipliers), output: readText(files.output), files };
}

/**
 * Loads spend factors for every region × product of an EXIOBASE 3 product-by-product release, from its folder
 * (`IOT_2022_pxp/` with `impacts/M.txt` and `x.txt`), its zip as downloaded (`IOT_2022_pxp.zip`; only the two
 * files are read from it), or a folder that holds either for the year. See {@link parseExiobaseRelease}.
 *
 * @example
 * ```ts
 * import { loadExiobaseRelease } from 'co2e-engine/node';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const release = loadExiobaseRelease('downloads/IOT_2022_pxp.zip', {
 *   year: 2022, version: '3.8.2', products: defaultTables.classifications.products,
 * });
 * ```
 * @throws {@link DatasetError} for a missing path or file, a zip without the files, a folder named for another year or
 *   for the ixi tables, and everything {@link parseExiobaseRelease} refuses.
 */
export function loadExiobaseRelease(path: string, options: LoadExiobaseReleaseOptions): ExiobaseRelease {
  const stat = statOf(path);
  if (stat === undefined) throw new DatasetError(path, '', 'no such file or folder');
  let texts: Pick<ExiobaseReleaseInput, 'multipliers' | 'output' | 'files'>;
  if (stat.isFile()) {
    checkName(path, options.year);
    texts = fromZip(path, options.year);
  } else if (statOf(join(path, MULTIPLIERS))?.isFile()) {
    checkName(path, options.year);
    texts = fromFolder(path);
  } else {
    const folder = join(path, `IOT_${options.year}_pxp`);
    const zip = `${folder}.zip`;
    if (statOf(join(folder, MULTIPLIERS))?.isFile()) texts = fromFolder(folder);
    else if (statOf(zip)?.isFile()) texts = fromZip(zip, options.year);
    else
      throw new DatasetError(
        path,
        '',
        `no ${MULTIPLIERS} in the folder, and no IOT_${options.year}_pxp folder or zip in it`,
      );
  }
  return parseExiobaseRelease({ ...options, ...texts });
}
