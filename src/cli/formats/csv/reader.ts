import { parse } from 'csv-parse/sync';
import { LineRecord, type PhysicalLine } from '../lines';

/**
 * CSV records from physical lines. A record ends at a line end outside a quoted field (which may span lines);
 * each record is parsed on its own by csv-parse, so a malformed record fails alone and the next line starts
 * afresh. (csv-parse's stream, after a quote error, swallows every following record.) A quote left open for more
 * than `maxRecordChars` fails the line that opened it, and parsing resumes on the line after.
 */

export type CsvRecord =
  { line: number; fields: string[] } | { line: number; error: string; fields?: readonly string[] };

/**
 * A record's text, not parsed yet, or why its lines do not make a record. `salvage` is text whose leading fields
 * can still be read (the line that opened a never-closed quote), so the row keeps its identifying columns.
 */
export type CsvRecordText =
  | { line: number; text: string; error?: undefined }
  | {
      line: number;
      error: string;
      salvage?: string;
      /** The cells of a line too long to keep whole, oversized ones emptied (lines.ts). */
      fields?: readonly string[];
      text?: undefined;
    };

/**
 * Whether a quoted field is still open at the end of `text`, given whether one was open at its start. A quote
 * opens a field only at the field's start (after optional spaces), as in RFC 4180; a quote inside an unquoted
 * field (`27" monitor`) is a literal and opens nothing, so it cannot glue the following lines into one record.
 */
export function quoteOpenAfter(text: string, openAtStart: boolean, delimiter = ','): boolean {
  // From quote to quote, as indexOf finds them natively (a delimiter is one character: see DELIMITERS).
  const separator = delimiter.charCodeAt(0);
  let open = openAtStart;
  // Where the text outside quotes began (the start, or after a closing quote), and whether a field starts there.
  let outsideFrom = 0;
  let fieldStartsThere = !openAtStart;
  let index = 0;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote === -1) return open;
    index = quote + 1;
    if (open) {
      if (text.charCodeAt(index) === 34 /* " */)
        index++; // an escaped quote
      else {
        open = false;
        outsideFrom = index;
        fieldStartsThere = false;
      }
      continue;
    }
    // Outside quotes a quote opens a field only at its start: after the delimiter (or where the text outside quotes
    // began at a field start) and spaces or tabs. Any other character before it, a literal quote too, ends the start.
    let before = quote - 1;
    let fieldStart = fieldStartsThere;
    for (; before >= outsideFrom; before--) {
      const code = text.charCodeAt(before);
      if (code === separator) {
        fieldStart = true;
        break;
      }
      if (code !== 32 && code !== 9) {
        fieldStart = false;
        break;
      }
    }
    if (fieldStart) open = true;
  }
}

/**
 * The fields of a record that csv-parse cannot read, so that its row still shows its own ids. A malformed field
 * (a quote never closed, text after a closing quote) is emptied; the fields after it are kept when the record then
 * has the `expected` number of fields (the header's), as they are then where the header says; otherwise only the
 * fields before it are (they are where the header says in any case). Trimmed as in parsing.
 *
 * @example
 * ```ts
 * salvageFields('INV-7,isic4,"4711,2019'); // ['INV-7', 'isic4']
 * salvageFields('INV-7,isic4,"47"11,2019', ',', 4); // ['INV-7', 'isic4', '', '2019']
 * ```
 */
export function salvageFields(text: string, delimiter = ',', expected?: number): string[] {
  const fields: string[] = [];
  let firstBad: number | undefined;
  const result = () =>
    firstBad === undefined || fields.length === expected ? fields : fields.slice(0, firstBad);
  let index = 0;
  for (;;) {
    while (text[index] === ' ' || text[index] === '\t') index++;
    if (text[index] === '"') {
      let value = '';
      let end = index + 1;
      let closed = true;
      for (;;) {
        const close = text.indexOf('"', end);
        if (close === -1) {
          closed = false;
          break;
        }
        value += text.slice(end, close);
        if (text[close + 1] === '"') {
          value += '"';
          end = close + 2;
          continue;
        }
        end = close + 1;
        break;
      }
      if (!closed) {
        // Never closed: if the quote was a stray one, the rest of the line holds the other fields.
        firstBad ??= fields.length;
        const after = text.indexOf(delimiter, index);
        fields.push('');
        if (after !== -1)
          fields.push(
            ...text
              .slice(after + 1)
              .split(delimiter)
              .map(trimField),
          );
        return result();
      }
      while (text[end] === ' ' || text[end] === '\t') end++;
      if (end < text.length && text[end] !== delimiter) {
        // Text after the closing quote: the field runs to the next delimiter, emptied.
        firstBad ??= fields.length;
        fields.push('');
        const next = text.indexOf(delimiter, end);
        if (next === -1) return result();
        index = next + 1;
        continue;
      }
      fields.push(value);
      if (end >= text.length) return result();
      index = end + 1;
    } else {
      const comma = text.indexOf(delimiter, index);
      fields.push(trimField(text.slice(index, comma === -1 ? undefined : comma)));
      if (comma === -1) return result();
      index = comma + 1;
    }
  }
}

