import { deepFreeze } from '../core/freeze';
import * as z from 'zod/mini';
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

export const TABLE_SCHEMAS = /* @__PURE__ */ deepFreeze({
  spendFactors: SpendFactorsTableSchema,
  classifications: ClassificationsTableSchema,
  margins: MarginsTableSchema,
  inflation: InflationTableSchema,
  fx: FxTableSchema,
  cloudCoefficients: CloudCoefficientsTableSchema,
  cloudRegions: CloudRegionsTableSchema,
  cloudInstances: CloudInstancesTableSchema,
} as const satisfies { [K in TableKind]: z.ZodMiniType<TableOf<K>> });

/** Every table kind, in documentation order. */
export const TABLE_KINDS = /* @__PURE__ */ deepFreeze(Object.keys(TABLE_SCHEMAS) as TableKind[]);

/**
 * The table-wide fields of a CSV table (everything but the rows): `dataset` and, per kind, settings such as
 * `currency` or `default_year`. A CSV file holds only rows, so these come beside it (an object in code, or a
 * `<name>.meta.json` file next to the CSV for the Node loader).
 */
export const META_SCHEMAS = /* @__PURE__ */ deepFreeze({
  spendFactors: z.omit(SpendFactorsTableSchema, { factors: true }),
  classifications: z.omit(ClassificationsTableSchema, { mappings: true }),
  margins: z.omit(MarginsTableSchema, { margins: true }),
  inflation: z.omit(InflationTableSchema, { country: true, sector: true }),
  fx: z.omit(FxTableSchema, { rates: true }),
  cloudCoefficients: z.omit(CloudCoefficientsTableSchema, { providers: true }),
  cloudRegions: z.omit(CloudRegionsTableSchema, { regions: true }),
  cloudInstances: z.omit(CloudInstancesTableSchema, { instances: true }),
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
