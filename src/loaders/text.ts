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
  return { value };
}

/** Text split into lines (LF or CRLF), without a trailing empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Drops a UTF-8 byte order mark. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
