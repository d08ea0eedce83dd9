import {
  asyncBufferFromFile,
  type FileMetaData,
  parquetMetadataAsync,
  parquetRead,
  type SchemaElement,
} from 'hyparquet';
import { InputFileError } from '../records';

/** One input row: its values by column (numbered from 1). */
export interface ParquetRow {
  line: number;
  values: Record<string, unknown>;
  error?: undefined;
}

/**
 * Rows of a Parquet file, read one row group at a time (memory stays at one row group, whatever the file's size).
 * A Parquet file is read from its footer, so it must be a file, not a pipe.
 *
 * Values become what a JSON Lines row would hold: integers stored as INT64 become numbers (as decimal text beyond
 * 2^53, which a calculator then rejects by name), dates and timestamps ISO 8601 text, and SQL NULL `null`, which
 * means "not supplied".
 */

/** How a pass-through column is written back to Parquet: its input type where that is plain, else text. */
export type ParquetColumnType = 'BOOLEAN' | 'INT32' | 'INT64' | 'DOUBLE' | 'STRING';

export interface ParquetRowSource {
  rows: AsyncGenerator<ParquetRow>;
  /** The top-level columns, in file order. */
  columns(): readonly string[];
  /** Each column's output type (see {@link ParquetColumnType}). */
  columnTypes(): Readonly<Record<string, ParquetColumnType>>;
  /** Bytes of the file, for progress. */
  bytes: number;
}

export interface ReadParquetOptions {
  /** Called after each row group with its compressed size in bytes. */
  onChunk?: (bytes: number) => void;
}

/** The plain Parquet types that round-trip unchanged; anything else (nested, decimal, dates) goes out as text. */
function columnType(element: SchemaElement): ParquetColumnType {
  const logical = element.logical_type?.type;
  const converted = element.converted_type;
  if (element.num_children !== undefined && element.num_children > 0) return 'STRING';
  if (element.repetition_type === 'REPEATED') return 'STRING';
  switch (element.type) {
    case 'BOOLEAN':
      return 'BOOLEAN';
    case 'INT32':
      return converted === undefined && logical === undefined ? 'INT32' : 'STRING';
    case 'INT64':
      return converted === undefined && logical === undefined ? 'INT64' : 'STRING';
    case 'FLOAT':
    case 'DOUBLE':
      return 'DOUBLE';
    default:
      return 'STRING';
  }
}

/**
 * A value as a JSON Lines row would carry it.
 *
 * @example
 * ```ts
 * plainValue(2019n); // 2019
 * plainValue(new Date(0)); // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function plainValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainValue(inner)]));
  }
  return value;
}

/**
 * The double nearest a DECIMAL value. hyparquet scales the stored integer by a float multiplication
 * (`735 × 0.01 = 7.3500000000000005`); the integer is recovered and the decimal read as text (`735e-2` → 7.35).
 * Beyond 2^53 the integer cannot be recovered exactly, so the value becomes text, which a calculator rejects by
 * name rather than computing with a rounded amount.
 *
 * @example
 * ```ts
 * exactDecimal(7.3500000000000005, 2); // 7.35
 * ```
 */
export function exactDecimal(value: unknown, scale: number): unknown {
  if (typeof value !== 'number' || scale <= 0) return value;
  const unscaled = Math.round(value * 10 ** scale);
  return Number.isSafeInteger(unscaled) ? Number(`${unscaled}e-${scale}`) : String(value);
}

/**
 * Opens a Parquet file and reads its footer.
 *
 * @example
 * ```ts
 * const source = await readParquetRows('ledger.parquet');
 * for await (const row of source.rows) console.log(row.line, row.values);
 * ```
 *
 * @throws {@link InputFileError} when the file is not Parquet (or is damaged).
 */
export async function readParquetRows(
  file: string,
  options: ReadParquetOptions = {},
): Promise<ParquetRowSource> {
  const buffer = await asyncBufferFromFile(file);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(buffer);
  } catch (error) {
    throw new InputFileError(`not a readable Parquet file (${(error as Error).message})`);
  }
  const [root, ...elements] = metadata.schema;
  // Top-level columns: walk the flattened schema, skipping each group's descendants.
  const top: SchemaElement[] = [];
  for (
    let index = 0, remaining = root?.num_children ?? 0;
    remaining > 0 && index < elements.length;
    remaining--
  ) {
    const element = elements[index] as SchemaElement;
    top.push(element);
    let skip = element.num_children ?? 0;
    index++;
    while (skip > 0 && index < elements.length) {
      skip += (elements[index]?.num_children ?? 0) - 1;
      index++;
    }
  }
  const columns = top.map((element) => element.name);
  // Rows are read into one object per row, by name: a second column of one name would silently replace the first.
  const twice = columns.find((name, index) => columns.indexOf(name) !== index);
  if (twice !== undefined)
    throw new InputFileError(
      `the column ${JSON.stringify(twice)} appears twice; give each column its own name`,
    );
  const types: Record<string, ReturnType<typeof columnType>> = Object.create(null) as Record<
    string,
    ReturnType<typeof columnType>
  >;
  for (const element of top) types[element.name] = columnType(element);
  const decimalScales = new Map(
    top
      .filter((element) => element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL')
      .map((element) => [element.name, element.scale ?? 0]),
  );

  async function* rows(): AsyncGenerator<ParquetRow> {
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      let objects: unknown[][];
      try {
        // Rows as arrays in `columns` order: hyparquet's row objects would drop a column named `__proto__`.
        objects = await new Promise<unknown[][]>((resolve, reject) => {
          parquetRead({
            file: buffer,
            metadata,
            rowStart,
            rowEnd,
            columns,
            rowFormat: 'array',
            onComplete: (rows) => resolve(rows as unknown[][]),
          }).catch(reject);
        });
      } catch (error) {
        throw new InputFileError(
          `rows ${rowStart + 1}–${rowEnd} cannot be read (${(error as Error).message})`,
        );
      }
      for (const [offset, object] of objects.entries()) {
        // No prototype: a column named `__proto__` (or `constructor`) is a column like any other.
        const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
        columns.forEach((name, index) => {
          const scale = decimalScales.get(name);
          values[name] = plainValue(scale === undefined ? object[index] : exactDecimal(object[index], scale));
        });
        yield { line: rowStart + offset + 1, values };
      }
      options.onChunk?.(Number(group.total_compressed_size ?? group.total_byte_size));
      rowStart = rowEnd;
    }
  }

  return { rows: rows(), columns: () => columns, columnTypes: () => types, bytes: buffer.byteLength };
}
