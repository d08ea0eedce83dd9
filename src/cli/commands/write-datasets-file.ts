import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DatasetsFile } from '../../loaders/parse-datasets-file';
import { type CliIo, EXIT } from '../io';

/**
 * Writes a built datasets file whole or not at all (a partial beside it, renamed when complete), as `datasets build`
 * does for every source, and says where.
 *
 * @example
 * ```ts
 * return writeDatasetsFile('my-datasets.json', { format: DATASETS_FILE_FORMAT, layers }, io); // EXIT.ok
 * ```
 */
export function writeDatasetsFile(out: string, file: DatasetsFile, io: CliIo): number {
  const partial = join(dirname(out), `.${basename(out)}.co2e-partial`);
  try {
    writeFileSync(partial, `${JSON.stringify(file)}\n`);
    renameSync(partial, out);
  } finally {
    rmSync(partial, { force: true });
  }
  io.stderr.write(`wrote ${out}\n`);
  return EXIT.ok;
}
