import { ByteWriter, ParquetWriter, type ColumnSource } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { NUMERIC_FIELDS, numericCell } from '../../adapters/cells';
import { RESULT_COLUMNS, type ResultFields } from '../output-row';
import type { ParquetColumnType } from './reader';

/**
 * Parquet output: the input columns, then the result columns, one row group per {@link PARQUET_ROW_GROUP} rows,
 * each flushed to the byte sink as soon as it is encoded (memory stays at one row group). Result columns: `co2e`
 * and `activity_value` DOUBLE, `notices` and `error_detail` JSON (as in JSON Lines), the others STRING; all
 * nullable. Pass-through columns keep a plain Parquet input type (BOOLEAN, INT32, INT64, DOUBLE). Otherwise a
 * numeric request field (`money`, `spend_year`, `duration`, …) is DOUBLE when every value of the first row group
 * is a plain number (a CSV cell such as `2019`, a JSON number), so spend → Parquet → spend gives the same results;
 * every other column is STRING: CSV cells as they are, other JSON values as JSON text. An empty cell is NULL in every
 * column, so it is read back as "not supplied", as the CSV said.
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
  factor_region: 'STRING',
  factor_year: 'DOUBLE',
  exchange_rate: 'DOUBLE',
  exchange_rate_year: 'DOUBLE',
  tax_margin_applied: 'DOUBLE',
  tax_margin_source: 'STRING',
  trade_margin_applied: 'DOUBLE',
  trade_margin_source: 'STRING',
  transport_margin_applied: 'DOUBLE',
  transport_margin_source: 'STRING',
  inflation_applied: 'DOUBLE',
  energy_kwh: 'DOUBLE',
  notices: 'JSON',
  error_code: 'STRING',
  error_message: 'STRING',
  error_detail: 'JSON',
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
  // ParquetWriter awaits a finish that returns a promise (its Writer type says `void | Promise<void>`); only
  // ByteWriter's own declaration says void.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  override finish(): Promise<void> {
    return this.drain();
  }
}

/** A pass-through column's type: a Parquet input's, or `NUMBER` (DOUBLE from any number form) for request numbers. */
type OutputColumnType = ParquetColumnType | 'NUMBER';

function passThroughValue(value: unknown, type: OutputColumnType, field: string): unknown {
  // An empty CSV cell means "not supplied"; NULL keeps that meaning when the file is read back ('' would be a value).
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'BOOLEAN':
      return typeof value === 'boolean' ? value : null;
    case 'INT32':
      return typeof value === 'number' ? value : null;
    case 'INT64':
      return typeof value === 'number' ? BigInt(value) : typeof value === 'string' ? BigInt(value) : null;
    case 'DOUBLE':
      return typeof value === 'number' ? value : null;
    case 'NUMBER':
      return numericCell(value, field) ?? null;
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
  /** A row adapter's own result columns and their types (default: the generic result columns). */
  results?: { columns: readonly string[]; types: Readonly<Record<string, 'DOUBLE' | 'STRING'>> },
): ParquetRowWriter {
  const resultColumns = results?.columns ?? RESULT_COLUMNS;
  const resultNames: ReadonlySet<string> = results === undefined ? RESULT_NAMES : new Set(results.columns);
  const resultType = (name: string) =>
    results === undefined
      ? RESULT_TYPES[name as (typeof RESULT_COLUMNS)[number]]
      : (results.types[name] ?? 'STRING');
  let names: string[] | undefined;
  let columns: Array<{ name: string; type: OutputColumnType }> | undefined;
  let writer: ParquetWriter | undefined;
  let pending: Array<{ input: Record<string, unknown>; result: ResultFields }> = [];

  /** The columns are named at the first row (what the input has then). */
  const name = () => {
    names ??= inputColumns().filter((column) => !resultNames.has(column));
  };
  /** Their types and the writer at the first row group, whose values type the request numbers. */
  const start = () => {
    name();
    if (columns !== undefined) return;
    const types = inputTypes();
    const typeOf = (column: string): OutputColumnType => {
      const stated = Object.hasOwn(types, column) ? types[column] : undefined;
      if (stated !== undefined) return stated;
      if (!NUMERIC_FIELDS.has(column)) return 'STRING';
      const numeric = pending.every(({ input }) => {
        const value = input[column];
        return (
          value === null || value === undefined || value === '' || numericCell(value, column) !== undefined
        );
      });
      return numeric ? 'NUMBER' : 'STRING';
    };
    columns = (names ?? []).map((column) => ({ name: column, type: typeOf(column) }));
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length + resultColumns.length },
      ...columns.map(({ name: column, type }) => element(column, type === 'NUMBER' ? 'DOUBLE' : type)),
      ...resultColumns.map((column) => element(column, resultType(column))),
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
        data: rows.map((row) => passThroughValue(row.input[name], type, name)),
      })),
      ...resultColumns.map((name) => ({
        name,
        data: rows.map((row) =>
          name === 'notices' && results === undefined ? row.result.notices : (row.result[name] ?? null),
        ),
      })),
    ];
    await writer?.write({ columnData, rowGroupSize: rows.length });
  };

  return {
    async write(input, result) {
      name();
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
