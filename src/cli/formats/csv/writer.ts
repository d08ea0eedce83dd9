import { isLosslessNumber, stringify as stringifyJson } from 'lossless-json';
import { numberText } from '../../../core/number-text';
import type { Notice } from '../../../spend/notices';
import { type EncoderOptions, RESULT_COLUMNS, type RowEncoder } from '../output-row';

/** CSV output: the pass-through columns, then the result columns; numbers in plain decimal notation. */

/**
 * A number as a plain decimal, never in exponent notation: the shortest decimal that reads back as the same
 * double (`4.1771632e-10` → `0.00000000041771632`), so nothing is lost and every spreadsheet reads it.
 *
 * @example
 * ```ts
 * plainDecimal(4.1771632e-10); // '0.00000000041771632'
 * ```
 */
export function plainDecimal(value: number): string {
  return plainDecimalText(numberText(value));
}

/**
 * {@link plainDecimal} of a number whose {@link numberText} the caller has already (the run summary reads it too).
 *
 * @example
 * ```ts
 * plainDecimalText('4.1771632e-10'); // '0.00000000041771632'
 * ```
 */
export function plainDecimalText(text: string): string {
  const e = text.indexOf('e');
  if (e < 0) return text;
  // `numberText` wrote d[.ddd]e±x, the shortest digits that read back as the double: move the point by moving text.
  const negative = text.charCodeAt(0) === 45; /* - */
  const mantissa = text.slice(negative ? 1 : 0, e);
  const point = mantissa.indexOf('.');
  const digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  const wholeDigits = (point < 0 ? mantissa.length : point) + Number(text.slice(e + 1));
  const plain =
    wholeDigits <= 0
      ? `0.${'0'.repeat(-wholeDigits)}${digits}`
      : wholeDigits >= digits.length
        ? digits + '0'.repeat(wholeDigits - digits.length)
        : `${digits.slice(0, wholeDigits)}.${digits.slice(wholeDigits)}`;
  return negative ? `-${plain}` : plain;
}

/**
 * Cells a spreadsheet runs as a formula (OWASP's list, and the full-width forms Apple Numbers reads the same way),
 * unless the cell is just a number such as `-12.5`.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A pass-through cell made inert for spreadsheets: `=HYPERLINK(…)` becomes `'=HYPERLINK(…)`. Plain numbers
 * (`-12.5`, `+3`) are left alone, so negative amounts stay numbers.
 *
 * @example
 * ```ts
 * neutraliseFormula('=1+1'); // "'=1+1"
 * neutraliseFormula('-12.5'); // '-12.5'
 * ```
 */
export function neutraliseFormula(text: string): string {
  if (text === '') return text;
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A pass-through value as CSV text: strings as they are, numbers as their input text, nested values as JSON. */
function inputCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return String(value);
  if (isLosslessNumber(value)) return (value as { value: string }).value;
  return stringifyJson(value) ?? '';
}

/**
 * A result cell. Its text comes from data (factor names and sources from a dataset file, units, messages that quote
 * the input), so it is always neutralised, whatever `--allow-formulas` says about pass-through cells. A number is
 * written as its plain decimal, which needs no quoting.
 */
