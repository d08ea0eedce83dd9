import { createReadStream } from 'node:fs';
import { type Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { stat } from 'node:fs/promises';
import { UsageError } from '../io';

/** zlib's codes for a gzip input that is not whole, in words. */
const GZIP_PROBLEMS: Readonly<Record<string, string>> = {
  Z_BUF_ERROR: 'not a valid gzip file: it is truncated (an incomplete download?)',
  Z_DATA_ERROR: 'not a valid gzip file: its compressed data is corrupt',
};

/** The errno code of a file-system error (`ENOENT`) or a gzip problem in words, else its message. */
export const errorCode = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  return (code !== undefined && GZIP_PROBLEMS[code]) || (code ?? (error as Error).message);
};

/**
 * A file's bytes, gunzipped when its name ends in `.gz`. A read or gzip error reaches whoever reads the stream (and
 * is not an unhandled 'error' event when the reader stops early, as a header check does).
 *
 * @example
 * ```ts
 * for await (const chunk of fileBytes('bill.csv.gz')) process.stdout.write(chunk);
 * ```
 */
export function fileBytes(file: string, highWaterMark = 64 * 1024): Readable {
  const stream = createReadStream(file, { highWaterMark });
  if (!file.toLowerCase().endsWith('.gz')) return stream;
  return pipeline(stream, createGunzip(), () => undefined);
}

/**
 * The size of an input file in bytes, or a usage error when it is not a readable regular file.
 *
 * @example
 * ```ts
 * const bytes = await inputFileSize('ledger.csv'); // for the progress bar
 * ```
 */
export async function inputFileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file} is not a file.`);
    return info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
}

/**
 * Text or bytes to a stream (stdout), honouring backpressure; a stream error fails the next write.
 *
 * @example
 * ```ts
 * const write = streamWriter(process.stdout);
 * await write('co2e\n');
 * ```
 */
export function streamWriter(stream: NodeJS.WritableStream): (chunk: string | Uint8Array) => Promise<void> {
  let failure: Error | undefined;
  stream.on('error', (error: Error) => {
    failure ??= error;
  });
  return async (chunk) => {
    if (failure !== undefined) throw failure;
    if (chunk.length === 0 || stream.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('error', fail);
        resolve();
      };
      const fail = (error: Error) => {
        stream.off('drain', done);
        reject(error);
      };
      stream.once('drain', done);
      stream.once('error', fail);
    });
  };
}
