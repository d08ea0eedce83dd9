import { deepFreeze } from '../core/freeze';
import { decimal, isPositive, ONE, sub, sum } from '../core/decimal';
import type { FilePosition } from '../datasets/errors';
import type { ClassificationsTable, DatasetInfo, MarginsTable } from '../datasets/tables';
import { type CsvRowReader, readCsv, rowReaders } from './csv';
import { Locations, Problems } from './problems';
import { checkedTable, parseMeta, requireOptions } from './validate';

/** The columns of a plain margins CSV: `region`, then `product` or `classification` + `code`, then the margins. */
export const MARGINS_CSV_COLUMNS = /* @__PURE__ */ deepFreeze([
  'region',
  'product',
  'classification',
  'code',
  'tax',
  'trade',
  'transport',
] as const);

/** Options of {@link parseMarginsCsv}. */
export interface ParseMarginsCsvOptions {
  /** Name of the file, for error messages (default `margins.csv`). */
  file?: string;
  /** The margins dataset: id, version, source, source_dataset, licence, attribution. */
  dataset: DatasetInfo;
  /**
   * Needed for rows given by classification code: the code's products are looked up here (e.g. the embedded
   * `spendTables.classifications` of `co2e-engine/datasets`, or your own).
   */
  classifications?: Pick<ClassificationsTable, 'mappings'>;
}

interface Placed {
  line: number;
  /** Where the row's region cell is, for problems the schema finds in it. */
  regionAt: FilePosition;
  byProduct: boolean;
  values: [number, number, number];
}

/**
 * Parses default margins from a plain CSV, one row per region and product (`product`, a product of the factor
 * table) or per region and classification code (`classification` and `code`, e.g. `isic4`, `4711`: the margins
 * apply to every product the code maps to). `tax`, `trade` and `transport` are fractions of purchaser's price:
 * trade and transport at least 0, tax may be negative (subsidies), and `1 − tax − trade − transport` must stay
 * above 0. A row by product wins over rows by code for the same product; two code rows that give one product
 * different margins are refused. The result is a `margins` table for `createTableDatasets`.
 *
 * @example
 * ```ts
 * import { createTableDatasets } from 'co2e-engine';
 * import { parseMarginsCsv } from 'co2e-engine/loaders';
 * const margins = parseMarginsCsv('region,product,tax,trade,transport\nDE,Wheat,0.07,0.12,0.03\n', {
 *   file: 'margins.csv',
 *   dataset: { id: 'our-margins', version: '2024', source: 'Us', source_dataset: 'Our margins',
 *     licence: 'internal', attribution: 'Us' },
 * });
 * const datasets = createTableDatasets({ margins });
 * ```
 * @throws {@link DatasetError} naming the file, line and column: malformed CSV, unknown or missing columns, a row with
 *   both or neither of product and code, an unknown code, a bad number, a negative trade or transport margin,
 *   margins summing to 1 or more, a repeated (region, product).
 */
export function parseMarginsCsv(text: string, options: ParseMarginsCsvOptions): MarginsTable {
  const file =
    requireOptions(options, 'margins.csv', '{ dataset } (id, version, source, …)').file ?? 'margins.csv';
  const { dataset } = parseMeta('margins', { dataset: options.dataset }, `${file} dataset`);
  const csv = readCsv(text, file);
  const problems = new Problems(file);
  const columns = MARGINS_CSV_COLUMNS.map((name) => ({
    name,
    required: ['region', 'tax', 'trade', 'transport'].includes(name),
  }));
  const readers = rowReaders(csv, 'margins', columns, problems);
  const placed = new Map<string, Placed>();
  for (const reader of readers) {
    const region = reader.required('region');
    const values = readMargins(reader);
    const products = productsOf(reader, options.classifications);
    if (region === undefined || values === undefined || products === undefined) continue;
    for (const product of products)
      place(placed, region, product, {
        line: reader.line,
        regionAt: reader.at('region'),
        byProduct: reader.text('product') !== '',
        values,
      });
  }
  problems.throwIfAny();
  const locations = new Locations();
  const margins = [...placed.entries()].map(([key, { line, regionAt, values }], index) => {
    locations.set(['margins', index], { line });
    locations.set(['margins', index, 'region'], regionAt);
    const [region, product] = key.split('\u0000') as [string, string];
    return { region, product, tax_margin: values[0], trade_margin: values[1], transport_margin: values[2] };
  });
  return checkedTable(
    'margins',
    { dataset, margins },
    problems,
    (path) => locations.find(path) ?? { line: csv.headerLine },
  );

  function place(into: Map<string, Placed>, region: string, product: string, next: Placed): void {
    const key = `${region}\u0000${product}`;
    const before = into.get(key);
    if (before === undefined || (next.byProduct && !before.byProduct)) {
      into.set(key, next);
      return;
    }
    if (!next.byProduct && before.byProduct) return;
    if (!next.byProduct && next.values.every((value, index) => value === before.values[index])) return;
    problems.add(
      next.regionAt,
      `margins for region ${region} and product ${product} given twice${next.byProduct ? '' : ' with different values'} (first on line ${before.line})`,
    );
  }
}

/** The three margins of a row, checked against their bounds; undefined when a problem was recorded. */
function readMargins(reader: CsvRowReader): [number, number, number] | undefined {
  const tax = reader.number('tax');
  const trade = reader.number('trade');
  const transport = reader.number('transport');
  if (trade !== undefined && trade < 0)
    reader.problem('trade', `trade: ${trade} is negative; it must be at least 0`);
  if (transport !== undefined && transport < 0)
    reader.problem('transport', `transport: ${transport} is negative; it must be at least 0`);
  if (tax === undefined || trade === undefined || transport === undefined || trade < 0 || transport < 0)
    return undefined;
  const total = sum([decimal(tax), decimal(trade), decimal(transport)]);
  if (!isPositive(sub(ONE, total))) {
    reader.problem(
      'tax',
      `tax + trade + transport = ${total.toString()}; the margins must leave part of the price (sum below 1)`,
    );
    return undefined;
  }
  return [tax, trade, transport];
}

/** The products a row gives margins for: its product, or the products its classification code maps to. */
function productsOf(
  reader: CsvRowReader,
  classifications: ParseMarginsCsvOptions['classifications'],
): string[] | undefined {
  const product = reader.text('product');
  const type = reader.text('classification');
  const code = reader.text('code');
  if (product !== '') {
    if (type !== '' || code !== '') {
      reader.problem('product', 'give either product or classification and code, not both');
      return undefined;
    }
    return [product];
  }
  if (type === '' || code === '') {
    reader.problem(
      code === '' && type !== '' ? 'code' : 'product',
      'a row needs product, or classification and code',
    );
    return undefined;
  }
  if (classifications === undefined) {
    reader.problem(
      'code',
      'rows by classification code need the classifications table (option classifications)',
    );
    return undefined;
  }
  const byType = classifications.mappings[type];
  if (byType === undefined) {
    reader.problem(
      'classification',
      `unknown classification ${JSON.stringify(type)}; known: ${Object.keys(classifications.mappings).join(', ')}`,
    );
    return undefined;
  }
  const products = Object.hasOwn(byType, code) ? byType[code] : undefined;
  if (products === undefined) {
    reader.problem('code', `${type} code ${JSON.stringify(code)} is not in the classifications table`);
    return undefined;
  }
  return [...products];
}