function resultCell(value: unknown, texts: CellTexts): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return plainDecimal(value);
  // An object (an error's detail) as compact JSON, as JSON Lines has it.
  return texts.of(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * A result column's text as its CSV cell: neutralised as a formula, then quoted where needed, as every result text
 * is written (null: an empty cell).
 *
 * @example
 * ```ts
 * resultTextCell('Crops, n.e.c.'); // '"Crops, n.e.c."'
 * resultTextCell(null); // ''
 * ```
 */
export const resultTextCell = (text: string | null): string =>
  text === null ? '' : csvField(neutraliseFormula(text));

/**
 * Result texts as CSV cells, remembered: a ledger's rows repeat the same few factor names, ids, sources, units and
 * margin sources, so each is neutralised and quoted once rather than once per row. Bounded (cleared when full), as
 * error messages that quote the input are all different.
 */
class CellTexts {
  private readonly cells = new Map<string, string>();

  of(text: string): string {
    let cell = this.cells.get(text);
    if (cell === undefined) {
      cell = csvField(neutraliseFormula(text));
      if (this.cells.size >= MAX_CELL_TEXTS) this.cells.clear();
      this.cells.set(text, cell);
    }
    return cell;
  }
}

/** Result texts a {@link CellTexts} keeps: far more than a run's distinct factors, a few hundred KB at most. */
const MAX_CELL_TEXTS = 4096;

/** CSV: the notices column holds the notice codes, `;`-separated (JSON Lines has the full notices). */
function noticeCodes(value: unknown): string {
  const notices = value as Notice[];
  if (notices.length === 0) return '';
  if (notices.length === 1) return (notices[0] as Notice).code;
  return notices.map((notice) => notice.code).join(';');
}

const NEEDS_QUOTES = /[",\n\r]/;
/** Whether a cell may need neutralising or quoting; most cells match neither, and then are written as they are. */
const MAY_CHANGE = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]|[",\n\r]/;

/**
 * A CSV field as csv-stringify writes it with its defaults (tests/cli/output-cells.test.ts checks they agree):
 * quoted, with quotes doubled, when it holds a comma, a quote or a line break. Done here because it is most of
 * the cost of writing a row through the library, and the rule is this one line.
 *
 * @example
 * ```ts
 * csvField('Müller, Berlin'); // '"Müller, Berlin"'
 * ```
 */
export function csvField(text: string): string {
  if (text === '') return text;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly string[]) => `${cells.map(csvField).join(',')}\n`;

/** Whether a UTF-16 code unit starts a cell {@link FORMULA_START} matches (`=`, `+`, `-`, `@`, tab, CR, full-width forms). */
const startsFormula = (code: number): boolean =>
  code === 61 ||
  code === 43 ||
  code === 45 ||
  code === 64 ||
  code === 9 ||
  code === 13 ||
  code === 0xff1d ||
  code === 0xff0b ||
  code === 0xff0d ||
  code === 0xff20;

/**
 * Whether a comma-separated record's text is, cell for cell, what {@link csvEncoder} writes for its cells, so that
 * the output can copy it rather than write each cell again: every quoted cell needs its quotes (it holds a comma or a
 * quote), no unquoted cell holds a quote or starts or ends with what the reader trims, no line end anywhere, and no
 * cell would be made inert as a formula (with
 * `neutralise`; a plain number such as `-12.5` is never made inert). False when unsure: the cells are then written
 * one by one, as always.
 *
 * @example
 * ```ts
 * copiesAsRead('1,"Supplier 1, Ltd",62', true); // true
 * copiesAsRead('1,"plain",62', true); // false: the writer writes plain without quotes
 * copiesAsRead('1,=SUM(A1),62', true); // false: the writer writes '=SUM(A1)
 * ```
 */
export const copiesAsRead = (text: string, neutralise: boolean): boolean =>
  recordFields(text, neutralise, NO_SPANS) >= 0;

const NO_SPANS = new Int32Array(0);

/**
 * {@link copiesAsRead}, with where each cell is: the number of cells of a record the output copies as it is (-1 for
 * any other), the first ones' bounds in `spans` (cell i from `spans[2i]` to `spans[2i + 1]`, a quoted cell's with its
 * quotes), as many as it holds. Such a record is read (reader.ts) to cells that are these texts, a quoted one's
 * without its quotes and with its doubled quotes made single: nothing in it is trimmed, and a quote in it is one of a
 * plain quoted cell's.
 *
 * @example
 * ```ts
 * const spans = new Int32Array(6);
 * recordFields('1,"Supplier 1, Ltd",62', true, spans); // 3; spans: 0 1 2 19 20 22
 * recordFields('1,"plain",62', true, spans); // -1
 * ```
 */
export function recordFields(text: string, neutralise: boolean, spans: Int32Array): number {
  // An empty record is no record to the reader (csv-parse reads none), not one empty cell.
  if (text === '' || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) return -1;
  const room = spans.length;
  let cells = 0;
  let at = 0;
  let quote = text.indexOf('"');
  for (;;) {
    // `at` is the start of a cell.
    const first = text.charCodeAt(at);
    if (first === 34 /* " */) {
      let needsQuotes = false;
      let close = text.indexOf('"', at + 1);
      // A doubled quote is a quote in the cell (which needs the quotes); the cell ends at a single one.
      while (close >= 0 && text.charCodeAt(close + 1) === 34) {
        needsQuotes = true;
        close = text.indexOf('"', close + 2);
      }
      if (close < 0) return -1;
      if (!needsQuotes) {
        const comma = text.indexOf(',', at + 1);
        needsQuotes = comma >= 0 && comma < close;
      }
      if (!needsQuotes || (neutralise && formulaCell(text.slice(at + 1, close)))) return -1;
      if (2 * cells < room) {
        spans[2 * cells] = at;
        spans[2 * cells + 1] = close + 1;
      }
      cells += 1;
      at = close + 1;
      quote = text.indexOf('"', at);
      if (at === text.length) return cells;
      if (text.charCodeAt(at) !== 44 /* , */) return -1;
      at += 1;
      continue;
    }
    const comma = text.indexOf(',', at);
    const end = comma < 0 ? text.length : comma;
    if (quote >= 0 && quote < end) return -1;
    // The reader trims an unquoted cell's spaces, tabs and form feeds, which the writer then does not write.
    if (end > at && (trimmed(first) || trimmed(text.charCodeAt(end - 1)))) return -1;
    if (neutralise && startsFormula(first) && formulaCell(text.slice(at, end))) return -1;
    if (2 * cells < room) {
      spans[2 * cells] = at;
      spans[2 * cells + 1] = end;
    }
    cells += 1;
    if (comma < 0) return cells;
    at = comma + 1;
  }
}

const trimmed = (code: number): boolean => code === 32 || code === 9 || code === 12;

/** Whether {@link neutraliseFormula} changes a cell's text. */
const formulaCell = (text: string): boolean => neutraliseFormula(text) !== text;

/**
 * The CSV row encoder of a run: the input's cells as they came (formulas neutralised when asked, quoted where
 * needed), then the result columns, one line per row.
 *
 * @example
 * ```ts
 * const encode = csvEncoder({ columns: ['id'], neutraliseFormulas: true, resultColumns: undefined });
 * ```
 */
export function csvEncoder({
  columns,
  neutraliseFormulas,
  resultColumns,
  copiesRecords = false,
}: EncoderOptions): RowEncoder {
  const guard = neutraliseFormulas ? neutraliseFormula : (text: string) => text;
  // One test for both rules in the usual case; a cell that may need either goes through both.
  const passThrough = (text: string) => (MAY_CHANGE.test(text) ? csvField(guard(text)) : text);
  const results = resultColumns ?? RESULT_COLUMNS;
  // The generic notices column holds the codes; an adapter's own columns are all plain result cells.
  const notices = resultColumns === undefined ? results.indexOf('notices') : -1;
  const texts = new CellTexts();
  const line = (
    input: Readonly<Record<string, unknown>>,
    result: Readonly<Record<string, unknown>>,
    record?: string,
  ) => {
    // One string per row, appended cell by cell: no array of cells, no join. The input columns are the record's
    // text itself when it is what the cells would be written as (see EncoderOptions.copiesRecords).
    let text = '';
    let separator = '';
    if (copiesRecords && record !== undefined && copiesAsRead(record, neutraliseFormulas)) {
      text = record;
      separator = ',';
    } else
      for (let index = 0; index < columns.length; index++) {
        text += separator + passThrough(inputCell(input[columns[index] as string]));
        separator = ',';
      }
    for (let index = 0; index < results.length; index++) {
      const value = result[results[index] as string];
      text += separator + (index === notices ? texts.of(noticeCodes(value)) : resultCell(value, texts));
      separator = ',';
    }
    return `${text}\n`;
  };
  // The input cells as `line` writes them, comma-separated, for result cells the caller writes (RowEncoder.resultInput).
  const resultInput = (input: Readonly<Record<string, unknown>>, record?: string) => {
    if (copiesRecords && record !== undefined && copiesAsRead(record, neutraliseFormulas)) return record;
    let text = '';
    let separator = '';
    for (let index = 0; index < columns.length; index++) {
      text += separator + passThrough(inputCell(input[columns[index] as string]));
      separator = ',';
    }
    return text;
  };
  return {
    header: csvLine([...columns.map(guard), ...results]),
    line,
    ...(resultColumns === undefined && { resultInput }),
    encode(rows) {
      let text = '';
      for (const { input, result } of rows) text += line(input, result);
      return text;
    },
  };
}
