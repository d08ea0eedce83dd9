import { ByteWriter, ParquetWriter, type ColumnSource } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { RESULT_COLUMNS, type ResultFields } from '../output-row';
import type { ParquetColumnType } from './reader';

/**
 * Parquet output: the input columns, then the result columns, one row group per {@link PARQUET_ROW_GROUP} rows,
 * each flushed to the byte sink as soon as it is encoded (memory stays at one row group). Result columns: `co2e`
 * and `activity_value` DOUBLE, `notices` JSON (the full notices, as in JSON Lines), the others STRING; all
 * nullable. Pass-through columns keep a plain Parquet input type (BOOLEAN, INT32, INT64, DOUBLE) and are STRING
 * otherwise: CSV cells as they are, other JSON values as JSON text.
 */

export const PARQUET_ROW_GROUP = 10_000;

/** Where the encoded bytes go, in order; `write` resolves once the destination can take more. */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const RESULT_TYPES: Readonly<Record<(typeof RESULT_COLUMNS)[number], 'DOUBLE' | 'STRING' | 'JSON'>> = {
  co2e: 'DOUBLE',
  co2e_unit: 'STRING',
  activity_value: 'DOUBLE',
  activity_unit: 'STRING',
  factor_id: 'STRING',
  factor_name: 'STRING',
  factor_source: 'STRING',
  notices: 'JSON',
  error_code: 'STRING',
  error_message: 'STRING',
};
const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/** A hyparquet-writer Writer that hands each finished row group's bytes to the sink. */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: ByteSink) {
    super(1 << 20);
  }
  private drain(): Promise<void> {
    const bytes = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    return bytes.byteLength > 0 ? this.sink.write(bytes) : Promise.resolve();
  }
  flush(): Promise<void> {
    return this.drain();
  }
  override finish(): Promise<void> {
    return this.drain();
  }
}

function passThroughValue(value: unknown, type: ParquetColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'BOOLEAN':
      return typeof value === 'boolean' ? value : null;
    case 'INT32':
      return typeof value === 'number' ? value : null;
    case 'INT64':
      return typeof value === 'number' ? BigInt(value) : typeof value === 'string' ? BigInt(value) : null;
    case 'DOUBLE':
      return typeof value === 'number' ? value : null;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

export interface ParquetRowWriter {
  write(input: Record<string, unknown>, result: ResultFields): Promise<void>;
  close(): Promise<void>;
}

/**
 * A row writer for Parquet. The columns are fixed at the first row: `inputColumns()` at that moment (the CSV header, the
 * first JSON object's keys, or the Parquet schema), with `inputTypes()` for a Parquet input's plain types.
 *
 * @example
 * ```ts
 * const writer = parquetWriter(sink, () => ['id'], () => ({ id: 'INT64' }));
 * await writer.write({ id: 1 }, resultFields(outcome));
 * await writer.close(); // the footer; then the sink is closed
 * ```
 */
export function parquetWriter(
  sink: ByteSink,
  inputColumns: () => readonly string[],
  inputTypes: () => Readonly<Record<string, ParquetColumnType>> = () => ({}),
  createdBy = 'co2e-engine',
): ParquetRowWriter {
  let columns: Array<{ name: string; type: ParquetColumnType }> | undefined;
  let writer: ParquetWriter | undefined;
  let pending: Array<{ input: Record<string, unknown>; result: ResultFields }> = [];

  const start = () => {
    if (columns !== undefined) return;
    const types = inputTypes();
    columns = inputColumns()
      .filter((name) => !RESULT_NAMES.has(name))
      .map((name) => ({ name, type: types[name] ?? 'STRING' }));
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length + RESULT_COLUMNS.length },
      ...columns.map(({ name, type }) => element(name, type)),
      ...RESULT_COLUMNS.map((name) => element(name, RESULT_TYPES[name])),
    ];
    writer = new ParquetWriter({ writer: new SinkWriter(sink), schema, createdBy });
  };

  const flush = async () => {
    start();
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    const columnData: ColumnSource[] = [
      ...(columns ?? []).map(({ name, type }) => ({
        name,
        data: rows.map((row) => passThroughValue(row.input[name], type)),
      })),
      ...RESULT_COLUMNS.map((name) => ({
        name,
        data: rows.map((row) => (name === 'notices' ? row.result.notices : (row.result[name] ?? null))),
      })),
    ];
    await writer?.write({ columnData, rowGroupSize: rows.length });
  };

  return {
    async write(input, result) {
      start();
      pending.push({ input, result });
      if (pending.length >= PARQUET_ROW_GROUP) await flush();
    },
    async close() {
      await flush();
      await writer?.finish();
      await sink.close();
    },
  };
}

function element(name: string, type: ParquetColumnType | 'JSON'): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  if (type === 'STRING') return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
  if (type === 'JSON') return { ...optional, type: 'BYTE_ARRAY', converted_type: 'JSON' };
  return { ...optional, type };
}
