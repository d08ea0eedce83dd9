import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  CloudCoefficientsTable,
  CloudInstancesTable,
  MarginsTable,
  SpendFactorsTable,
} from '../../src/datasets/tables';
import { TABLE_CSV_COLUMNS } from '../../src/loaders/csv-formats';
import { CSV_ROWS } from '../../src/loaders/csv-rows';
import { optionalFields, recordFields, schemaColumns } from '../../src/loaders/schema-columns';
import { TABLE_KINDS, TABLE_SCHEMAS } from '../../src/loaders/table-kinds';

const names = (columns: ReadonlyArray<{ name: string }>) => columns.map((column) => column.name);

describe('schemaColumns: CSV columns read from a row schema', () => {
  it('makes required fields, then optional ones, then nested columns; and places each field', () => {
    const row = z.strictObject({
      a: z.number(),
      b: z.optional(z.string()),
      c: z.array(z.string()),
      d: z.optional(z.record(z.string(), z.number())),
      e: z.string(),
      f: z.number(),
    });
    const { columns, fields } = schemaColumns(z.strictObject({ k: z.string(), ...row.shape }), {
      optional: ['c'],
      omit: ['f'],
      nested: { d: { x: 'd_x', y: 'd_y' } },
    });
    expect(columns).toEqual([
      { name: 'k', required: true },
      { name: 'a', required: true },
      { name: 'e', required: true },
      { name: 'b', required: false },
      { name: 'c', required: false },
      { name: 'd_x', required: false },
      { name: 'd_y', required: false },
    ]);
    expect(fields).toEqual({ k: 'k', a: 'a', b: 'b', c: 'c', e: 'e', d: { x: 'd_x', y: 'd_y' } });
  });

  it('gives the flat tables a column for every field of their rows, but the departures each format names', () => {
    const fieldsOf = (row: z.ZodMiniObject) => Object.keys(row.shape).sort();
    expect(names(TABLE_CSV_COLUMNS.margins).sort()).toEqual(fieldsOf(MarginsTable.shape.margins.def.element));
    expect([...names(TABLE_CSV_COLUMNS.cloudInstances), 'max_watts', 'min_watts'].sort()).toEqual(
      fieldsOf(CloudInstancesTable.shape.instances.def.element),
    );
    expect(names(TABLE_CSV_COLUMNS.cloudCoefficients).sort()).toEqual(
      [...fieldsOf(CloudCoefficientsTable.shape.providers.def.valueType), 'provider'].sort(),
    );
    const spendFields = fieldsOf(SpendFactorsTable.shape.factors.def.element).filter(
      (f) => f !== 'kgco2e_alt',
    );
    expect(names(TABLE_CSV_COLUMNS.spendFactors).sort()).toEqual(
      [...spendFields, 'kgco2e_ar4', 'kgco2e_ar5', 'kgco2e_ar6'].sort(),
    );
  });

  it('keeps the columns as documented (docs/guides/custom-datasets.md), required ones first', () => {
    expect(TABLE_CSV_COLUMNS.spendFactors).toEqual([
      ...['product', 'region', 'kgco2e', 'name', 'activity_id'].map((name) => ({ name, required: true })),
      ...['data_quality_flags', 'kgco2e_ar4', 'kgco2e_ar5', 'kgco2e_ar6'].map((name) => ({
        name,
        required: false,
      })),
    ]);
    expect(TABLE_CSV_COLUMNS.margins).toEqual([
      ...['region', 'product', 'trade_margin', 'transport_margin'].map((name) => ({ name, required: true })),
      { name: 'tax_margin', required: false },
    ]);
    expect(names(TABLE_CSV_COLUMNS.cloudInstances)).toEqual([
      ...['provider', 'instance', 'vcpu', 'memory_gib', 'platform_vcpu', 'platform_embodied_kgco2e'],
      ...['gpu_count', 'gpu_model', 'charged_memory_gb', 'embodied_method'],
    ]);
    expect(names(TABLE_CSV_COLUMNS.cloudCoefficients)).toEqual([
      ...['provider', 'min_watts', 'max_watts', 'pue', 'memory_kwh_per_gb_hour', 'ssd_wh_per_tb_hour'],
      ...[
        'hdd_wh_per_tb_hour',
        'networking_kwh_per_gb',
        'server_lifetime_hours',
        'pue_by_region',
        'gpu_watts',
      ],
    ]);
  });
});

