import { type Decimal, decimal } from '../core/decimal';
import type { FilePosition } from '../datasets/errors';
import type { Problems } from './problems';
import { readNumber } from './text';

/** A number cell read exactly: its text as written (for messages and content versions), its value, its place. */
export interface DecimalCell {
  readonly text: string;
  readonly value: Decimal;
  readonly position: FilePosition;
}

/**
 * Reads a cell as an exact decimal (`12`, `-0.5`, `2.5E+05`), or records why it is not one, worded by
 * {@link readNumber} after the label (`multiplier "n/a" is not a number`), and gives undefined: the one way the
 * loaders turn text into a `Decimal`, so no value is ever a cast or a stand-in.
 *
 * @example
 * ```ts
 * const problems = new Problems('impacts/M.txt');
 * decimalCell(' 1265800 ', { line: 3, column: 2 }, 'multiplier', problems)?.text; // '1265800'
 * decimalCell('n/a', { line: 3, column: 3 }, 'multiplier', problems); // undefined, a problem recorded
 * ```
 */
export function decimalCell(
  text: string,
  position: FilePosition,
  label: string,
  problems: Problems,
): DecimalCell | undefined {
  const trimmed = text.trim();
  const checked = readNumber(trimmed);
  if ('problem' in checked) {
    problems.add(position, `${label} ${checked.problem}`);
    return undefined;
  }
  // readNumber takes a leading `+`, which the decimal reader does not.
  return { text: trimmed, value: decimal(trimmed.replace(/^\+/, '')), position };
}