/** `fields` with each trimmed ({@link trimField}), in the same array: no second array per record. */
function trimmedInPlace(fields: string[]): string[] {
  for (let index = 0; index < fields.length; index++) fields[index] = trimField(fields[index] as string);
  return fields;
}

const trimmable = (code: number) => code === 32 || code === 9 || code === 12 || code === 13 || code === 10;
/** Trims as csv-parse's `trim` does: spaces, tabs, form feeds and line breaks, nothing else. */
const trimField = (field: string) =>
  // Most cells have nothing to trim: told by their ends, without running the regular expression.
  field === '' || (!trimmable(field.charCodeAt(0)) && !trimmable(field.charCodeAt(field.length - 1)))
    ? field
    : field.replace(/^[ \t\f\r\n]+|[ \t\f\r\n]+$/g, '');

/**
 * The fields of a record whose quoted fields are all plain RFC 4180 ones (the quote opens the field and closes it,
 * right before the delimiter or the end), as csv-parse reads them; undefined for any other record (a quote inside an
 * unquoted field, spaces around a quoted one, a line end outside quotes), which csv-parse then reads. Unquoted fields
 * are trimmed as csv-parse trims them; quoted ones are kept as they are, their doubled quotes made single.
 *
 * @example
 * ```ts
 * splitQuotedRecord('7,"Müller, ""Berlin""", 12 '); // ['7', 'Müller, "Berlin"', '12']
 * splitQuotedRecord('7, "a"'); // undefined (csv-parse decides)
 * ```
 */
export function splitQuotedRecord(text: string, delimiter = ','): string[] | undefined {
  const fields: string[] = [];
  const { length } = text;
  let index = 0;
  for (;;) {
    if (text.charCodeAt(index) === 34 /* " */) {
      let value = '';
      let from = index + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1) return undefined; // never closed
        if (text.charCodeAt(close + 1) === 34) {
          value += text.slice(from, close + 1); // a doubled quote: one of them kept
          from = close + 2;
          continue;
        }
        value += text.slice(from, close);
        index = close + 1;
        break;
      }
      fields.push(value);
      if (index === length) return fields;
      if (text[index] !== delimiter) return undefined; // text after the closing quote
      index += 1;
    } else {
      const next = text.indexOf(delimiter, index);
      const raw = next === -1 ? text.slice(index) : text.slice(index, next);
      if (raw.includes('"') || raw.includes('\n')) return undefined;
      fields.push(trimField(raw));
      if (next === -1) return fields;
      index = next + 1;
    }
  }
}

// relax_quotes: a quote inside an unquoted field is a literal (`27" monitor`), as quoteOpenAfter reads it.
const PARSE_OPTIONS = { trim: true, relax_quotes: true, skip_empty_lines: false } as const;

/** Parses one record's text (from {@link readCsvRecordTexts}); `line` is where it starts in the file. */
export function parseRecord(text: string, line: number, delimiter = ','): CsvRecord {
  let records: string[][];
  try {
    records = parse(text, {
      ...PARSE_OPTIONS,
      delimiter,
      relax_column_count: false,
      // Said outright when it can be: csv-parse's own discovery costs a Buffer copy of the text.
      ...(!text.includes('\r') && { record_delimiter: '\n' }),
    });
  } catch (error) {
    // csv-parse counts lines from the record's start; report them in the file's numbering.
    const message = (error as Error).message.replace(
      /\b(at|on) line (\d+)/g,
      (_, word: string, relative: string) => {
        return `${word} line ${line + Number(relative) - 1}`;
      },
    );
    return { line, error: `line ${line}: ${message}`, fields: salvageFields(text, delimiter) };
  }
  if (records.length !== 1)
    return { line, error: `line ${line}: expected one CSV record, found ${records.length}.` };
  return { line, fields: records[0] as string[] };
}

/**
 * Parses many records' texts at once, as {@link parseRecord} would one by one (it does, when one fails).
 *
 * @example
 * ```ts
 * parseRecords([{ line: 2, text: 'a,1' }, { line: 3, text: '"b, c",2' }]); // fields ['a','1'], ['b, c','2']
 * ```
 */
