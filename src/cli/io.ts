/** Where the CLI reads and writes; `process` in the real binary, buffers in tests. */
export interface CliIo {
  /** Read for the file name `-`. */
  stdin: AsyncIterable<Uint8Array | string>;
  /** Results when there is no `--out`. */
  stdout: NodeJS.WritableStream;
  /** Summary, progress, messages. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Aborting stops `serve`, or a file run after the current row (exit code 130). */
  signal?: AbortSignal;
}

/** Exit codes. */
export const EXIT = { ok: 0, rowsFailed: 1, usage: 2, interrupted: 130 } as const;

/** A problem with how the CLI was called (arguments, files that cannot be read or written): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
