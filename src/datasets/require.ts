import { DatasetError } from './errors';
import type { Datasets } from './types';

/**
 * Checks that `datasets` has the parts a calculator reads, so a missing part is a clear error rather than a
 * TypeError deep inside a calculation.
 *
 * @throws {DatasetError} naming the missing parts and who needs them.
 */
export function requireParts(datasets: Datasets, parts: ReadonlyArray<keyof Datasets>, who: string): void {
  if (typeof datasets !== 'object' || datasets === null) {
    throw new DatasetError('datasets', '', `${who} need a datasets object with ${parts.join(', ')}`);
  }
  for (const part of parts) {
    if (datasets[part] === undefined) {
      const missing = parts.filter((candidate) => datasets[candidate] === undefined);
      throw new DatasetError('datasets', missing.join(', '), `missing; ${who} need ${parts.join(', ')}`);
    }
  }
}
