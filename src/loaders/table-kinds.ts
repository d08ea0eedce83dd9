import { deepFreeze } from '../core/freeze';
import * as z from 'zod/mini';
import type { DatasetTables } from '../datasets/create';
import { DatasetError } from '../datasets/errors';
import {
  ClassificationsTable,
  CloudCoefficientsTable,
  CloudInstancesTable,
  CloudRegionsTable,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
} from '../datasets/tables';

/** The kinds of table, named as the parts of {@link DatasetTables}. */
export type TableKind = keyof DatasetTables;
/** The table of a kind. */
export type TableOf<K extends TableKind> = NonNullable<DatasetTables[K]>;

export const TABLE_SCHEMAS = /* @__PURE__ */ deepFreeze({
  spendFactors: SpendFactorsTable,
  classifications: ClassificationsTable,
  margins: MarginsTable,
  inflation: InflationTable,
  fx: FxTable,
  cloudCoefficients: CloudCoefficientsTable,
  cloudRegions: CloudRegionsTable,
  cloudInstances: CloudInstancesTable,
} as const satisfies { [K in TableKind]: z.ZodMiniType<TableOf<K>> });

/** Every table kind, in documentation order. */
export const TABLE_KINDS = /* @__PURE__ */ deepFreeze(Object.keys(TABLE_SCHEMAS) as TableKind[]);

/**
 * The table-wide fields of a CSV table (everything but the rows): `dataset` and, per kind, settings such as
 * `currency` or `default_year`. A CSV file holds only rows, so these come beside it (an object in code, or a
 * `<name>.meta.json` file next to the CSV for the Node loader).
 */
export const META_SCHEMAS = /* @__PURE__ */ deepFreeze({
  spendFactors: z.omit(SpendFactorsTable, { factors: true }),
  classifications: z.omit(ClassificationsTable, { mappings: true }),
  margins: z.omit(MarginsTable, { margins: true }),
  inflation: z.omit(InflationTable, { country: true, sector: true }),
  fx: z.omit(FxTable, { rates: true }),
  cloudCoefficients: z.omit(CloudCoefficientsTable, { providers: true }),
  cloudRegions: z.omit(CloudRegionsTable, { regions: true }),
  cloudInstances: z.omit(CloudInstancesTable, { instances: true }),
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
