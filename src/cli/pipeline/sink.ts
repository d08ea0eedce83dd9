import { gzipSync } from 'node:zlib';
import { ENCODERS } from '../formats/index';
import type { ParquetColumnType } from '../formats/parquet/reader';
import { parquetWriter } from '../formats/parquet/writer';
import type { ChunkContext, ChunkResult } from './chunk';
import { recycleBuffer } from './output-buffers';
import type { RowAdapter } from './row-adapter';

/**
 * The record sinks of a file run: where computed chunks become the output's bytes, in input order. CSV and JSON Lines
 * chunks arrive encoded (a worker encodes its own), so their sink only writes them; Parquet chunks arrive as rows,
 * which its sink gathers into row groups. Each sink says whether an interrupted output can be continued.
 */

export interface RecordSink {
  /**
   * Whether a partial output can be continued with `--resume`: text, written a chunk at a time, can; Parquet cannot
   * (a file is unreadable without its footer, so an unfinished one is removed).
   */
  readonly resumes: boolean;
  /** Whether chunks may be computed on worker threads (a text sink's are bytes; Parquet's rows stay in this thread). */
  readonly workers: boolean;
  /** Writes what comes before the first row (a CSV header); not when continuing a partial output. */
  start(): Promise<void>;
  write(chunk: ChunkResult): Promise<void>;
  /** Writes what comes after the last row (a Parquet footer). */
  finish(): Promise<void>;
}

/** `bytes` compressed; a chunk's buffer is then the pool's again (output-buffers.ts). */
function gzipped(bytes: string | Uint8Array): Buffer {
  const compressed = gzipSync(bytes);
  if (typeof bytes !== 'string') recycleBuffer(bytes);
  return compressed;
}

/** Where a sink's bytes go, in order (the guarded output file, or stdout). */
export type ByteWrite = (bytes: string | Uint8Array) => Promise<void>;

/**
 * The sink for the context's output format. `gzip`: each write of a text sink becomes one gzip member; members one
 * after another are one gzip file (RFC 1952), and a resumed run truncates the partial at a member's end, so the
 * finished file is the same as an uninterrupted run's.
 *
 * @example
 * ```ts
 * const sink = recordSink(kind, context, { write: streamWriter(process.stdout), gzip: false });
 * await sink.start();
 * await sink.write(computed);
 * await sink.finish();
 * ```
 */
export function recordSink(
  kind: RowAdapter,
  context: ChunkContext,
  output: {
    write: ByteWrite;
    gzip: boolean;
    columnTypes?: (() => Readonly<Record<string, ParquetColumnType>>) | undefined;
  },
): RecordSink {
  if (context.format !== 'parquet') {
    const write: ByteWrite = output.gzip ? (bytes) => output.write(gzipped(bytes)) : output.write;
    const encoder = ENCODERS[context.format](context);
    return {
      resumes: true,
      workers: true,
      start: () => write(encoder.header),
      write: (chunk) => write(chunk.bytes),
      finish: async () => undefined,
    };
  }
  const writer = parquetWriter(
    { write: output.write, close: async () => undefined },
    () => context.columns,
    output.columnTypes,
    undefined,
    kind.resultColumns === undefined
      ? undefined
      : { columns: kind.resultColumns, types: kind.resultTypes ?? {} },
  );
  return {
    resumes: false,
    workers: false,
    start: async () => undefined,
    async write(chunk) {
      for (const row of chunk.rows ?? []) await writer.write(row.input, row.result);
    },
    finish: () => writer.close(),
  };
}
