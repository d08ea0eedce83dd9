import { isLosslessNumber } from 'lossless-json';
import { EmissionsError, MAX_MESSAGE_CHARS } from '../../core/errors';

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

/** A plain decimal number written with a decimal comma (`1234,50`; Excel's `1,5E+03`). */
export const DECIMAL_COMMA = /^[+-]?(?:\d+(?:,\d*)?|,\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a cell spells, strictly: a plain decimal, with a decimal comma instead of the point when
 * `decimalComma` is set (then a point is refused, as it may be a thousands separator).
 *
 * @throws {@link EmissionsError} `invalid_request` for anything else, naming the column and, when the cell is a number
 *   written with thousands separators or a currency symbol, the number meant ({@link meantNumber}).
 *
 * @example
 * ```ts
 * strictNumber('1234,50', 'money', true); // 1234.5
 * strictNumber('1,234.50', 'money'); // throws: 'money' must be a number, got '1,234.50'; did you mean 1234.50?
 * ```
 */
export function strictNumber(text: string, field: string, decimalComma = false): number {
  const plain = decimalComma
    ? DECIMAL_COMMA.test(text)
      ? text.replace(',', '.')
      : undefined
    : DECIMAL.test(text)
      ? text
      : undefined;
  const value = plain === undefined ? Number.NaN : Number(plain);
  if (!Number.isFinite(value)) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    const head = `'${field}' must be a number, got '${shown}'`;
    const meant = meantNumber(text, decimalComma);
    // The suggestion, then its reasons, as far as the message stays short.
    const message = [
      meant === undefined ? undefined : `${head}; ${meant}`,
      meant === undefined ? undefined : `${head}; ${meant.replace(/ \(.*\)$/, '')}`,
      `${head}.`,
    ].find((text) => text !== undefined && text.length <= MAX_MESSAGE_CHARS) as string;
    throw new EmissionsError('invalid_request', message, { path: field });
  }
  return value;
}

const CURRENCY_SYMBOL = /^[€$£¥₹₩₽₺¢]|^(?:[A-Z]{3}|[A-Z]{2}\$|R\$|kr|zł|Fr\.?)(?=[\s\d.,-])/;
const CURRENCY_SUFFIX = /(?:[€$£¥₹₩₽₺¢]|(?<=[\d\s])(?:[A-Z]{3}|kr|zł|Fr\.?))$/;
const DECIMAL_MARK_HINT = (decimalComma: boolean) =>
  decimalComma
    ? 'the file is read with decimal commas; --no-decimal-comma for points'
    : 'a decimal point; --decimal-comma for commas';
/** Spaces spreadsheets group digits with: space, no-break space, narrow no-break space (French), thin space. */
const GROUP_SPACES = /[ \u00a0\u202f\u2009]/g;

/**
 * What a number cell that is not a plain decimal most likely meant, as a suggestion for its message: thousands
 * separators (`1,234.50`, `1.234,50`, `1 234,50`, `1'234.50`), a currency symbol or code (`€1234`, `1234 EUR`),
 * a decimal comma in a file without `--decimal-comma` (`1234,50`), accounting brackets (`(12.50)`). The number is
 * written as the file should write it (with a decimal comma under `decimalComma`). Undefined when the cell is
 * nothing like a number.
 *
 * @example
 * ```ts
 * meantNumber('1,234.50', false); // 'did you mean 1234.50? (no thousands separators)'
 * meantNumber('€1234', false); // 'did you mean 1234? (no currency symbol; the currency has its own column)'
 * ```
 */
