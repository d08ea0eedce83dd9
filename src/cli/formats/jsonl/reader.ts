import { LosslessNumber, parse } from 'lossless-json';
import type { PhysicalLine } from '../lines';

/**
 * JSON Lines records: one JSON object per line; blank lines are skipped. A number that a JavaScript number would
 * not spell the same way (`1e999`, `1.0`, `12345678901234567890`) is kept as its text (a `LosslessNumber`), so
 * it passes through unchanged; the request fields turn it into a number (adapters/cells.ts).
 */

const keepNumber = (text: string): number | LosslessNumber => {
  const value = Number(text);
  return String(value) === text ? value : new LosslessNumber(text);
};

/**
 * Whether a line may hold a number that a JavaScript number spells differently: an exponent, 16 or more digits (around a point or not), a
 * fraction ending in 0 or starting with six zeros, or `-0`. False positives (such text inside a string) only
 * cost the slower, exact parse.
 */
const MAYBE_CHANGED_NUMBER = /[eE][+-]?\d|(?:\d\.?){16}|\.\d*0(?!\d)|\.0{6}|-0(?![.\d])/;

/** Set on an object read with numbers kept as text, so the writer knows to write them back as such. */
export const HAS_NUMBER_TEXT: unique symbol = Symbol('co2e-engine.hasNumberText');

/**
 * Parses one JSON Lines line into its object, or why it is not one.
 *
 * @example
 * ```ts
 * parseJsonLine('{"id": 1e999}', 4); // { line: 4, values: { id: LosslessNumber('1e999') } }
 * ```
 */
export function parseJsonLine(text: string, line: number): JsonRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'object' && value !== null && keyMarks(text) > keyCount(value)) {
      // More `"…":` in the text than keys in the object: a key given twice (JSON.parse kept its last value), or a
      // string holding `\":`; the exact scan tells which.
      const twice = duplicateKey(text);
      if (twice !== undefined)
        return { line, error: `line ${line}: the record gives the key '${twice}' twice.` };
    }
    if (MAYBE_CHANGED_NUMBER.test(text) && typeof value === 'object' && value !== null) {
      value = parse(text, null, keepNumber);
      (value as Record<symbol, boolean>)[HAS_NUMBER_TEXT] = true;
    }
  } catch (error) {
    return { line, error: `line ${line}: not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, error: `line ${line}: expected a JSON object, found ${describe(value)}.` };
  }
  return { line, values: value as Record<string, unknown> };
}

const isBlank = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/**
 * How many colons of `text` follow a quote (blanks aside): at least one per key of a JSON text, as a key is a string
 * then a colon; more only where a string holds an escaped quote then a colon (`"say \":\""`). One indexOf per colon,
 * so a record is checked for keys given twice at about the cost of a search through it.
 */
function keyMarks(text: string): number {
  let marks = 0;
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let before = colon - 1;
    while (isBlank(text.charCodeAt(before))) before--;
    if (text.charCodeAt(before) === 34 /* " */) marks++;
  }
  return marks;
}

/** The keys of a parsed JSON value, those of its nested objects included. */
function keyCount(value: object): number {
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value as unknown[])
      if (typeof item === 'object' && item !== null) count += keyCount(item);
    return count;
  }
  for (const key in value) {
    count++;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) count += keyCount(item);
  }
  return count;
}

/**
 * The first key that an object of the JSON text `text` (valid JSON) gives twice, as a path (`activity.code`,
 * `tags[].a`), or undefined. Keys are compared as JSON.parse reads them (`"mon\u0065y"` is `money`).
 */
function duplicateKey(text: string): string | undefined {
  // Per open object its keys so far, per open array undefined; and the path of names to each.
  const open: Array<Set<string> | undefined> = [];
  const path: string[] = [];
  let name = '';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 /* " */) {
      let end = index + 1;
      while (text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 /* \ */ ? 2 : 1;
      let next = end + 1;
      while (isBlank(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === 58 /* : */) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        const keys = open[open.length - 1];
        const at = path[path.length - 1];
        name = at === undefined || at === '' ? key : `${at}.${key}`;
        if (keys?.has(key) === true) return name;
        keys?.add(key);
      }
      index = end;
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      open.push(code === 123 ? new Set() : undefined);
      if (code === 91) name = `${name}[]`;
      path.push(name);
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      open.pop();
      path.pop();
      name = path[path.length - 1] ?? '';
    }
  }
  return undefined;
}

export type JsonRecord = { line: number; values: Record<string, unknown> } | { line: number; error: string };

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/**
 * The records of a JSON Lines input, one per non-blank line: its object, or the line's error (too long, not UTF-8,
 * not JSON, not an object), so a bad line fails alone.
 *
 * @example
 * ```ts
 * for await (const record of readJsonlRecords(physicalLines(stream), 1_000_000)) console.log(record.line);
 * ```
 */
export async function* readJsonlRecords(
  lines: AsyncIterable<PhysicalLine>,
  maxLineChars: number,
): AsyncGenerator<JsonRecord> {
  for await (const { text, line, tooLong, invalidUtf8 } of lines) {
    if (tooLong) {
      yield { line, error: `line ${line}: the line is longer than ${maxLineChars} characters.` };
      continue;
    }
    if (text.trim() === '') continue;
    if (invalidUtf8) {
      yield { line, error: `line ${line}: the line is not valid UTF-8; save the file as UTF-8.` };
      continue;
    }
    yield parseJsonLine(text, line);
  }
}
