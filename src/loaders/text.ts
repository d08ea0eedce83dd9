import type { FilePosition } from '../datasets/errors';
import { DatasetError } from '../datasets/errors';

/** Shared helpers of the loaders: positions in text, numbers in cells, content versions. */

/** `line 12, column 3 (kgco2e)`, or `line 12` without a column. */
export function describePosition(position: FilePosition): string {
  if (position.column === undefined) return `line ${position.line}`;
  return `line ${position.line}, column ${position.column}${position.columnName === undefined ? '' : ` (${position.columnName})`}`;
}

/** Throws a {@link DatasetError} at a position in a file. */
export function failAt(file: string, position: FilePosition, problem: string): never {
  throw new DatasetError(file, describePosition(position), problem, position);
}

/** 1-based line and column of a character offset. */
export function positionOfOffset(text: string, offset: number): FilePosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number written as a plain decimal (`12`, `-0.5`, `1.2e-5`), or a reason it is not one. Decimal commas,
 * thousands separators, `NaN`, `N/A` and values beyond the double range are refused rather than guessed.
 */
export function readNumber(text: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'empty; a number is required' };
  if (!DECIMAL.test(trimmed)) {
    const hint = /^[+-]?\d+,\d+$/.test(trimmed) ? ' (write decimals with a point, not a comma)' : '';
    return { problem: `${JSON.stringify(trimmed)} is not a number${hint}` };
  }
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { problem: `${trimmed} is out of range` };
  if (underflows(trimmed, value)) return { problem: tooSmall(trimmed) };
  return { value };
}

/** True when decimal text that is not zero reads as the double 0 (`1e-400`). */
export const underflows = (text: string, value: number): boolean =>
  value === 0 && /[1-9]/.test(text.replace(/[eE].*$/, ''));

/** The problem of a number below the double range. */
export const tooSmall = (text: string): string =>
  `${text} is too small to be read as a number (it would be 0); write 0 or a value of at least 5e-324`;

/**
 * The first number in JSON text that is not zero but reads as 0 (`1e-400`), with its offset; undefined when
 * there is none. Only text with an exponent of three digits below zero is scanned, so this costs nothing on
 * ordinary files.
 */
export function underflowingJsonNumber(json: string): { offset: number; text: string } | undefined {
  if (!/[eE]-0*[1-9]\d\d|0{300}/.test(json)) return undefined;
  const number = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  for (let index = 0; index < json.length; index++) {
    const code = json.charCodeAt(index);
    if (code === 34) {
      // A string: skip to its closing quote.
      for (index++; index < json.length && json.charCodeAt(index) !== 34; index++) {
        if (json.charCodeAt(index) === 92) index++;
      }
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      number.lastIndex = index;
      const match = number.exec(json);
      if (match === null) continue;
      if (underflows(match[0], Number(match[0]))) return { offset: index, text: match[0] };
      index += match[0].length - 1;
    }
  }
  return undefined;
}

/** Throws at the first number of parsed JSON text that read as 0 though it is not zero. */
export function refuseUnderflow(json: string, file: string): void {
  const found = underflowingJsonNumber(json);
  if (found !== undefined) failAt(file, positionOfOffset(json, found.offset), tooSmall(found.text));
}

/** Text split into lines (LF or CRLF), without a trailing empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Drops a UTF-8 byte order mark. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
