import { stringify as stringifyJson } from 'lossless-json';
import { type EncoderOptions, RESULT_COLUMNS, type RowEncoder } from '../output-row';
import { HAS_NUMBER_TEXT } from './reader';

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/**
 * JSON Lines: each input object (result-named keys replaced) with the result fields after it. Numbers that JSON
 * would change (`1e999`, `1.0`, 20-digit ids) were read as their text and are written as that text.
 */
export function jsonlEncoder({ resultColumns }: EncoderOptions): RowEncoder {
  const names = resultColumns === undefined ? RESULT_NAMES : new Set(resultColumns);
  const line = (input: Readonly<Record<string, unknown>>, result: Readonly<Record<string, unknown>>) => {
    // No prototype: a key named `__proto__` is written like any other.
    const output: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of Object.entries(input)) if (!names.has(key)) output[key] = value;
    if (resultColumns === undefined)
      // A row's outcome as the calculator gave it: each generic column, null where it has none.
      for (const name of RESULT_COLUMNS) output[name] = result[name] ?? null;
    else for (const [key, value] of Object.entries(result)) output[key] = value;
    return `${HAS_NUMBER_TEXT in input ? stringifyJson(output) : JSON.stringify(output)}\n`;
  };
  return {
    header: '',
    line,
    encode(rows) {
      let text = '';
      for (const { input, result } of rows) text += line(input, result);
      return text;
    },
  };
}
