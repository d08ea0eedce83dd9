import { isLosslessNumber, stringify as stringifyJson } from 'lossless-json';
import { decimal, toPlainString } from '../core/decimal';
import type { Notice } from '../spend/notices';
import { HAS_NUMBER_TEXT } from './jsonl-records';
import { RESULT_COLUMNS, type RowOutcome } from './outcome';

/**
 * Output rows of a batch file: the input columns, then {@link RESULT_COLUMNS}, encoded a chunk at a time. An
 * encoder only turns rows into text; where the text goes (atomically, resumably) is output-file.ts's business, so
 * those guarantees hold for every format. A new format is one more entry in {@link ENCODERS}.
 */

/** The result columns of a row: an outcome, or an error. */
export type ResultFields = { [K in (typeof RESULT_COLUMNS)[number]]: unknown };

export function resultFields(
  outcome: RowOutcome | undefined,
  error?: { code: string; message: string },
): ResultFields {
  return {
    co2e: outcome?.co2e ?? null,
    co2e_unit: outcome?.co2e_unit ?? null,
    activity_value: outcome?.activity_value ?? null,
    activity_unit: outcome?.activity_unit ?? null,
    factor_id: outcome?.factor_id ?? null,
    factor_name: outcome?.factor_name ?? null,
    factor_source: outcome?.factor_source ?? null,
    notices: outcome?.notices ?? [],
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
  };
}

/** One output row: the input's values (pass-through columns) and its result. */
export interface OutputRow {
  input: Readonly<Record<string, unknown>>;
  result: ResultFields;
}

export interface EncoderOptions {
  /** The input columns the output keeps, in order (CSV needs them up front; JSON Lines keeps each row's keys). */
  columns: readonly string[];
  /** CSV: prefix pass-through cells that a spreadsheet would run as a formula with `'` (the default). */
  neutraliseFormulas: boolean;
}

/** Turns rows into the output's text. `header` is written once, before the first chunk. */
export interface RowEncoder {
  readonly header: string;
  encode(rows: readonly OutputRow[]): string;
}

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/** The input columns an output keeps: those not named like a result column (which the result replaces). */
export const passThroughColumns = (columns: readonly string[]): string[] =>
  columns.filter((name) => !RESULT_NAMES.has(name));

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
  const text = String(value);
  return text.includes('e') ? toPlainString(decimal(value)) : text;
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
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A pass-through value as CSV text: strings as they are, numbers as their input text, nested values as JSON. */
function inputCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isLosslessNumber(value)) return (value as { value: string }).value;
  return stringifyJson(value) ?? '';
}

function resultCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return plainDecimal(value);
  return String(value);
}

/** CSV: the notices column holds the notice codes, `;`-separated (JSON Lines has the full notices). */
const noticeCodes = (notices: unknown) => (notices as Notice[]).map((notice) => notice.code).join(';');

const NEEDS_QUOTES = /[",\n\r]/;

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
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly string[]) => `${cells.map(csvField).join(',')}\n`;

function csvEncoder({ columns, neutraliseFormulas }: EncoderOptions): RowEncoder {
  const guard = neutraliseFormulas ? neutraliseFormula : (text: string) => text;
  return {
    header: csvLine([...columns.map(guard), ...RESULT_COLUMNS]),
    encode(rows) {
      let text = '';
      for (const { input, result } of rows) {
        const cells = columns.map((name) => guard(inputCell(input[name])));
        for (const name of RESULT_COLUMNS)
          cells.push(name === 'notices' ? noticeCodes(result.notices) : resultCell(result[name]));
        text += csvLine(cells);
      }
      return text;
    },
  };
}

/**
 * JSON Lines: each input object (result-named keys replaced) with the result fields after it. Numbers that JSON
 * would change (`1e999`, `1.0`, 20-digit ids) were read as their text and are written as that text.
 */
function jsonlEncoder(_options: EncoderOptions): RowEncoder {
  return {
    header: '',
    encode(rows) {
      let text = '';
      for (const { input, result } of rows) {
        const row: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(input)) if (!RESULT_NAMES.has(key)) row[key] = value;
        const output = { ...row, ...result };
        text += `${HAS_NUMBER_TEXT in input ? stringifyJson(output) : JSON.stringify(output)}\n`;
      }
      return text;
    },
  };
}

/** Output formats by name. */
export const ENCODERS = {
  csv: csvEncoder,
  jsonl: jsonlEncoder,
} as const satisfies Record<string, (options: EncoderOptions) => RowEncoder>;
