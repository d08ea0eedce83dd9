import type * as z from 'zod/mini';
import { deepFreeze } from '../core/freeze';
import { instanceKey, regionKey } from '../datasets/create';
import { GWP_METHODS } from '../datasets/tables';
import type { ColumnSpec, CsvRowReader } from './csv';
import { CSV_COLUMNS, CSV_ROWS } from './csv-rows';
import type { Locations, Problems, RowColumns } from './problems';
import type { TableKind } from './table-kinds';

/**
 * The CSV format of each table kind: its columns (documented in docs/guides/custom-datasets.md) and how rows
 * become the table's row part. The table-wide fields come from the meta object beside the CSV.
 */
export interface CsvFormat {
  columns: readonly ColumnSpec[];
  build(readers: readonly CsvRowReader[], at: Locations, problems: Problems): Record<string, unknown>;
}

/** Sets `object[key]` unless the reader left the value out (a problem is recorded then). */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) object[key] = value;
}

/** Remembers the first line of each key, to report duplicates with both lines. */
class FirstLines {
  private readonly lines = new Map<string, number>();
  /** True the first time a key is seen; a repeat is recorded as a problem on `column` of the repeating row. */
  first(key: string, reader: CsvRowReader, column: string, what: string, problems: Problems): boolean {
    const line = this.lines.get(key);
    if (line === undefined) {
      this.lines.set(key, reader.line);
      return true;
    }
    problems.add(reader.at(column), `duplicate ${what} (first on line ${line})`);
    return false;
  }
}

function locateRow(at: Locations, path: PropertyKey[], reader: CsvRowReader, columns: RowColumns): void {
  at.setRow(path, reader, columns);
}

/** The key a list row must not repeat: as the engine looks rows up, the cell a repeat is reported at, its name. */
interface RowKey {
  key: string;
  column: string;
  what: string;
}

type CellRead = (reader: CsvRowReader) => unknown;

/**
 * How a field's cell is read, as its schema types it: a number or text, required unless the schema makes it
 * optional (an empty optional cell leaves the field out). Undefined for lists and records, which a format reads.
 */
function cellRead(field: z.core.$ZodType, column: string): CellRead | undefined {
  const def = field._zod.def;
  const optional = def.type === 'optional';
  const type = optional ? (def as z.core.$ZodOptionalDef).innerType._zod.def.type : def.type;
  if (type === 'number')
    return optional ? (reader) => reader.optionalNumber(column) : (reader) => reader.number(column);
  if (type === 'string' || type === 'enum')
    return optional ? (reader) => reader.text(column) || undefined : (reader) => reader.required(column);
  return undefined;
}

/** The plain fields of a list table's row (numbers and text), each with how its cell is read. */
function plainFields(kind: 'spendFactors' | 'margins' | 'cloudInstances'): ReadonlyArray<[string, CellRead]> {
  const { row } = CSV_ROWS[kind];
  return Object.entries(CSV_COLUMNS[kind].fields).flatMap(([field, column]) => {
    const read = typeof column === 'string' ? cellRead(row.shape[field]!, column) : undefined;
    return read === undefined ? [] : [[field, read] as [string, CellRead]];
  });
}

/**
 * A list table's format: each row's plain fields read as its schema types them (then `more`, the format's own
 * fields), located by their columns, its key (`key`) unique.
 */
function listFormat(
  kind: 'spendFactors' | 'margins' | 'cloudInstances',
  part: string,
  key: (reader: CsvRowReader) => RowKey,
  more?: (reader: CsvRowReader, row: Record<string, unknown>) => void,
): CsvFormat {
  const { columns, fields } = CSV_COLUMNS[kind];
  const plain = plainFields(kind);
  return {
    columns,
    build(readers, at, problems) {
      const seen = new FirstLines();
      const rows = readers.map((reader, index) => {
        const row: Record<string, unknown> = {};
        for (const [field, read] of plain) put(row, field, read(reader));
        more?.(reader, row);
        locateRow(at, [part, index], reader, fields);
        const { key: text, column, what } = key(reader);
        seen.first(text, reader, column, what, problems);
        return row;
      });
      return { [part]: rows };
    },
  };
}

const spendFactors = listFormat(
  'spendFactors',
  'factors',
  (reader) => ({
    key: `${reader.text('product')}\u0000${reader.text('region')}`,
    column: 'region',
    what: `factor for product ${reader.text('product')} in region ${reader.text('region')}`,
  }),
  (reader, row) => {
    const alt: Record<string, number> = {};
    for (const gwp of GWP_METHODS) put(alt, gwp, reader.optionalNumber(`kgco2e_${gwp}`));
    if (Object.keys(alt).length > 0) row.kgco2e_alt = alt;
    const flags = reader.text('data_quality_flags');
    row.data_quality_flags = flags === '' ? [] : flags.split('|').map((flag) => flag.trim());
  },
);

const margins = listFormat('margins', 'margins', (reader) => ({
  key: `${reader.text('region')}\u0000${reader.text('product')}`,
  column: 'product',
  what: `margins for region ${reader.text('region')} and product ${reader.text('product')}`,
}));

