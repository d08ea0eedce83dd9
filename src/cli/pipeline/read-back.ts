import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createGunzip } from 'node:zlib';
import { readCsvRecords } from '../formats/csv/reader';
import { readJsonlRecords } from '../formats/jsonl/reader';
import { MAX_LINE_CHARS, readLines } from '../formats/lines';
import { readParquetRows } from '../formats/parquet/reader';
import type { ParquetAwareFormat } from '../formats/records';

/**
 * The rows of an output file this CLI wrote, read back (for `--summary` and `report`): its format from `format`,
 * else the extension (`.jsonl`, `.ndjson`, `.parquet`, else CSV), gzipped when it ends in `.gz`.
 */

/** The format of an output file from its name: `.jsonl`/`.ndjson`, `.parquet`, else CSV (`.gz` looked through). */
export function outputFormatOf(path: string): ParquetAwareFormat {
  const extension = extname(path.toLowerCase().replace(/\.gz$/, ''));
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  return extension === '.parquet' ? 'parquet' : 'csv';
}

/**
 * Each row of an output file as column → cell (CSV cells are text; JSON Lines and Parquet cells typed), in order.
 * Records that cannot be read are skipped: the file is one this CLI wrote whole.
 *
 * @example
 * ```ts
 * for await (const row of readOutputRows('out.csv')) console.log(row.co2e);
 * ```
 */
export async function* readOutputRows(
  path: string,
  format: ParquetAwareFormat = outputFormatOf(path),
): AsyncGenerator<Record<string, unknown>> {
  if (format === 'parquet') {
    const source = await readParquetRows(path);
    for await (const row of source.rows) if (row.error === undefined) yield row.values;
    return;
  }
  const stream = createReadStream(path);
  const bytes = path.toLowerCase().endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
  const lines = readLines(bytes, MAX_LINE_CHARS);
  if (format === 'jsonl') {
    for await (const record of readJsonlRecords(lines, MAX_LINE_CHARS))
      if ('values' in record) yield record.values;
    return;
  }
  let header: string[] | undefined;
  for await (const record of readCsvRecords(lines, MAX_LINE_CHARS)) {
    if ('error' in record) continue;
    if (header === undefined) {
      header = record.fields;
      continue;
    }
    const values: Record<string, unknown> = {};
    header.forEach((name, index) => (values[name] = record.fields[index] ?? ''));
    yield values;
  }
}
