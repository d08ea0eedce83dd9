import { stringify as stringifyJson } from 'lossless-json';
import { type EncoderOptions, RESULT_COLUMNS, type RowEncoder } from '../output-row';
import { HAS_NUMBER_TEXT } from './reader';

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

/**
 * JSON Lines: each input object (result-named keys replaced) with the result fields after it. Numbers that JSON
 * would change (`1e999`, `1.0`, 20-digit ids) were read as their text and are written as that text.
 */
export function jsonlEncoder(_options: EncoderOptions): RowEncoder {
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
