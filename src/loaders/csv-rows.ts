import * as z from 'zod/mini';
import {
  ClassificationsTable,
  CloudCoefficientsTable,
  CloudInstancesTable,
  CloudRegionsTable,
  FxTable,
  GWP_METHODS,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
} from '../datasets/tables';
import {
  type ColumnOptions,
  optionalFields,
  recordFields,
  schemaColumns,
  type SchemaColumns,
} from './schema-columns';
import type { TableKind } from './table-kinds';

/** A table's CSV rows: the row's fields as a zod object read from the table's schema, and the CSV's departures. */
export interface CsvRowDescription {
  row: z.ZodMiniObject;
  options?: ColumnOptions;
}

const region = CloudRegionsTable.shape.regions.def.element.shape;
const inflationCountry = recordFields(InflationTable.shape.country, ['region', 'year'], 'rate');
const inflationSector = recordFields(InflationTable.shape.sector, ['region', 'product', 'year'], 'rate');

/**
 * Each table's CSV rows, described once and read from its zod schema (so a field added to a schema is a column):
 * list tables by their row; keyed tables (`rates[currency][year]`) by their keys, named here, and their value.
 *
 * @example
 * ```ts
 * Object.keys(CSV_ROWS.fx.row.shape); // ['currency', 'year', 'rate']
 * CSV_ROWS.fx.row.shape.rate === FxTable.shape.rates.def.valueType.def.valueType; // true: the table's own schema
 * ```
 */
export const CSV_ROWS: { readonly [K in TableKind]: CsvRowDescription } = {
  // The flags `a|b` (empty: none); each `kgco2e_alt` basis in its own column.
  spendFactors: {
    row: SpendFactorsTable.shape.factors.def.element,
    options: {
      optional: ['data_quality_flags'],
      nested: { kgco2e_alt: Object.fromEntries(GWP_METHODS.map((gwp) => [gwp, `kgco2e_${gwp}`])) },
    },
  },
  // One product of a code per row; `products`, `weights` and the rest are table-wide (the meta).
  classifications: {
    row: z.strictObject(recordFields(ClassificationsTable.shape.mappings, ['type', 'code'], 'product')),
  },
  // An empty (or absent) tax_margin means no default tax margin, as in tables built from sources without taxes.
  margins: { row: MarginsTable.shape.margins.def.element },
  // A country rate per row; a sector rate names its product too.
  inflation: {
    row: z.strictObject({ ...inflationCountry, ...optionalFields(inflationSector, inflationCountry) }),
  },
  fx: { row: z.strictObject(recordFields(FxTable.shape.rates, ['currency', 'year'], 'rate')) },
  // A provider per row; pue_by_region and gpu_watts as pair cells.
  cloudCoefficients: {
    row: z.strictObject(recordFields(CloudCoefficientsTable.shape.providers, ['provider'])),
  },
  // A region's year per row, its grid factor and source side by side; published factors come only as JSON.
  cloudRegions: {
    row: z.strictObject({
      ...region,
      ...recordFields(region.grid_factors, ['year'], 'grid_factor'),
      ...recordFields(region.grid_sources, ['year'], 'grid_source'),
    }),
    options: { omit: ['grid_factors', 'grid_sources', 'published_factors'] },
  },
  // Per-type processor watts (min_watts, max_watts) come only with CCF's application tables, which are JSON.
  cloudInstances: {
    row: CloudInstancesTable.shape.instances.def.element,
    options: { omit: ['min_watts', 'max_watts'] },
  },
};

/**
 * The columns of each table's CSV format and where each field of a row sits, from {@link CSV_ROWS}.
 *
 * @example
 * ```ts
 * CSV_COLUMNS.inflation.columns.map((column) => column.name); // ['region', 'year', 'rate', 'product']
 * ```
 */
export const CSV_COLUMNS = Object.fromEntries(
  Object.entries(CSV_ROWS).map(([kind, { row, options }]) => [kind, schemaColumns(row, options)]),
) as { readonly [K in TableKind]: SchemaColumns };
