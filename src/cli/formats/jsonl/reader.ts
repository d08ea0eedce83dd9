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
