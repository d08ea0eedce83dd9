import { readCsv, rowReaders } from './csv';
import { CSV_FORMATS } from './csv-formats';
import { Locations, Problems } from './problems';
import { assertTableKind, type TableKind, type TableMeta, type TableOf } from './table-kinds';
import { DatasetError } from '../datasets/errors';
import { checkedTable, parseMeta, requireOptions } from './validate';

/** What a call without options is told to give. */
const META_GIVE = '{ meta } with the table-wide fields (dataset, …)';

/** Options of {@link parseTableCsv}. */
export interface ParseTableCsvOptions<K extends TableKind> {
  /** Name of the file, for error messages (default `<kind>.csv`). */
  file?: string;
  /**
   * The table-wide fields the CSV's rows lack: `dataset` (id, version, source, source_dataset, licence,
   * attribution) and the kind's settings (spend factors: `currency`, `factor_year`, `price_basis`, `gwp`,
   * `product_classification`; ...). Described by `docs/schemas/<kind>.meta.schema.json`.
   */
  meta: TableMeta<K>;
  /** Name of the meta's file, for error messages (default `<file> meta`). */
  metaFile?: string;
}

/**
 * Parses a table from CSV: a header row with the kind's named columns (any order; documented in
 * docs/guides/custom-datasets.md), one row per record, plus the table-wide fields in `options.meta`. The whole
 * file is read and validated before anything is returned, so a table is never half-loaded.
 *
 * @example
 * ```ts
 * import { parseTableCsv } from 'co2e-engine/loaders';
 * const fx = parseTableCsv('fx', 'currency,year,rate\neur,2024,0.924\nusd,2024,1\n', {
 *   file: 'fx.csv',
 *   meta: { dataset: { id: 'treasury-fx', version: '2024', source: 'Treasury', source_dataset: 'Annual rates',
 *     licence: 'internal', attribution: 'Our treasury' } },
 * });
 * ```
 * @throws {@link DatasetError} naming the file, the line and column, and what is wrong (the first problem in file order,
 *   with how many more there are): malformed CSV, unknown or missing columns, a cell that is not a number, a
 *   value the schema refuses, a repeated key.
 */
export function parseTableCsv<K extends TableKind>(
  kind: K,
  text: string,
  options: ParseTableCsvOptions<K>,
): TableOf<K> {
  const {
    file = `${String(kind)}.csv`,
    meta: given,
    metaFile,
  } = requireOptions(options, `${String(kind)}.csv`, META_GIVE);
  assertTableKind(kind, file);
  // Said outright: the schema would only say that `table` is not an object.
  if (given === undefined)
    throw new DatasetError(file, '', "the option 'meta' is missing: give the table-wide fields (dataset, …)");
  const meta = parseMeta(kind, given, metaFile ?? `${file} meta`);

  const csv = readCsv(text, file);
  const problems = new Problems(file);
  const locations = new Locations();
  const readers = rowReaders(csv, String(kind), CSV_FORMATS[kind].columns, problems);
  const rows = CSV_FORMATS[kind].build(readers, locations, problems);
  return checkedTable(
    kind,
    { ...meta, ...rows },
    problems,
    (path) => locations.find(path) ?? { line: csv.headerLine },
  );
}
