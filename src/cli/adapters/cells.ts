import { isLosslessNumber } from 'lossless-json';
import { EmissionsError } from '../../core/errors';

/**
 * Input cells to request fields. CSV cells are text: an empty cell means "not supplied" and a numeric field must
 * be a plain decimal number. JSON Lines values are passed as they are (the calculator validates them); `null`
 * means "not supplied".
 */

/** Request fields that are numbers, in every calculator. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
  'spend_year',
  'money',
  'tax_margin',
  'trade_margin',
  'transport_margin',
  'cpu_count',
  'average_vcpu_utilization',
  'duration',
  'data',
  'instance_count',
  'replication_factor',
  'year',
]);

/** A plain decimal number: optional sign, digits with an optional point, optional exponent. No `1,000`, no `0x10`. */
export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a cell spells, strictly.
 *
 * @throws {@link EmissionsError} `invalid_request` for anything else, naming the column.
 */
export function strictNumber(text: string, field: string): number {
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    throw new EmissionsError('invalid_request', `'${field}' must be a number, got '${shown}'.`, {
      path: field,
    });
  }
  return value;
}

export type CellSource = 'csv' | 'jsonl';

/** A JSON value with numbers kept as text (formats/jsonl/reader.ts) as plain JavaScript numbers, for a request. */
function jsonNumbers(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isLosslessNumber(value)) return Number((value as { value: string }).value);
  if (Array.isArray(value)) return value.map(jsonNumbers);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonNumbers(item)]));
}

/** The request value of a cell, or undefined when it is not supplied. */
export function cellValue(raw: unknown, field: string, source: CellSource): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (source === 'jsonl') return jsonNumbers(raw);
  const text = String(raw);
  if (text === '') return undefined;
  return NUMERIC_FIELDS.has(field) ? strictNumber(text, field) : text;
}

/** Copies the supplied fields of `values` named in `fields` into a request object. */
export function pickFields(
  values: Record<string, unknown>,
  fields: readonly string[],
  source: CellSource,
): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(values, field)) continue;
    const value = cellValue(values[field], field, source);
    if (value !== undefined) request[field] = value;
  }
  return request;
}

/**
 * The number a request field's value stands for when it is a plain number in any form a file may hold it: a number,
 * a JSON Lines number kept as text, or a text cell spelling a plain decimal; undefined otherwise (empty, not a
 * number, or not a numeric field). Parquet's writer types request columns with it, and Parquet input decodes text
 * cells of numeric fields with it, so CSV → Parquet → CSV gives the same requests.
 */
export function numericCell(raw: unknown, field: string): number | undefined {
  if (!NUMERIC_FIELDS.has(field)) return undefined;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'bigint') return Number(raw);
  if (isLosslessNumber(raw)) return Number((raw as { value: string }).value);
  if (typeof raw === 'string' && DECIMAL.test(raw)) {
    const value = Number(raw);
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}

/**
 * A Parquet input row's values with the text cells of numeric request fields read as CSV reads them (a plain
 * decimal becomes its number, an empty cell is not supplied), for files whose numbers were written as text.
 *
 * @throws {@link EmissionsError} `invalid_request` for a text cell of a numeric field that is no plain decimal, with
 * CSV's message (`'money' must be a number, got 'lots'.`), so a CSV → Parquet → CSV row fails alike.
 */
export function parquetRowValues(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const decoded: Record<string, unknown> = { ...values };
  for (const [field, raw] of Object.entries(values)) {
    if (typeof raw !== 'string' || !NUMERIC_FIELDS.has(field)) continue;
    if (raw === '') decoded[field] = null;
    else {
      decoded[field] = numericCell(raw, field) ?? strictNumber(raw, field);
    }
  }
  return decoded;
}