export function parseRecords(
  records: ReadonlyArray<{ line: number; text: string }>,
  delimiter = ',',
): CsvRecord[] {
  const results = new Array<CsvRecord>(records.length);
  const quoted: number[] = [];
  records.forEach(({ text, line }, index) => {
    // Most ledger lines have no quote at all: then csv-parse's answer is the comma-split fields, trimmed as it
    // trims (tests/cli/records.test.ts checks they agree), at a fraction of the cost. Lines whose quotes are all
    // plain RFC 4180 fields are split here too; csv-parse reads the rest.
    if (text.trim() === '') {
      results[index] = parseRecord(text, line, delimiter); // never joined: csv-parse may skip it
      return;
    }
    if (text.includes('\r')) {
      quoted.push(index);
      return;
    }
    const fields = text.includes('"')
      ? splitQuotedRecord(text, delimiter)
      : trimmedInPlace(text.split(delimiter));
    if (fields === undefined) quoted.push(index);
    else results[index] = { line, fields };
  });
  const oneByOne = () => {
    for (const index of quoted) {
      const { text, line } = records[index] as { line: number; text: string };
      results[index] = parseRecord(text, line, delimiter);
    }
    return results;
  };
  // Record texts hold no line end outside quotes, so `\n` joins them into exactly these records; a `\r`
  // would let csv-parse read line ends differently, so such records go one by one.
  if (quoted.length < 2 || quoted.some((index) => records[index]?.text.includes('\r'))) return oneByOne();
  let parsed: string[][];
  try {
    parsed = parse(quoted.map((index) => records[index]?.text).join('\n'), {
      ...PARSE_OPTIONS,
      delimiter,
      relax_column_count: true, // each record's field count is checked against the header by the caller
      record_delimiter: '\n',
    });
  } catch {
    return oneByOne();
  }
  if (parsed.length !== quoted.length) return oneByOne();
  quoted.forEach((index, position) => {
    results[index] = {
      line: (records[index] as { line: number }).line,
      fields: parsed[position] as string[],
    };
  });
  return results;
}

/** The delimiters a header may use, in order of preference when counts tie. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** How a delimiter is named in messages and options (`--delimiter tab`). */
export const delimiterName = (delimiter: string): string => (delimiter === '\t' ? 'tab' : `'${delimiter}'`);

/**
 * Excel's own first line, `sep=;`, which names the file's delimiter (Excel writes it on request and reads it): the
 * delimiter, or undefined when `text` is no such line.
 */
export function sepLine(text: string): Delimiter | undefined {
  const named = /^sep=(.) *$/i.exec(text)?.[1];
  return DELIMITERS.find((delimiter) => delimiter === named);
}

/**
 * The delimiter of a header line: whichever of `,` `;` tab `|` it holds most often outside quoted names (a header
 * of one column, holding none, is read with `,`).
 *
 * @example
 * ```ts
 * detectDelimiter('invoice_id;money;money_unit'); // ';'
 * detectDelimiter('"amount, net";money'); // ';'
 * ```
 */
export function detectDelimiter(header: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const character of header) {
    if (character === '"') quoted = !quoted;
    else if (!quoted) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  for (const delimiter of DELIMITERS)
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/** Parsed CSV records: {@link readCsvRecordTexts}, each parsed with {@link parseRecord}. */
export async function* readCsvRecords(
  lines: AsyncIterable<PhysicalLine>,
  maxRecordChars: number,
  delimiter?: string,
): AsyncGenerator<CsvRecord> {
  let chosen = delimiter;
  const detected = async function* (): AsyncGenerator<PhysicalLine> {
    for await (const line of lines) {
      if (chosen === undefined && !line.tooLong && line.text.trim() !== '') {
        const sep = sepLine(line.text);
        chosen = sep ?? detectDelimiter(line.text);
        if (sep !== undefined) continue;
      }
      yield line;
    }
  };
  for await (const record of readCsvRecordTexts(detected(), maxRecordChars, () => chosen ?? ',')) {
    const used = chosen ?? ',';
    if (record.error === undefined) yield parseRecord(record.text, record.line, used);
    else {
      const { line, error, salvage, fields } = record;
      yield salvage !== undefined
        ? { line, error, fields: salvageFields(salvage, used) }
        : fields !== undefined
          ? { line, error, fields }
          : { line, error };
    }
  }
}

/** The text of each CSV record, split at line ends outside quoted fields, without parsing its fields. */
export async function* readCsvRecordTexts(
  lines: AsyncIterable<PhysicalLine>,
  maxRecordChars: number,
  delimiter: string | (() => string) = ',',
): AsyncGenerator<CsvRecordText> {
  const splitter = csvRecordSplitter(maxRecordChars, delimiter);
  for await (const line of lines) yield* splitter.take([line]);
  yield* splitter.end();
}

/**
 * {@link readCsvRecordTexts} a batch of lines at a time (from `readLineBatches`): the records each batch completes,
 * as one array, so a file run awaits once per batch rather than once per record.
 */
export async function* readCsvRecordTextBatches(
  batches: AsyncIterable<readonly PhysicalLine[]>,
  maxRecordChars: number,
  delimiter = ',',
): AsyncGenerator<CsvRecordText[]> {
  const splitter = csvRecordSplitter(maxRecordChars, delimiter);
  for await (const batch of batches) yield splitter.take(batch);
  yield splitter.end();
}

/**
 * Whether `text` holds only delimiters and blanks: a spreadsheet row whose cells were cleared, which Excel saves as
 * `,,,,,,`. Skipped as an empty line is, since it holds nothing to estimate and no id to report a failure by. A
 * usual row ends the loop at its first character.
 */
function emptiedRow(text: string, delimiter: number): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== delimiter && !trimmable(code)) return false;
  }
  return true;
}

