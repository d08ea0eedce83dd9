import { deepFreeze } from '../core/freeze';
import { instanceKey, regionKey } from '../datasets/create';
import { type CloudProvider, GWP_METHODS } from '../datasets/tables';
import type { ColumnSpec, CsvRowReader } from './csv';
import { CSV_COLUMNS } from './csv-rows';
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

const SPEND_FACTOR_COLUMNS = CSV_COLUMNS.spendFactors;

const spendFactors: CsvFormat = {
  columns: SPEND_FACTOR_COLUMNS.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const factors = readers.map((reader, index) => {
      const row: Record<string, unknown> = {};
      put(row, 'product', reader.required('product'));
      put(row, 'region', reader.required('region'));
      put(row, 'kgco2e', reader.number('kgco2e'));
      const alt: Record<string, number> = {};
      for (const gwp of GWP_METHODS) put(alt, gwp, reader.optionalNumber(`kgco2e_${gwp}`));
      if (Object.keys(alt).length > 0) row.kgco2e_alt = alt;
      put(row, 'name', reader.required('name'));
      put(row, 'activity_id', reader.required('activity_id'));
      const flags = reader.text('data_quality_flags');
      row.data_quality_flags = flags === '' ? [] : flags.split('|').map((flag) => flag.trim());
      const path = ['factors', index];
      locateRow(at, path, reader, SPEND_FACTOR_COLUMNS.fields);
      seen.first(
        `${reader.text('product')}\u0000${reader.text('region')}`,
        reader,
        'region',
        `factor for product ${reader.text('product')} in region ${reader.text('region')}`,
        problems,
      );
      return row;
    });
    return { factors };
  },
};

const MARGIN_COLUMNS = CSV_COLUMNS.margins;

const margins: CsvFormat = {
  columns: MARGIN_COLUMNS.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const rows = readers.map((reader, index) => {
      const row: Record<string, unknown> = {};
      put(row, 'region', reader.required('region'));
      put(row, 'product', reader.required('product'));
      put(row, 'tax_margin', reader.optionalNumber('tax_margin'));
      for (const margin of ['trade_margin', 'transport_margin']) put(row, margin, reader.number(margin));
      locateRow(at, ['margins', index], reader, MARGIN_COLUMNS.fields);
      seen.first(
        `${reader.text('region')}\u0000${reader.text('product')}`,
        reader,
        'product',
        `margins for region ${reader.text('region')} and product ${reader.text('product')}`,
        problems,
      );
      return row;
    });
    return { margins: rows };
  },
};

/** A nested record, created on first use. */
function child(parent: Record<string, Record<string, unknown>>, key: string): Record<string, unknown> {
  parent[key] ??= {};
  return parent[key];
}

const inflation: CsvFormat = {
  columns: CSV_COLUMNS.inflation.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const country: Record<string, Record<string, unknown>> = {};
    const sector: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const reader of readers) {
      const region = reader.required('region');
      const year = reader.yearKey('year');
      const rate = reader.number('rate');
      const product = reader.text('product');
      if (region === undefined || year === undefined || rate === undefined) continue;
      const what =
        product === ''
          ? `country rate for ${region} ${year}`
          : `sector rate for ${region}, product ${product}, ${year}`;
      if (!seen.first(`${region}\u0000${product}\u0000${year}`, reader, 'year', what, problems)) continue;
      if (product === '') {
        child(country, region)[year] = rate;
        at.setFirst(['country', region], reader.at('region'));
        at.set(['country', region, year], reader.at('rate'));
      } else {
        sector[region] ??= {};
        child(sector[region], product)[year] = rate;
        at.setFirst(['sector', region], reader.at('region'));
        at.setFirst(['sector', region, product], reader.at('product'));
        at.set(['sector', region, product, year], reader.at('rate'));
      }
    }
    return Object.keys(sector).length === 0 ? { country } : { country, sector };
  },
};

const fx: CsvFormat = {
  columns: CSV_COLUMNS.fx.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const rates: Record<string, Record<string, unknown>> = {};
    for (const reader of readers) {
      const currency = reader.required('currency');
      const year = reader.yearKey('year');
      const rate = reader.number('rate');
      if (currency === undefined || year === undefined || rate === undefined) continue;
      if (!seen.first(`${currency}\u0000${year}`, reader, 'year', `rate for ${currency} ${year}`, problems))
        continue;
      child(rates, currency)[year] = rate;
      at.setFirst(['rates', currency], reader.at('currency'));
      at.set(['rates', currency, year], reader.at('rate'));
    }
    return { rates };
  },
};

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

const INSTANCE_COLUMNS = CSV_COLUMNS.cloudInstances;

const cloudInstances: CsvFormat = {
  columns: INSTANCE_COLUMNS.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const instances = readers.map((reader, index) => {
      const row: Record<string, unknown> = {};
      put(row, 'provider', reader.required('provider'));
      put(row, 'instance', reader.required('instance'));
      for (const column of ['vcpu', 'memory_gib', 'platform_vcpu', 'platform_embodied_kgco2e'])
        put(row, column, reader.number(column));
      put(row, 'gpu_count', reader.optionalNumber('gpu_count'));
      put(row, 'gpu_model', reader.text('gpu_model') || undefined);
      put(row, 'charged_memory_gb', reader.optionalNumber('charged_memory_gb'));
      put(row, 'embodied_method', reader.text('embodied_method') || undefined);
      locateRow(at, ['instances', index], reader, INSTANCE_COLUMNS.fields);
      const provider = reader.text('provider') as CloudProvider;
      // Duplicates as the engine looks instances up: case-insensitive, Azure with or without `Standard_`.
      seen.first(
        `${provider}\u0000${instanceKey(provider, reader.text('instance'))}`,
        reader,
        'instance',
        `instance ${provider} ${reader.text('instance')}`,
        problems,
      );
      return row;
    });
    return { instances };
  },
};

const classifications: CsvFormat = {
  columns: CSV_COLUMNS.classifications.columns,
  build(readers, at, problems) {
    const seen = new FirstLines();
    const mappings: Record<string, Record<string, unknown>> = {};
    for (const reader of readers) {
      const type = reader.required('type');
      const code = reader.required('code');
      const product = reader.required('product');
      if (type === undefined || code === undefined || product === undefined) continue;
      if (
        !seen.first(
          `${type}\u0000${code}\u0000${product}`,
          reader,
          'product',
          `mapping ${type} ${code} → ${product}`,
          problems,
        )
      )
        continue;
      const products = (child(mappings, type)[code] ??= []) as string[];
      at.setFirst(['mappings', type], reader.at('type'));
      at.setFirst(['mappings', type, code], reader.at('code'));
      at.set(['mappings', type, code, products.length], reader.at('product'));
      products.push(product);
    }
    return { mappings };
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
