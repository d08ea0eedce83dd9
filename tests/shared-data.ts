import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * `shared/data` beside the repository: the source files the dataset scripts read. CI always has it; a clone elsewhere
 * may not; `CO2E_SHARED_DATA` overrides the folder, as for the dataset scripts. Tests that compare with the sources
 * skip without it, except in CI, where its absence fails loudly.
 */
export const SHARED_DATA = resolve(
  process.env['CO2E_SHARED_DATA'] ?? resolve(__dirname, '../../shared/data'),
);
export const skipWithoutSharedData = !existsSync(SHARED_DATA) && !process.env['CI'];

/** A source file's text ('' when the tests that need it are skipped). */
export const readSharedData = (path: string): string =>
  skipWithoutSharedData ? '' : readFileSync(resolve(SHARED_DATA, path), 'utf8');