/** Splits physical lines into record texts; `take` returns the records its lines complete, `end` the rest. */
function csvRecordSplitter(
  maxRecordChars: number,
  delimiterOf: string | (() => string),
): {
  take(lines: readonly PhysicalLine[]): CsvRecordText[];
  end(): CsvRecordText[];
} {
  let pending: PhysicalLine[] = [];
  let openQuote = false;
  let chars = 0;
  let out: CsvRecordText[] = [];

  const unclosed = (reason: string) => {
    const [first, ...rest] = pending;
    pending = [];
    openQuote = false;
    chars = 0;
    if (first === undefined) return;
    out.push({ line: first.line, error: `line ${first.line}: ${reason}`, salvage: first.text });
    for (const line of rest) take(line); // resume on the line after the one that opened the quote
  };

  function take(line: PhysicalLine): void {
    if (line.tooLong) {
      const first = pending[0];
      const start = first?.line ?? line.line;
      pending = [];
      openQuote = false;
      chars = 0;
      // The row keeps what can be read of it: the short cells of the long line, or the leading ones of the record's
      // first line when the long line continues a quoted field.
      const kept =
        first !== undefined
          ? { salvage: first.text }
          : line.cells !== undefined
            ? { fields: line.cells }
            : {};
      out.push({
        line: start,
        error: `line ${start}: the record is longer than ${maxRecordChars} characters.`,
        ...kept,
      });
      return;
    }
    if (pending.length === 0) {
      if (line.text.trim() === '') return; // empty lines are skipped
      // The usual line: a whole record on its own (no quote, or none left open), taken without the pending list
      // (whose new array per quoted line was most of this function's garbage).
      const delimiter = typeof delimiterOf === 'string' ? delimiterOf : delimiterOf();
      if (emptiedRow(line.text, delimiter.charCodeAt(0))) return;
      if (!line.text.includes('"') || !quoteOpenAfter(line.text, false, delimiter)) {
        out.push(
          line.invalidUtf8
            ? {
                line: line.line,
                error: `line ${line.line}: the line is not valid UTF-8; save the file as UTF-8.`,
                salvage: line.text, // its ids are most often ASCII, and pass through
              }
            : new LineRecord(line.line, line.text),
        );
        return;
      }
    }
    pending.push(line);
    chars += line.text.length + 1;
    openQuote = quoteOpenAfter(
      line.text,
      openQuote,
      typeof delimiterOf === 'string' ? delimiterOf : delimiterOf(),
    );
    if (!openQuote) {
      const start = pending[0] as PhysicalLine;
      const invalid = pending.some((part) => part.invalidUtf8);
      const text = pending.length === 1 ? start.text : pending.map((part) => part.text).join('\n');
      pending = [];
      chars = 0;
      out.push(
        invalid
          ? {
              line: start.line,
              error: `line ${start.line}: the line is not valid UTF-8; save the file as UTF-8.`,
              salvage: text,
            }
          : new LineRecord(start.line, text),
      );
    } else if (chars > maxRecordChars) {
      unclosed(`a quoted field is not closed within ${maxRecordChars} characters.`);
    }
  }

  return {
    take(lines) {
      for (const line of lines) take(line);
      const done = out;
      out = [];
      return done;
    },
    end() {
      while (pending.length > 0) unclosed('a quoted field is not closed at the end of the file.');
      const done = out;
      out = [];
      return done;
    },
  };
}
