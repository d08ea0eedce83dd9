import type * as z from 'zod';
import type { DatasetTables } from '../datasets/create';
import { DatasetError } from '../datasets/errors';
import {
  ClassificationsTableSchema,
  CloudCoefficientsTableSchema,
  CloudInstancesTableSchema,
  CloudRegionsTableSchema,
  FxTableSchema,
  InflationTableSchema,
  MarginsTableSchema,
  SpendFactorsTableSchema,
} from '../datasets/tables';

/** The kinds of table, named as the parts of {@link DatasetTables}. */
export type TableKind = keyof DatasetTables;
/** The table of a kind. */
export type TableOf<K extends TableKind> = NonNullable<DatasetTables[K]>;

export const TABLE_SCHEMAS = {
  spendFactors: SpendFactorsTableSchema,
  classifications: ClassificationsTableSchema,
  margins: MarginsTableSchema,
  inflation: InflationTableSchema,
  fx: FxTableSchema,
  cloudCoefficients: CloudCoefficientsTableSchema,
  cloudRegions: CloudRegionsTableSchema,
  cloudInstances: CloudInstancesTableSchema,
} as const satisfies { [K in TableKind]: z.ZodType<TableOf<K>> };

/** Every table kind, in documentation order. */
export const TABLE_KINDS = Object.keys(TABLE_SCHEMAS) as TableKind[];

/**
 * The table-wide fields of a CSV table (everything but the rows): `dataset` and, per kind, settings such as
 * `currency` or `default_year`. A CSV file holds only rows, so these come beside it (an object in code, or a
 * `<name>.meta.json` file next to the CSV for the Node loader).
 */
export const META_SCHEMAS = {
  spendFactors: SpendFactorsTableSchema.omit({ factors: true }),
  classifications: ClassificationsTableSchema.omit({ mappings: true }),
  margins: MarginsTableSchema.omit({ margins: true }),
  inflation: InflationTableSchema.omit({ country: true, sector: true }),
  fx: FxTableSchema.omit({ rates: true }),
  cloudCoefficients: CloudCoefficientsTableSchema.omit({ providers: true }),
  cloudRegions: CloudRegionsTableSchema.omit({ regions: true }),
  cloudInstances: CloudInstancesTableSchema.omit({ instances: true }),
} as const;

/** The table-wide fields of a kind: see {@link META_SCHEMAS}. */
export type TableMeta<K extends TableKind> = z.infer<(typeof META_SCHEMAS)[K]>;

/** @throws {DatasetError} naming the valid kinds, for anything but a table kind. */
export function assertTableKind(kind: unknown, file: string): asserts kind is TableKind {
  if (typeof kind !== 'string' || !Object.hasOwn(TABLE_SCHEMAS, kind)) {
    throw new DatasetError(
      file,
      '',
      `unknown table kind ${JSON.stringify(kind)}; valid kinds: ${TABLE_KINDS.join(', ')}`,
    );
  }
}
