import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alternativeTables, defaultTables } from '../../src/embedded/index';
import { DatasetError } from '../../src/index';
import { parseTableJson, type TableKind } from '../../src/loaders/index';
import { jsonSyntaxErrorOffset } from '../../src/loaders/json-locate';
import { caught } from '../fixtures/caught';

const catchError = (run: () => unknown): DatasetError => caught(DatasetError, run);

const dataset = {
  id: 'acme',
  version: '1',
  source: 'ACME',
  source_dataset: 'ACME rates',
  licence: 'internal',
  attribution: 'ACME',
};

describe('parseTableJson', () => {
  const embedded: Array<[string, TableKind, unknown]> = [
    ...Object.entries(defaultTables).map(
      ([kind, table]) => [kind, kind as TableKind, table] as [string, TableKind, unknown],
    ),
    ['ccfGridRegions', 'cloudRegions', alternativeTables.ccfGridRegions],
    ['useeioFactors', 'spendFactors', alternativeTables.useeioFactors],
    ['useeioClassifications', 'classifications', alternativeTables.useeioClassifications],
  ];
  it.each(embedded)('reads the embedded %s table back equal', (_, kind, table) => {
    expect(parseTableJson(kind, JSON.stringify(table, null, 2))).toEqual(table);
  });

  it('accepts a UTF-8 byte order mark', () => {
    expect(
      parseTableJson('fx', `\uFEFF${JSON.stringify({ dataset, rates: { eur: { '2024': 0.92 } } })}`),
    ).toEqual({ dataset, rates: { eur: { '2024': 0.92 } } });
  });

  it('names the line and column of a value the schema refuses', () => {
    const text = JSON.stringify({ dataset, rates: { eur: { '2023': 0.92, '2024': -0.92 } } }, null, 2);
    // Lines: 1 {, 2 "dataset": {, 3-8 its six fields, 9 }, 10 "rates": {, 11 "eur": {, 12 "2023", 13 "2024": -0.92
    const error = catchError(() => parseTableJson('fx', text, { file: 'fx.json' }));
    expect(error.message).toBe(
      'fx.json at line 13, column 15: rates.eur.2024: Too small: expected number to be >0 (got -0.92)',
    );
    expect([error.line, error.column]).toEqual([13, 15]);
  });

  it('names the object that lacks a required key', () => {
    const text =
      '{\n  "dataset": {"id": "a", "version": "1", "source": "s", "source_dataset": "d", "licence": "l"},\n  "rates": {}\n}';
    const error = catchError(() => parseTableJson('fx', text));
    expect([error.line, error.column]).toEqual([2, 14]);
    expect(error.problem).toMatch(
      /^dataset\.attribution: Invalid input: expected string, received undefined/,
    );
  });

  it('refuses rows with a repeated lookup key, naming both', () => {
    const region = {
      provider: 'aws',
      location: 'US',
      grid_zone: 'US',
      grid_factors: { '2022': 0.4 },
      grid_sources: { '2022': 'x' },
    };
    const table = {
      dataset,
      default_year: 2022,
      unit: 'kg/kWh',
      gwp: 'ar5',
      regions: [
        { ...region, region: 'us-east-1' },
        { ...region, region: 'us_east_1' },
      ],
    };
    const text = JSON.stringify(table, null, 1);
    const error = catchError(() => parseTableJson('cloudRegions', text));
    const lines = text.split('\n');
    const second =
      lines.findIndex(
        (line, index) => index > lines.findIndex((l) => l.includes('"us-east-1"')) && line.trim() === '{',
      ) + 1;
    expect(error.line).toBe(second);
    expect(error.problem).toMatch(/^duplicate region aws us_east_1 \(first at line \d+\)$/);
  });

  type Row = Record<string, unknown>;
  it.each([
    ['spendFactors', 'factors', (r: Row) => `factor for product ${r.product} in region ${r.region}`],
    ['margins', 'margins', (r: Row) => `margins for region ${r.region} and product ${r.product}`],
    ['cloudInstances', 'instances', (r: Row) => `instance ${r.provider} ${r.instance}`],
  ] as const)('names a repeated row of %s by its key', (kind, field, named) => {
    const table = defaultTables[kind] as unknown as Record<string, Row[]>;
    const [row] = table[field]!;
    const text = JSON.stringify({ ...table, [field]: [row, row] }, null, 1);
    const error = catchError(() => parseTableJson(kind, text));
    expect(error.problem.replace(/line \d+\)$/, 'line N)')).toBe(
      `duplicate ${named(row!)} (first at line N)`,
    );
  });

  it('finds repeated Azure instances as the engine looks them up: case-insensitive, with or without Standard_', () => {
    const table = defaultTables.cloudInstances;
    const azure = table.instances.find(
      (row) => row.provider === 'azure' && row.instance.startsWith('Standard_'),
    )!;
    const again = { ...azure, instance: azure.instance.replace('Standard_', '').toUpperCase() };
    const text = JSON.stringify({ ...table, instances: [azure, again] }, null, 1);
    expect(catchError(() => parseTableJson('cloudInstances', text)).problem).toMatch(
      new RegExp(`^duplicate instance azure ${again.instance} \\(first at line \\d+\\)$`),
    );
  });

  it('names the position of a syntax error', () => {
    const error = catchError(() =>
      parseTableJson('fx', '{\n  "dataset": {\n    "id": "a",,\n  }\n}', { file: 'broken.json' }),
    );
    expect(error.table).toBe('broken.json');
    expect(error.line).toBe(3);
    expect(error.problem).toMatch(/^not valid JSON: /);
  });

  it('refuses an unknown kind', () => {
    expect(catchError(() => parseTableJson('rates' as TableKind, '{}')).problem).toMatch(
      /^unknown table kind "rates"/,
    );
  });
});

describe('jsonSyntaxErrorOffset', () => {
  it('finds nothing wrong in valid JSON (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
      }),
    );
  });

  it.each([
    ['{\n  "dataset": }', 15], // the } where a value should be
    ['{"a": 1,, "b": 2}', 8], // the second comma
    ['[1, 2', 5], // the end, where ] or , should be
    ['{"a" 1}', 5], // the 1 where : should be
    ['{"a": tru}', 6], // the unfinished literal
    ['{"a": 1} x', 9], // text after the value
    ['"tab\there"', 0], // a raw control character inside a string
  ])('finds the offending character in %j at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonSyntaxErrorOffset(text)).toBe(offset);
  });
});
