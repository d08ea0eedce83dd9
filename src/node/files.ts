import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { DatasetError } from '../datasets/errors';
import { failAt, positionOfOffset } from '../loaders/text';

/** File access shared by the Node loaders. */

/** The error for a file that cannot be read, with the system's reason. */
const cannotRead = (path: string, error: unknown): DatasetError =>
  new DatasetError(
    path,
    '',
    `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
  );

/** The file's or folder's stats, or undefined when there is nothing at the path. */
export function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What `access` gives; a file that cannot be read (missing, a folder, no permission) is a {@link DatasetError}. */
function accessing<T>(path: string, access: () => T): T {
  try {
    return access();
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** A UTF-8 text file. @throws {@link DatasetError} when it cannot be read or is not UTF-8 (naming the first bad byte). */
export function readText(path: string): string {
  const bytes = accessing(path, () => readFileSync(path));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return notUtf8(bytes, path);
  }
}

/** Throws for bytes that are not UTF-8, at the line and column of the first byte that is not. */
function notUtf8(bytes: Buffer, path: string): never {
  const lossy = bytes.toString('utf8');
  // Every character before the first replacement character decoded from valid bytes, so re-encodes to them.
  for (let index = lossy.indexOf('\uFFFD'); index !== -1; index = lossy.indexOf('\uFFFD', index + 1)) {
    const offset = Buffer.byteLength(lossy.slice(0, index));
    // A replacement character the file itself holds (EF BF BD) is text.
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue;
    const byte = (bytes[offset] ?? 0).toString(16).padStart(2, '0');
    failAt(
      path,
      positionOfOffset(lossy, index),
      `not UTF-8 text (byte 0x${byte} at offset ${offset}); save the file as UTF-8`,
    );
  }
  throw new DatasetError(path, '', 'not UTF-8 text; save the file as UTF-8');
}

/** UTF-8 bytes as text, refusing bytes that are not UTF-8 rather than replacing them. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DatasetError(file, '', 'not UTF-8 text');
  }
}

/** Longest line {@link linesOfChunks} accepts, in characters. */
const MAX_LINE_CHARS = 16 << 20;

/**
 * Splits a stream of UTF-8 byte chunks into lines (LF or CRLF), refusing bytes that are not UTF-8 and lines longer
 * than 16 Mi characters.
 *
 * @example
 * ```ts
 * for (const line of linesOfChunks([bytes], 'table.csv')) console.log(line);
 * ```
 */
export function* linesOfChunks(chunks: Iterable<Uint8Array>, file: string): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new DatasetError(file, '', 'not UTF-8 text');
    }
  };
  for (const chunk of chunks) {
    const lines = (rest + decode(chunk)).split('\n');
    rest = lines.pop() ?? '';
    // A table row is at most a few hundred KB (9,800 EXIOBASE columns); an endless line (a streamed zip bomb of
    // zeros, a binary file) is refused before it fills memory.
    if (rest.length > MAX_LINE_CHARS)
      throw new DatasetError(
        file,
        '',
        `too large: a line longer than ${MAX_LINE_CHARS / (1 << 20)} MiB (a zip bomb, or not a text table?)`,
      );
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  rest += decode();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

/**
 * The lines of a text file, read in chunks: EXIOBASE supply-use tables are larger than a JavaScript string may be.
 *
 * @throws {@link DatasetError} when the file cannot be read or is not UTF-8.
 */
export function* fileLines(path: string, chunkSize = 4 << 20): Generator<string> {
  const fd = accessing(path, () => openSync(path, 'r'));
  try {
    yield* linesOfChunks(
      (function* () {
        const buffer = new Uint8Array(chunkSize);
        for (;;) {
          const bytes = readSync(fd, buffer, 0, chunkSize, null);
          if (bytes === 0) return;
          yield buffer.slice(0, bytes);
        }
      })(),
      path,
    );
  } finally {
    closeSync(fd);
  }
}