// Duplicates as the engine looks instances up: case-insensitive, Azure with or without `Standard_`.
const cloudInstances = listFormat('cloudInstances', 'instances', (reader) => ({
  key: `${reader.text('provider')}\u0000${instanceKey(reader.text('provider'), reader.text('instance'))}`,
  column: 'instance',
  what: `instance ${reader.text('provider')} ${reader.text('instance')}`,
}));

/** A record of records, down to the values. */
type Nested = Record<string, unknown>;

/** Where a keyed table's row puts its value: the keys no other row may repeat, each by its column. */
interface Placement {
  /** The table's part (`rates`) and the keys under it, outermost first, by column (`{ currency: 'eur', year: '2024' }`). */
  part: string;
  keys: Readonly<Record<string, string>>;
  /** The value at the last key, and its column; absent, the last key is itself appended to the others' list. */
  value?: { value: unknown; column: string };
  /** How a message names the row, if another repeats its keys. */
  what: string;
}

/**
 * A keyed table's format (`rates[currency][year] = rate`): each row read by `read` into its placement (undefined
 * where a cell's problem is recorded), a repeat of its keys reported at the last key's cell, every key located at
 * the cell that first names it and every value at its own. `parts` are the table's parts that exist without rows.
 */
function keyedFormat(
  kind: 'classifications' | 'inflation' | 'fx',
  parts: readonly string[],
  read: (reader: CsvRowReader) => Placement | undefined,
): CsvFormat {
  return {
    columns: CSV_COLUMNS[kind].columns,
    build(readers, at, problems) {
      const seen = new FirstLines();
      const table: Record<string, Nested> = Object.fromEntries(parts.map((part) => [part, {}]));
      for (const reader of readers) {
        const placement = read(reader);
        if (placement === undefined) continue;
        const keys = Object.entries(placement.keys);
        const identity = [placement.part, ...keys.map(([, key]) => key)].join('\u0000');
        const [column] = keys.at(-1)!;
        if (seen.first(identity, reader, column, placement.what, problems))
          place((table[placement.part] ??= {}), placement, reader, at);
      }
      return table;
    },
  };
}

/** Puts a row's value at its keys (records made on first use), locating each key and the value. */
function place(root: Nested, { part, keys, value }: Placement, reader: CsvRowReader, at: Locations): void {
  const path: PropertyKey[] = [part];
  let node = root;
  const parents = Object.entries(keys);
  const [lastColumn, last] = parents.pop()!;
  parents.forEach(([column, key], index) => {
    path.push(key);
    at.setFirst(path, reader.at(column));
    node = (node[key] ??= value === undefined && index === parents.length - 1 ? [] : {}) as Nested;
  });
  if (value === undefined) {
    const list = node as unknown as unknown[];
    at.set([...path, list.length], reader.at(lastColumn));
    list.push(last);
  } else {
    node[last] = value.value;
    at.set([...path, last], reader.at(value.column));
  }
}

// A country rate per row, or a sector rate that names its product.
const inflation = keyedFormat('inflation', ['country'], (reader): Placement | undefined => {
  const region = reader.required('region');
  const year = reader.yearKey('year');
  const rate = reader.number('rate');
  const product = reader.text('product');
  if (region === undefined || year === undefined || rate === undefined) return undefined;
  const value = { value: rate, column: 'rate' };
  return product === ''
    ? { part: 'country', keys: { region, year }, value, what: `country rate for ${region} ${year}` }
    : {
        part: 'sector',
        keys: { region, product, year },
        value,
        what: `sector rate for ${region}, product ${product}, ${year}`,
      };
});

const fx = keyedFormat('fx', ['rates'], (reader) => {
  const currency = reader.required('currency');
  const year = reader.yearKey('year');
  const rate = reader.number('rate');
  if (currency === undefined || year === undefined || rate === undefined) return undefined;
  const value = { value: rate, column: 'rate' };
  return { part: 'rates', keys: { currency, year }, value, what: `rate for ${currency} ${year}` };
});

// A code's products, one per row, in file order.
const classifications = keyedFormat('classifications', ['mappings'], (reader) => {
  const type = reader.required('type');
  const code = reader.required('code');
  const product = reader.required('product');
  if (type === undefined || code === undefined || product === undefined) return undefined;
  return { part: 'mappings', keys: { type, code, product }, what: `mapping ${type} ${code} → ${product}` };
});

const COEFFICIENTS = CSV_COLUMNS.cloudCoefficients;
/** The number columns: every required field of a provider's coefficients is a number. */
const COEFFICIENT_COLUMNS = COEFFICIENTS.columns
  .filter((column) => column.required && column.name !== 'provider')
  .map((column) => column.name);

/**
 * A cell of `key=value` pairs separated by `|` (`us-central1=1.11|us-east4=1.08`; `Nvidia T4=8/71`), each value read
 * by `value`; a malformed pair is a problem of the cell. Empty: undefined.
 */
