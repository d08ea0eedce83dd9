import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  CloudCoefficientsTable,
  CloudInstancesTable,
  MarginsTable,
  SpendFactorsTable,
} from '../../src/datasets/tables';
import { TABLE_CSV_COLUMNS } from '../../src/loaders/csv-formats';
import { schemaColumns } from '../../src/loaders/schema-columns';

const names = (columns: ReadonlyArray<{ name: string }>) => columns.map((column) => column.name);

describe('schemaColumns: CSV columns read from a row schema', () => {
  it('makes key columns, then required fields, then optional ones, then nested columns; and places each field', () => {
    const row = z.strictObject({
      a: z.number(),
      b: z.optional(z.string()),
      c: z.array(z.string()),
      d: z.optional(z.record(z.string(), z.number())),
      e: z.string(),
      f: z.number(),
    });
    const { columns, fields } = schemaColumns(row, {
      key: ['k'],
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
    expect(fields).toEqual({ a: 'a', b: 'b', c: 'c', e: 'e', d: { x: 'd_x', y: 'd_y' } });
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
