import { deepFreeze } from '../core/freeze';
import * as z from 'zod/mini';
import { type DatasetTables, TABLE_SCHEMAS } from '../datasets/create';
import { DatasetError } from '../datasets/errors';

/** The kinds of table, named as the parts of {@link DatasetTables}. */
export type TableKind = keyof DatasetTables;
/** The table of a kind. */
export type TableOf<K extends TableKind> = NonNullable<DatasetTables[K]>;

export { TABLE_SCHEMAS };

/** Every table kind, in documentation order. */
export const TABLE_KINDS = /* @__PURE__ */ deepFreeze([
  'spendFactors',
  'classifications',
  'margins',
  'inflation',
  'fx',
  'cloudCoefficients',
  'cloudRegions',
  'cloudInstances',
] as const satisfies readonly TableKind[]) as readonly TableKind[];

/**
 * The table-wide fields of a CSV table (everything but the rows): `dataset` and, per kind, settings such as
 * `currency` or `default_year`. A CSV file holds only rows, so these come beside it (an object in code, or a
 * `<name>.meta.json` file next to the CSV for the Node loader).
 */
export const META_SCHEMAS = /* @__PURE__ */ deepFreeze({
  spendFactors: z.omit(TABLE_SCHEMAS.spendFactors, { factors: true }),
  classifications: z.omit(TABLE_SCHEMAS.classifications, { mappings: true }),
  margins: z.omit(TABLE_SCHEMAS.margins, { margins: true }),
  inflation: z.omit(TABLE_SCHEMAS.inflation, { country: true, sector: true }),
  fx: z.omit(TABLE_SCHEMAS.fx, { rates: true }),
  cloudCoefficients: z.omit(TABLE_SCHEMAS.cloudCoefficients, { providers: true }),
  cloudRegions: z.omit(TABLE_SCHEMAS.cloudRegions, { regions: true }),
  cloudInstances: z.omit(TABLE_SCHEMAS.cloudInstances, { instances: true }),
} as const);

/** The table-wide fields of a kind: see {@link META_SCHEMAS}. */
export type TableMeta<K extends TableKind> = z.infer<(typeof META_SCHEMAS)[K]>;

/** @throws {@link DatasetError} naming the valid kinds, for anything but a table kind. */
export function assertTableKind(kind: unknown, file: string): asserts kind is TableKind {
  if (typeof kind !== 'string' || !Object.hasOwn(TABLE_SCHEMAS, kind)) {
    throw new DatasetError(
      file,
      '',
      `unknown table kind ${JSON.stringify(kind)}; valid kinds: ${TABLE_KINDS.join(', ')}`,
    );
  }
}