function pairs<T>(
  reader: CsvRowReader,
  column: string,
  value: (text: string) => T | undefined,
  shape: string,
): Record<string, T> | undefined {
  const text = reader.text(column).trim();
  if (text === '') return undefined;
  const result: Record<string, T> = {};
  for (const pair of text.split('|')) {
    const at = pair.lastIndexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    const parsed = at > 0 ? value(pair.slice(at + 1).trim()) : undefined;
    if (key === '' || parsed === undefined) {
      reader.problem(column, `${column}: ${JSON.stringify(pair)} is not ${shape}`);
      continue;
    }
    result[key] = parsed;
  }
  return result;
}

const finite = (text: string): number | undefined => {
  const value = text === '' ? Number.NaN : Number(text);
  return Number.isFinite(value) ? value : undefined;
};

const cloudCoefficients: CsvFormat = {
  // pue_by_region: `region=pue|…`; gpu_watts: `model=min/max|…` (watts per GPU at idle and at 100 %).
  columns: COEFFICIENTS.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const providers: Record<string, Record<string, unknown>> = {};
    for (const reader of readers) {
      const provider = reader.required('provider');
      const values: Record<string, unknown> = {};
      for (const column of COEFFICIENT_COLUMNS) put(values, column, reader.number(column));
      put(values, 'pue_by_region', pairs(reader, 'pue_by_region', finite, 'region=PUE'));
      put(
        values,
        'gpu_watts',
        pairs(
          reader,
          'gpu_watts',
          (text) => {
            const [min, max, extra] = text.split('/').map((part) => finite(part.trim()));
            return min === undefined || max === undefined || extra !== undefined
              ? undefined
              : { min_watts: min, max_watts: max };
          },
          'model=min/max watts',
        ),
      );
      if (
        provider === undefined ||
        !seen.first(provider, reader, 'provider', `coefficients for ${provider}`, problems)
      )
        continue;
      providers[provider] = values;
      // Each field at its cell, the provider (a key issue) at its own: a row located only by its key would be
      // found first at the key and put every coefficient's problem on the provider cell.
      at.set(['providers', provider], reader.at('provider'));
      for (const [field, column] of Object.entries(COEFFICIENTS.fields))
        if (typeof column === 'string') at.set(['providers', provider, field], reader.at(column));
    }
    return { providers };
  },
};

const cloudRegions: CsvFormat = {
  columns: CSV_COLUMNS.cloudRegions.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const groups = new Map<string, { row: Record<string, unknown>; first: CsvRowReader; index: number }>();
    const regions: Array<Record<string, unknown>> = [];
    for (const reader of readers) {
      const provider = reader.required('provider');
      const region = reader.required('region');
      const location = reader.required('location');
      const zone = reader.required('grid_zone');
      const year = reader.yearKey('year');
      const factor = reader.number('grid_factor');
      const source = reader.required('grid_source');
      // Empty where the hosted spelling derives from the id (every AWS and GCP region).
      const hosted = reader.text('hosted_spelling') || undefined;
      if (provider === undefined || region === undefined) continue;
      const key = `${provider}\u0000${regionKey(region)}`;
      let group = groups.get(key);
      if (group === undefined) {
        const row = {
          provider,
          region,
          ...(hosted !== undefined && { hosted_spelling: hosted }),
          location,
          grid_zone: zone,
          grid_factors: {},
          grid_sources: {},
        };
        group = { row, first: reader, index: regions.length };
        groups.set(key, group);
        regions.push(row);
        locateRow(at, ['regions', group.index], reader, CSV_COLUMNS.cloudRegions.fields);
      } else {
        // A region's location and zone are one fact; rows that disagree would make the table say two things.
        for (const [field, value] of [
          ['location', location],
          ['grid_zone', zone],
          ['hosted_spelling', hosted],
        ] as const) {
          if (value !== undefined && value !== group.row[field]) {
            reader.problem(
              field,
              `${field} ${JSON.stringify(value)} differs from ${JSON.stringify(group.row[field])} on line ${group.first.line} for the same region`,
            );
          }
        }
      }
      if (
        year === undefined ||
        !seen.first(
          `${key}\u0000${year}`,
          reader,
          'year',
          `grid factor for ${provider} ${region} ${year}`,
          problems,
        )
      )
        continue;
      put(group.row.grid_factors as Record<string, unknown>, year, factor);
      put(group.row.grid_sources as Record<string, unknown>, year, source);
      at.set(['regions', group.index, 'grid_factors', year], reader.at('grid_factor'));
      at.set(['regions', group.index, 'grid_sources', year], reader.at('grid_source'));
    }
    return { regions };
  },
};

export const CSV_FORMATS: { readonly [K in TableKind]: CsvFormat } = {
  spendFactors,
  classifications,
  margins,
  inflation,
  fx,
  cloudCoefficients,
  cloudRegions,
  cloudInstances,
};

/** The columns of each kind's CSV format, required ones first, with whether each is required. */
export const TABLE_CSV_COLUMNS = /* @__PURE__ */ deepFreeze(
  Object.fromEntries(
    Object.entries(CSV_FORMATS).map(([kind, format]) => [
      kind,
      format.columns.map((column) => ({ ...column })),
    ]),
  ) as unknown as { readonly [K in TableKind]: ReadonlyArray<{ name: string; required: boolean }> },
);
