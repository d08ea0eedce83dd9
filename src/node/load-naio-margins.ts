import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DatasetError } from '../datasets/errors';
import {
  type NaioMargins,
  parseNaioMargins,
  type ParseNaioMarginsOptions,
} from '../loaders/parse-naio-margins';
import { decodeUtf8, statOf } from './files';
import { inflateCap, tooLargeMessage } from './inflate-limits';

/** Options of {@link loadNaioMargins}: those of `parseNaioMargins` but the file name, which is the path. */
export type LoadNaioMarginsOptions = Omit<ParseNaioMarginsOptions, 'file'>;

/**
 * The text of a file as Eurostat serves it: plain, or gzip-compressed (`.tsv.gz` from the API with
 * `compressed=true`), told apart by the gzip magic bytes rather than the name.
 *
 * @example
 * ```ts
 * detectMarginsFormat(readEurostatText('naio_10_cp15.tsv.gz')); // 'naio-tsv'
 * ```
 * @throws {@link DatasetError} for a missing file, a broken gzip stream or bytes that are not UTF-8.
 */
export function readEurostatText(path: string): string {
  if (!statOf(path)?.isFile()) throw new DatasetError(path, '', 'no such file');
  const bytes = readFileSync(path);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return decodeUtf8(bytes, path);
  return decodeUtf8(gunzipBounded(bytes, path), path);
}

/**
 * A gzip file's bytes inflated, within {@link inflateCap}: the size its trailer states is checked before inflating,
 * and zlib stops at the cap whatever the trailer says. Truncation and corruption are named in words.
 */
function gunzipBounded(bytes: Uint8Array, path: string): Uint8Array {
  const cap = inflateCap(bytes.byteLength);
  // ISIZE, the last 4 bytes: the inflated size modulo 2^32 (a liar is caught by maxOutputLength below).
  const stated =
    bytes.byteLength >= 18
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(bytes.byteLength - 4)
      : 0;
  if (stated > cap) throw new DatasetError(path, '', tooLargeMessage(stated, bytes.byteLength));
  try {
    return gunzipSync(bytes, { maxOutputLength: cap });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new DatasetError(path, '', tooLargeMessage(cap + 1, bytes.byteLength));
    if (code === 'Z_BUF_ERROR')
      throw new DatasetError(
        path,
        '',
        'not a valid gzip file: it is truncated, ending before its compressed data does (an incomplete download?)',
      );
    if (code === 'Z_DATA_ERROR')
      throw new DatasetError(
        path,
        '',
        `not a valid gzip file: its compressed data is corrupt (${(error as Error).message})`,
      );
    throw new DatasetError(
      path,
      '',
      `not a valid gzip file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Reads Eurostat's `naio_10_cp15` (supply table at basic prices incl. transformation into purchasers' prices) as
 * downloaded, TSV or SDMX-CSV, plain or gzipped, into default margins; see `parseNaioMargins` in
 * `co2e-engine/loaders` for the rules.
 *
 * @example
 * ```ts
 * import { createTableDatasets, mergeDatasets } from 'co2e-engine';
 * import { defaultDatasets, defaultTables } from 'co2e-engine/datasets';
 * import { loadNaioMargins } from 'co2e-engine/node';
 * const { margins } = loadNaioMargins('naio_10_cp15.tsv.gz', {
 *   year: 2019, tradeShare: 0.8, classifications: defaultTables.classifications,
 * });
 * const datasets = mergeDatasets(defaultDatasets, createTableDatasets({ margins }));
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a missing or unreadable file and everything the parser
 *   refuses.
 */
export function loadNaioMargins(path: string, options: LoadNaioMarginsOptions): NaioMargins {
  return parseNaioMargins(readEurostatText(path), { ...options, file: path });
}
