// The browser build of csv-parse: the Node one needs `Buffer`. Bundled into the loaders entry (tsup noExternal).
import { CsvError, parse } from 'csv-parse/browser/esm/sync';
import type { FilePosition } from '../datasets/errors';
import type { Problems } from './problems';
import { failAt, readNumber } from './text';

/** One data row of a CSV file: its 1-based first line and its cells, trimmed. */
export interface CsvRow {
  line: number;
  cells: string[];
}

export interface CsvFile {
  file: string;
  /** Header names in file order. */
  header: string[];
  /** Line of the header row. */
  headerLine: number;
  rows: CsvRow[];
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Reads CSV text (RFC 4180: comma-separated, `"` quotes, a header row; UTF-8 BOM and blank lines ignored) and
 * keeps each row's line number for error messages. Cells are trimmed unless `trim` is false.
 *
 * A line without a quote is split at its commas directly (what csv-parse would make of it, at a fraction of the
 * cost and memory: the browser build of csv-parse copies the whole text into an array of bytes first); a record
 * with a quote, up to the line break where its quotes balance, is read by csv-parse.
 *
 * @throws {@link DatasetError} for malformed CSV (unclosed quote, a row with more or fewer cells than the header).
 */
export function readCsv(text: string, file: string, options: { trim?: boolean } = {}): CsvFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  let width: number | undefined;
  const add = (line: number, record: string[]) => {
    if (width === undefined) width = record.length;
    else if (record.length !== width)
      failAt(
        file,
        { line },
        `malformed CSV: Invalid Record Length: expect ${width}, got ${record.length} on line ${line}`,
      );
    rows.push({ line, cells: options.trim === false ? record : record.map((cell) => cell.trim()) });
  };
  let line = 0;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  while (start < body.length) {
    line++;
    const first = line;
    let end = lineEnd(body, start);
    let quotes = countQuotes(body, start, end.at);
    if (quotes === 0) {
      if (end.at > start) add(first, body.slice(start, end.at).split(','));
      start = end.next;
      continue;
    }
    // A quoted field may hold line breaks: the record ends at the first line break after balanced quotes.
    while (quotes % 2 === 1 && end.next < body.length) {
      const from = end.next;
      line++;
      end = lineEnd(body, from);
      quotes += countQuotes(body, from, end.at);
    }
    for (const record of parseQuoted(body.slice(start, end.at), file, first)) add(first, record);
    start = end.next;
  }
  const [header, ...data] = rows;
  if (header === undefined) failAt(file, { line: 1 }, 'empty file; a header row is required');
  return { file, header: header.cells, headerLine: header.line, rows: data };
}

/** Where the line starting at `from` ends, and where the next one starts. */
function lineEnd(text: string, from: number): { at: number; next: number } {
  LINE_BREAK.lastIndex = from;
  const found = LINE_BREAK.exec(text);
  return found === null
    ? { at: text.length, next: text.length }
    : { at: found.index, next: found.index + found[0].length };
}

function countQuotes(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) if (text.charCodeAt(index) === 34) count++;
  return count;
}

/** The records of text with quotes (normally one), by csv-parse; its error lines counted from `firstLine`. */
function parseQuoted(text: string, file: string, firstLine: number): string[][] {
  try {
    const rows: string[][] | undefined = parse(text, { skip_empty_lines: true });
    return rows ?? [];
  } catch (error) {
    if (error instanceof CsvError) {
      const relative = Number((error as CsvError & { lines?: number }).lines) || 1;
      const line = firstLine + relative - 1;
      failAt(file, { line }, `malformed CSV: ${error.message.replace(/\bline \d+/, `line ${line}`)}`);
    }
    throw error;
  }
}

/** A data row as a record keyed by the header (cells untrimmed; an unnamed pandas index column is key `''`). */
export interface CsvRecord {
  line: number;
  record: Record<string, string>;
}

/** Reads CSV text with a header row into records, as the source files' own tools wrote them (nothing trimmed). */
export function readCsvRecords(text: string, file: string): CsvRecord[] {
  const { header, rows } = readCsv(text, file, { trim: false });
  return rows.map(({ line, cells }) => ({
    line,
    record: Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])),
  }));
}

/** A column of a CSV table format. */
export interface ColumnSpec {
  name: string;
  required: boolean;
}

/** Reads one row's cells by column name; a bad cell is recorded as a problem at its line and column. */
export class CsvRowReader {
  constructor(
    private readonly columns: ReadonlyMap<string, number>,
    private readonly problems: Problems,
    readonly row: CsvRow,
  ) {}

  get line(): number {
    return this.row.line;
  }

  /** Position of a column's cell in this row (the row itself for a column the file does not have). */
  at(name: string): FilePosition {
    const index = this.columns.get(name);
    return index === undefined
      ? { line: this.row.line }
      : { line: this.row.line, column: index + 1, columnName: name };
  }

  /** The cell's text, or '' when empty or when the file has no such (optional) column. */
  text(name: string): string {
    const index = this.columns.get(name);
    return index === undefined ? '' : (this.row.cells[index] ?? '');
  }

  /** A non-empty cell, or undefined (a problem recorded). */
  required(name: string): string | undefined {
    const text = this.text(name);
    if (text !== '') return text;
    this.problems.add(this.at(name), `${name} is empty; it is required`);
    return undefined;
  }

  /** A number, or undefined (a problem recorded). */
  number(name: string): number | undefined {
    const result = readNumber(this.text(name));
    if ('value' in result) return result.value;
    this.problems.add(this.at(name), `${name}: ${result.problem}`);
    return undefined;
  }

  /** A number, or undefined for an empty cell or a missing optional column (or a bad cell: a problem recorded). */
  optionalNumber(name: string): number | undefined {
    return this.text(name) === '' ? undefined : this.number(name);
  }

  /** A four-digit year, as the key the tables use, or undefined (a problem recorded). */
  yearKey(name: string): string | undefined {
    const text = this.required(name);
    if (text === undefined) return undefined;
    if (/^\d{4}$/.test(text)) return text;
    this.problems.add(this.at(name), `${name}: ${JSON.stringify(text)} is not a four-digit year`);
    return undefined;
  }

  /** Records a problem about this row's cell. */
  problem(name: string, problem: string): void {
    this.problems.add(this.at(name), problem);
  }
}

/**
 * Checks the header against a format's columns (every required one present, nothing unknown or repeated) and
 * returns a reader per row.
 */
export function rowReaders(
  csv: CsvFile,
  kindLabel: string,
  spec: readonly ColumnSpec[],
  problems: Problems,
): CsvRowReader[] {
  const known = new Map(spec.map((column) => [column.name, column]));
  const columns = new Map<string, number>();
  csv.header.forEach((name, index) => {
    const position = { line: csv.headerLine, column: index + 1, columnName: name };
    if (!known.has(name)) {
      failAt(
        csv.file,
        position,
        `unknown column ${JSON.stringify(name)}; the columns of a ${kindLabel} CSV are ${spec.map((c) => c.name).join(', ')}`,
      );
    }
    if (columns.has(name)) failAt(csv.file, position, `column ${JSON.stringify(name)} appears twice`);
    columns.set(name, index);
  });
  const missing = spec
    .filter((column) => column.required && !columns.has(column.name))
    .map((column) => column.name);
  if (missing.length > 0)
    failAt(
      csv.file,
      { line: csv.headerLine },
      `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of a ${kindLabel} CSV`,
    );
  return csv.rows.map((row) => new CsvRowReader(columns, problems, row));
}
