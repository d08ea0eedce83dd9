import { readFileSync, statSync, type Stats } from 'node:fs';
import { DatasetError } from '../datasets/errors';

/** File access shared by the Node loaders. */

/** The file's or folder's stats, or undefined when there is nothing at the path. */
export function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A UTF-8 text file. @throws {DatasetError} when it cannot be read. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new DatasetError(
      path,
      '',
      `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** UTF-8 bytes as text, refusing bytes that are not UTF-8 rather than replacing them. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DatasetError(file, '', 'not UTF-8 text');
  }
}
