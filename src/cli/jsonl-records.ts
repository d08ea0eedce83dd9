import type { PhysicalLine } from './lines';

/** JSON Lines records: one JSON object per line; blank lines are skipped. */

export type JsonRecord = { line: number; values: Record<string, unknown> } | { line: number; error: string };

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

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
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `line ${line}: not valid JSON: ${(error as Error).message}` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { line, error: `line ${line}: expected a JSON object, found ${describe(value)}.` };
      continue;
    }
    yield { line, values: value as Record<string, unknown> };
  }
}