export function meantNumber(text: string, decimalComma: boolean): string | undefined {
  let body = text.trim();
  const why: string[] = [];
  let negative = false;
  const accounting = /^\((.*)\)$/.exec(body);
  if (accounting !== null) {
    body = (accounting[1] as string).trim();
    negative = true;
    why.push('a minus sign, not brackets');
  }
  if (/^[-+]/.test(body)) {
    negative = negative !== (body[0] === '-');
    body = body.slice(1).trim();
  }
  const withoutCurrency = body.replace(CURRENCY_SYMBOL, '').replace(CURRENCY_SUFFIX, '').trim();
  if (withoutCurrency !== body) {
    why.push('no currency symbol; the currency has its own column');
    body = withoutCurrency;
    if (/^[-+]/.test(body)) {
      negative = negative !== (body[0] === '-');
      body = body.slice(1);
    }
  }
  if (!/^\d[\d.,'\u2019 \u00a0\u202f\u2009]*$/.test(body) || !/\d$/.test(body)) return undefined;
  const point = decimalComma ? ',' : '.';
  const other = decimalComma ? '.' : ',';
  let whole = body;
  let fraction = '';
  let alternative: string | undefined;
  const lastPoint = body.lastIndexOf(point);
  const lastOther = body.lastIndexOf(other);
  // The decimal mark is the last of '.' and ',' when both appear; the other then groups thousands.
  const decimalAt =
    lastPoint >= 0 && lastOther >= 0
      ? Math.max(lastPoint, lastOther)
      : lastPoint >= 0 && body.indexOf(point) === lastPoint
        ? lastPoint
        : -1;
  const groupsOnly = (digits: string) => /^\d{1,3}(?:[.,'\u2019 \u00a0\u202f\u2009]\d{3})*$/.test(digits);
  if (decimalAt >= 0) {
    whole = body.slice(0, decimalAt);
    fraction = body.slice(decimalAt + 1);
    if (body[decimalAt] !== point) why.push(DECIMAL_MARK_HINT(decimalComma));
  } else if (
    lastOther >= 0 &&
    body.indexOf(other) === lastOther &&
    !/['\u2019 \u00a0\u202f\u2009]/.test(body)
  ) {
    // One mark of the other kind: a decimal mark (1234,50) unless three digits follow (1,234), which reads both ways.
    const after = body.slice(lastOther + 1);
    if (after.length === 3) {
      alternative = `${body.slice(0, lastOther)}${point}${after}`;
    } else {
      whole = body.slice(0, lastOther);
      fraction = after;
      why.push(DECIMAL_MARK_HINT(decimalComma));
    }
  }
  if (!/^\d*$/.test(fraction) || !(groupsOnly(whole) || /^\d+$/.test(whole))) return undefined;
  const digits = whole.replace(/[.,'\u2019]/g, '').replace(GROUP_SPACES, '');
  if (alternative !== undefined) why.push(`'${other}' may group thousands or mark decimals`);
  else if (digits !== whole) why.unshift('no thousands separators');
  if (why.length === 0 && alternative === undefined) return undefined;
  const sign = negative ? '-' : '';
  const meant = `${sign}${digits}${fraction === '' ? '' : `${point}${fraction}`}`;
  if (meant.length > 40) return undefined; // no number anyone means, and a message stays short
  const or = alternative === undefined ? '' : ` or ${sign}${alternative}`;
  return `did you mean ${meant}${or}? (${why.join('; ')})`;
}

export type CellSource = 'csv' | 'jsonl';

/**
 * A JSON value with each number kept as text (formats/jsonl/reader.ts) replaced by `as(text)`: plain JavaScript
 * numbers for a request (`Number`), or the text itself for a reader that wants every digit as written (billing reads
 * `3600.0` and a 20-digit project id as their text).
 *
 * @example
 * ```ts
 * jsonNumbers({ usage: { amount: new LosslessNumber('3600.0') } }, String); // { usage: { amount: '3600.0' } }
 * ```
 */
export function jsonNumbers(value: unknown, as: (text: string) => unknown = Number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isLosslessNumber(value)) return as((value as { value: string }).value);
  if (Array.isArray(value)) return value.map((item) => jsonNumbers(item, as));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonNumbers(item, as)]));
}

/**
 * The request value of a cell, or undefined when it is not supplied. `decimalComma`: a CSV number is written with a
 * decimal comma.
 */
export function cellValue(raw: unknown, field: string, source: CellSource, decimalComma = false): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (source === 'jsonl') return jsonNumbers(raw);
  const text = String(raw);
  if (text === '') return undefined;
  return NUMERIC_FIELDS.has(field) ? strictNumber(text, field, decimalComma) : text;
}

/**
 * A row whose text cells that are decimal-comma numbers (`0,0125`, `-3,5`) are written with a point instead, for
 * readers that take every number with a point (the billing estimator reads whichever columns its format names).
 * The row itself when no cell changes.
 *
 * @example
 * ```ts
 * pointDecimals({ cost: '12,50', service: 'Compute, EU' }); // { cost: '12.50', service: 'Compute, EU' }
 * ```
 */
export function pointDecimals(values: Record<string, unknown>): Record<string, unknown> {
  let result: Record<string, unknown> | undefined;
  for (const key in values) {
    const value = values[key];
    if (typeof value !== 'string' || !value.includes(',') || !DECIMAL_COMMA.test(value)) continue;
    result ??= Object.assign(Object.create(null) as Record<string, unknown>, values);
    result[key] = value.replace(',', '.');
  }
  return result ?? values;
}

/** Copies the supplied fields of `values` named in `fields` into a request object. */
export function pickFields(
  values: Record<string, unknown>,
  fields: readonly string[],
  source: CellSource,
  decimalComma = false,
): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(values, field)) continue;
    const value = cellValue(values[field], field, source, decimalComma);
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