/** Every schema inside a zod schema (fields, keys, values, elements, wrapped types), itself included. */
function schemasIn(schema: z.core.$ZodType, found = new Set<z.core.$ZodType>()): Set<z.core.$ZodType> {
  if (found.has(schema)) return found;
  found.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const inner = [def.keyType, def.valueType, def.element, def.innerType, ...Object.values(def.shape ?? {})];
  for (const child of inner) if (child !== undefined) schemasIn(child as z.core.$ZodType, found);
  return found;
}

describe('one description per table: every CSV format read from its zod schema', () => {
  const required = (...names: string[]) => names.map((name) => ({ name, required: true }));
  const optional = (...names: string[]) => names.map((name) => ({ name, required: false }));

  it.each(TABLE_KINDS)(
    '%s: the columns are those its row description derives, each field the schema’s own',
    (kind) => {
      const { row, options } = CSV_ROWS[kind];
      expect(TABLE_CSV_COLUMNS[kind]).toEqual(schemaColumns(row, options).columns);
      // Each field of the row is a schema of the table (a record's key or value, a row's field), or one made optional.
      const tableSchemas = schemasIn(TABLE_SCHEMAS[kind]);
      for (const [name, field] of Object.entries(row.shape)) {
        const def = field._zod.def as { type: string; innerType?: z.core.$ZodType };
        const own = tableSchemas.has(field) || (def.type === 'optional' && tableSchemas.has(def.innerType!));
        expect(own, `${kind}.${name}`).toBe(true);
      }
    },
  );

  it('keeps the keyed tables’ columns as documented (docs/guides/custom-datasets.md)', () => {
    expect(TABLE_CSV_COLUMNS.inflation).toEqual([
      ...required('region', 'year', 'rate'),
      ...optional('product'),
    ]);
    expect(TABLE_CSV_COLUMNS.fx).toEqual(required('currency', 'year', 'rate'));
    expect(TABLE_CSV_COLUMNS.classifications).toEqual(required('type', 'code', 'product'));
    expect(TABLE_CSV_COLUMNS.cloudRegions).toEqual([
      ...required('provider', 'region', 'location', 'grid_zone', 'year', 'grid_factor', 'grid_source'),
      ...optional('hosted_spelling'),
    ]);
  });

  it('adds a column for a field added to a row schema', () => {
    const margin = MarginsTable.shape.margins.def.element;
    const withNote = z.strictObject({ ...margin.shape, note: z.optional(z.string()), basis: z.string() });
    expect(schemaColumns(withNote).columns).toEqual([
      ...TABLE_CSV_COLUMNS.margins.filter((column) => column.required),
      ...required('basis'),
      ...TABLE_CSV_COLUMNS.margins.filter((column) => !column.required),
      ...optional('note'),
    ]);
  });

  it('reads a keyed record as its keys and value: an object value adds its fields, a key level its column', () => {
    const year = z.string();
    const rates = z.record(z.string(), z.record(year, z.number()));
    expect(Object.keys(recordFields(rates, ['currency', 'year'], 'rate'))).toEqual([
      'currency',
      'year',
      'rate',
    ]);
    expect(recordFields(rates, ['currency', 'year'], 'rate').year).toBe(year);
    const sourced = z.record(
      z.string(),
      z.record(year, z.strictObject({ rate: z.number(), source: z.string() })),
    );
    expect(schemaColumns(z.strictObject(recordFields(sourced, ['currency', 'year']))).columns).toEqual(
      required('currency', 'year', 'rate', 'source'),
    );
    const bySector = z.optional(z.record(z.string(), z.record(z.string(), z.record(year, z.number()))));
    const sector = recordFields(bySector, ['region', 'product', 'year'], 'rate');
    const country = recordFields(rates, ['region', 'year'], 'rate');
    expect(schemaColumns(z.strictObject({ ...country, ...optionalFields(sector, country) })).columns).toEqual(
      [...required('region', 'year', 'rate'), ...optional('product')],
    );
    const lists = z.record(z.string(), z.array(z.string()));
    expect(Object.keys(recordFields(lists, ['code'], 'product'))).toEqual(['code', 'product']);
  });

  it('refuses a description that does not fit the schema', () => {
    expect(() => recordFields(z.record(z.string(), z.number()), ['a', 'b'], 'v')).toThrow(
      'recordFields: no record level for the key b',
    );
    expect(() => recordFields(z.record(z.string(), z.number()), ['a'])).toThrow(
      'recordFields: a number value needs a name',
    );
  });
});
