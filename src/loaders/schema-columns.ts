import * as z from 'zod/mini';
import type { ColumnSpec } from './csv';
import type { RowColumns } from './problems';

/** How a CSV format departs from its row schema, each departure named. */
export interface ColumnOptions {
  /** Fields the schema requires whose cell may be empty in a CSV (`data_quality_flags`: empty is none). */
  optional?: readonly string[];
  /** Fields a CSV does not carry. */
  omit?: readonly string[];
  /** Fields a CSV spreads over several columns: sub-field → column (`kgco2e_alt.ar5` → `kgco2e_ar5`). */
  nested?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The columns of a CSV format and where each field of a row sits, both read from the row's zod schema. */
export interface SchemaColumns {
  /** Required fields, then optional ones (each in schema order), then the nested fields' columns. */
  columns: ColumnSpec[];
  /** Field → column (nested: sub-field → column), to place a validation issue on its cell. */
  fields: RowColumns;
}

/**
 * The CSV columns of a table whose rows are flat objects, from the row's zod schema: a field is a required column
 * unless the schema makes it optional (or `options.optional` says its cell may be empty), so a field added to the
 * schema is a column without a second list to keep in step.
 *
 * @example
 * ```ts
 * schemaColumns(z.strictObject({ region: z.string(), tax_margin: z.optional(z.number()) })).columns;
 * // [{ name: 'region', required: true }, { name: 'tax_margin', required: false }]
 * ```
 */
export function schemaColumns(row: z.ZodMiniObject, options: ColumnOptions = {}): SchemaColumns {
  const flat = Object.entries(row.shape).filter(
    ([name]) => !options.omit?.includes(name) && options.nested?.[name] === undefined,
  );
  const isOptional = ([name, field]: [string, z.core.$ZodType]) =>
    field._zod.optin === 'optional' || options.optional?.includes(name) === true;
  const column = (required: boolean) => (name: string) => ({ name, required });
  const nested = Object.values(options.nested ?? {}).flatMap((columns) => Object.values(columns));
  return {
    columns: [
      ...flat.filter((entry) => !isOptional(entry)).map(([name]) => column(true)(name)),
      ...flat.filter(isOptional).map(([name]) => column(false)(name)),
      ...nested.map(column(false)),
    ],
    fields: { ...Object.fromEntries(flat.map(([name]) => [name, name])), ...options.nested },
  };
}

/** The fields of a row: what {@link recordFields} gives and {@link schemaColumns} reads (as a strict object's shape). */
export type RowFields = Record<string, z.core.$ZodType>;

/**
 * The rows of a keyed record (`rates[currency][year] = rate`) as flat fields, read from its zod schema: one field
 * per key level, named by `keys` outermost first, with the record's own key schema; then the value, its fields if it
 * is an object, else one field named `value` (an array's element: one row per element). An optional record is
 * read through. So a keyed table's CSV columns come from its schema as a list table's do.
 *
 * @example
 * ```ts
 * const rates = z.record(z.string(), z.record(z.string(), z.number()));
 * Object.keys(recordFields(rates, ['currency', 'year'], 'rate')); // ['currency', 'year', 'rate']
 * ```
 */
export function recordFields(record: z.core.$ZodType, keys: readonly string[], value?: string): RowFields {
  const fields: RowFields = {};
  let schema = unwrapOptional(record);
  for (const key of keys) {
    const def = schema._zod.def;
    if (def.type !== 'record') throw new Error(`recordFields: no record level for the key ${key}`);
    const { keyType, valueType } = def as z.core.$ZodRecordDef;
    fields[key] = keyType;
    schema = unwrapOptional(valueType);
  }
  const def = schema._zod.def;
  if (def.type === 'object') return { ...fields, ...(def as z.core.$ZodObjectDef).shape };
  if (value === undefined) throw new Error(`recordFields: a ${def.type} value needs a name`);
  fields[value] = def.type === 'array' ? (def as z.core.$ZodArrayDef).element : schema;
  return fields;
}

/**
 * The fields of `fields` that `common` lacks, each optional: the columns only some rows fill.
 *
 * @example
 * ```ts
 * // Inflation: a country rate's row, and the product column only a sector rate fills.
 * Object.keys(optionalFields(sectorFields, countryFields)); // ['product']
 * ```
 */
export function optionalFields(fields: RowFields, common: RowFields): RowFields {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => !Object.hasOwn(common, name))
      .map(([name, field]) => [name, z.optional(field)]),
  );
}

function unwrapOptional(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def;
  return def.type === 'optional' ? (def as z.core.$ZodOptionalDef).innerType : schema;
}
