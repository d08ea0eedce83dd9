import type * as z from 'zod/mini';
import type { ColumnSpec } from './csv';
import type { RowColumns } from './problems';

/** How a CSV format departs from its row schema, each departure named. */
export interface ColumnOptions {
  /** Columns before the row's fields that key the row (`provider` of the coefficients), required. */
  key?: readonly string[];
  /** Fields the schema requires whose cell may be empty in a CSV (`data_quality_flags`: empty is none). */
  optional?: readonly string[];
  /** Fields a CSV does not carry. */
  omit?: readonly string[];
  /** Fields a CSV spreads over several columns: sub-field → column (`kgco2e_alt.ar5` → `kgco2e_ar5`). */
  nested?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The columns of a CSV format and where each field of a row sits, both read from the row's zod schema. */
export interface SchemaColumns {
  /** Key columns, then required fields, then optional ones (each in schema order), then the nested fields' columns. */
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
      ...(options.key ?? []).map(column(true)),
      ...flat.filter((entry) => !isOptional(entry)).map(([name]) => column(true)(name)),
      ...flat.filter(isOptional).map(([name]) => column(false)(name)),
      ...nested.map(column(false)),
    ],
    fields: { ...Object.fromEntries(flat.map(([name]) => [name, name])), ...options.nested },
  };
}
