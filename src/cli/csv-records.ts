import { parse } from 'csv-parse/sync';
import type { PhysicalLine } from './lines';

/**
 * CSV records from physical lines. A record ends at a line end outside a quoted field (which may span lines);
 * each record is parsed on its own by csv-parse, so a malformed record fails alone and the next line starts
 * afresh. (csv-parse's stream, after a quote error, swallows every following record.) A quote left open for more
 * than `maxRecordChars` fails the line that opened it, and parsing resumes on the line after.
 */

export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

/**
 * Whether a quoted field is still open at the end of `text`, given whether one was open at its start. A quote
 * opens a field only at the field's start (after optional spaces), as in RFC 4180; a quote inside an unquoted
 * field (`27" monitor`) is a literal and opens nothing, so it cannot glue the following lines into one record.
 */
export function quoteOpenAfter(text: string, openAtStart: boolean): boolean {
  let open = openAtStart;
  let fieldStart = !openAtStart;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (open) {
      if (character !== '"') continue;
      if (text[index + 1] === '"')
        index++; // an escaped quote
      else open = false;
    } else if (character === ',') {
      fieldStart = true;
    } else if (character === '"' && fieldStart) {
      open = true;
      fieldStart = false;
    } else if (character !== ' ' && character !== '\t') {
      fieldStart = false;
    }
  }
  return open;
}

function parseRecord(text: string, line: number): CsvRecord {
  let records: string[][];
  try {
    // relax_quotes: a quote inside an unquoted field is a literal (`27" monitor`), as quoteOpenAfter reads it.
    records = parse(text, {
      trim: true,
      relax_quotes: true,
      relax_column_count: false,
      skip_empty_lines: false,
    });
  } catch (error) {
    // csv-parse counts lines from the record's start; report them in the file's numbering.
    const message = (error as Error).message.replace(
      /\b(at|on) line (\d+)/g,
      (_, word: string, relative: string) => {
        return `${word} line ${line + Number(relative) - 1}`;
      },
    );
    return { line, error: `line ${line}: ${message}` };
  }
  if (records.length !== 1)
    return { line, error: `line ${line}: expected one CSV record, found ${records.length}.` };
  return { line, fields: records[0] as string[] };
}

export async function* readCsvRecords(
  lines: AsyncIterable<PhysicalLine>,
  maxRecordChars: number,
): AsyncGenerator<CsvRecord> {
  let pending: PhysicalLine[] = [];
  let openQuote = false;
  let chars = 0;
  const out: CsvRecord[] = [];

  const unclosed = (reason: string) => {
    const [first, ...rest] = pending;
    pending = [];
    openQuote = false;
    chars = 0;
    if (first === undefined) return;
    out.push({ line: first.line, error: `line ${first.line}: ${reason}` });
    for (const line of rest) take(line); // resume on the line after the one that opened the quote
  };

  function take(line: PhysicalLine): void {
    if (line.tooLong) {
      const start = pending[0]?.line ?? line.line;
      pending = [];
      openQuote = false;
      chars = 0;
      out.push({
        line: start,
        error: `line ${start}: the record is longer than ${maxRecordChars} characters.`,
      });
      return;
    }
    if (pending.length === 0 && line.text.trim() === '') return; // empty lines are skipped
    pending.push(line);
    chars += line.text.length + 1;
    openQuote = quoteOpenAfter(line.text, openQuote);
    if (!openQuote) {
      const start = pending[0] as PhysicalLine;
      const invalid = pending.some((part) => part.invalidUtf8);
      const text = pending.map((part) => part.text).join('\n');
      pending = [];
      chars = 0;
      out.push(
        invalid
          ? {
              line: start.line,
              error: `line ${start.line}: the line is not valid UTF-8; save the file as UTF-8.`,
            }
          : parseRecord(text, start.line),
      );
    } else if (chars > maxRecordChars) {
      unclosed(`a quoted field is not closed within ${maxRecordChars} characters.`);
    }
  }

  for await (const line of lines) {
    take(line);
    yield* out.splice(0);
  }
  while (pending.length > 0) {
    unclosed('a quoted field is not closed at the end of the file.');
    yield* out.splice(0);
  }
}
