import { stat } from 'node:fs/promises';
import { UsageError } from '../io';

/** The errno code of a file-system error (`ENOENT`), else its message. */
export const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error as Error).message;

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
