import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strictNumber } from '../../src/cli/adapters/cells';
import {
  parseRecord,
  parseRecords,
  quoteOpenAfter,
  readCsvRecords,
  readCsvRecordTextBatches,
  splitQuotedRecord,
} from '../../src/cli/formats/csv/reader';
import { LineRecord, readLines, ReadLine } from '../../src/cli/formats/lines';
import type { RecordText } from '../../src/cli/formats/records';
import { packRecords, unpackRecords } from '../../src/cli/pipeline/packed-records';

/** Line splitting, CSV record recovery and strict numbers: the pieces that keep a bad line from spoiling a run. */

const bytes = (text: string) => new TextEncoder().encode(text);
async function* chunks(...parts: Array<string | Uint8Array>) {
  for (const part of parts) yield typeof part === 'string' ? bytes(part) : part;
}
const collect = async <T>(source: AsyncIterable<T>) => {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
};
const records = (text: string | Array<string | Uint8Array>, max = 1000) =>
  collect(readCsvRecords(readLines(chunks(...(Array.isArray(text) ? text : [text])), max), max));

describe('readLines', () => {
  it('splits on LF and CRLF, drops a BOM, keeps the last line without a terminator', async () => {
    const lines = await collect(readLines(chunks('\uFEFFa,b\r\n1,2\r', '\n3,', '4')));
    expect(lines.map((line) => [line.line, line.text])).toEqual([
      [1, 'a,b'],
      [2, '1,2'],
      [3, '3,4'],
    ]);
  });

  it('decodes a character split across chunks', async () => {
    const euro = bytes('€'); // 3 bytes
    const lines = await collect(readLines(chunks(euro.slice(0, 1), euro.slice(1), '\n')));
    expect(lines.map((line) => line.text)).toEqual(['€']);
    expect(lines[0]?.invalidUtf8).toBe(false);
  });

  it('marks bytes that are not UTF-8', async () => {
    const lines = await collect(readLines(chunks(new Uint8Array([0x61, 0xff, 0x0a, 0x62]))));
    expect(lines.map((line) => [line.text, line.invalidUtf8])).toEqual([
      ['a\uFFFD', true],
      ['b', false],
    ]);
  });

  it('reports a line longer than the limit instead of buffering it, and goes on', async () => {
    const lines = await collect(readLines(chunks('short\n', 'x'.repeat(30), 'y'.repeat(30), '\nnext\n'), 50));
    expect(lines.map((line) => [line.line, line.text, line.tooLong])).toEqual([
      [1, 'short', false],
      [2, '', true],
      [3, 'next', false],
    ]);
  });
});

describe('quoteOpenAfter', () => {
  it.each([
    ['a,"b', false, true],
    ['a, "b', false, true],
    ['"a""",b', false, false],
    ['27" monitor,1', false, false],
    ['x,a"b"c', false, false],
    ['end",2', true, false],
    ['still "" open', true, true],
    ['', true, true],
  ])('%j starting %s → %s', (text, open, expected) => {
    expect(quoteOpenAfter(text, open)).toBe(expected);
  });

  /** The rule read one character at a time (RFC 4180 quotes at a field's start, after optional spaces or tabs). */
  function openByCharacter(text: string, openAtStart: boolean, delimiter: string): boolean {
    let open = openAtStart;
    let atFieldStart = !openAtStart;
    for (let index = 0; index < text.length; index++) {
      const character = text.charAt(index);
      if (open) {
        if (character === '"' && text.charAt(index + 1) === '"') index++;
        else if (character === '"') open = false;
      } else if (character === delimiter) atFieldStart = true;
      else if (character === '"' && atFieldStart) {
        open = true;
        atFieldStart = false;
      } else if (character !== ' ' && character !== '\t') atFieldStart = false;
    }
    return open;
  }

  it('property: agrees with the rule read character by character, for every delimiter', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', '\t', ',', ';', '|', '"', '""'),
      maxLength: 14,
    });
    fc.assert(
      fc.property(text, fc.boolean(), fc.constantFrom(',', ';', '\t', '|'), (line, open, delimiter) => {
        expect(quoteOpenAfter(line, open, delimiter)).toBe(openByCharacter(line, open, delimiter));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a tab delimiter before the spaces and tabs a field may start with', () => {
    expect(quoteOpenAfter('a\t"b', false, '\t')).toBe(true);
    expect(quoteOpenAfter('a \t "b', false, ',')).toBe(false);
    expect(quoteOpenAfter('"a" \t"b', false, '\t')).toBe(true);
    expect(quoteOpenAfter('"a" "b', false, '\t')).toBe(false);
  });
});

describe('readCsvRecords', () => {
  it('joins a quoted field across lines and skips empty lines', async () => {
    expect(await records('a,b\n\n"multi\nline",2\n   \n3,4\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['multi\nline', '2'] },
      { line: 6, fields: ['3', '4'] },
    ]);
  });

  it('a stray quote fails its own line only', async () => {
    const result = await records('a,b\n9,"x"y\n3,4\n');
    expect(result[1]).toMatchObject({ line: 2 });
    expect((result[1] as { error: string }).error).toMatch(/^line 2: Invalid Closing Quote/);
    expect(result[2]).toEqual({ line: 3, fields: ['3', '4'] });
  });

  it('a quote inside an unquoted field is a literal and glues no lines together', async () => {
    expect(await records('a,b\n27" monitor,1\n2,3\n55" tv,4\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['27" monitor', '1'] },
      { line: 3, fields: ['2', '3'] },
      { line: 4, fields: ['55" tv', '4'] },
    ]);
  });

  it('a quote never closed fails the line that opened it; the lines after it are read again', async () => {
    expect(await records('a,b\n1,"open\n2,3\n4,5\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      // The fields before the open quote are kept, so the row can be found.
      { line: 2, error: 'line 2: a quoted field is not closed at the end of the file.', fields: ['1'] },
      { line: 3, fields: ['2', '3'] },
      { line: 4, fields: ['4', '5'] },
    ]);
  });

  it('a quote open for more than the limit fails its line; reading resumes on the next line', async () => {
    const body = Array.from({ length: 20 }, (_, index) => `${index},${index}\n`).join('');
    const result = await records(`a,b\n1,"open\n${body}`, 60);
    expect(result[1]).toEqual({
      line: 2,
      error: 'line 2: a quoted field is not closed within 60 characters.',
      fields: ['1'],
    });
    expect(result.slice(2)).toEqual(
      Array.from({ length: 20 }, (_, index) => ({ line: index + 3, fields: [`${index}`, `${index}`] })),
    );
  });

  it('a line that is not UTF-8 is an error row that keeps its cells (the bad byte as U+FFFD)', async () => {
    const result = await records([bytes('a,b\n'), new Uint8Array([0x31, 0x2c, 0xe9, 0x0a]), bytes('3,4\n')]);
    expect(result.slice(1)).toEqual([
      {
        line: 2,
        error: 'line 2: the line is not valid UTF-8; save the file as UTF-8.',
        fields: ['1', '\uFFFD'],
      },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('a quoted line that is not UTF-8 is the same error row (a one-line record with quotes skips the pending list)', async () => {
    const result = await records([
      bytes('a,b\n'),
      new Uint8Array([0x22, 0x31, 0x22, 0x2c, 0xe9, 0x0a]),
      bytes('"3",4\n'),
    ]);
    expect(result.slice(1)).toEqual([
      {
        line: 2,
        error: 'line 2: the line is not valid UTF-8; save the file as UTF-8.',
        fields: ['1', '\uFFFD'],
      },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('property: well-formed CSV of any fields reads back as written, one record per row', async () => {
    const unit = fc.oneof(
      fc.constantFrom('"', ',', '\n', ' ', 'é', '27"'),
      fc.string({ minLength: 1, maxLength: 1 }),
    );
    const field = fc.string({ unit, maxLength: 12 }).map((text) => text.trim());
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 20 }),
        async (rows) => {
          // Rows whose every field is empty are blank lines in CSV, and skipped; leave them out of the expectation.
          const kept = rows.filter((row) => row.some((cell) => cell !== ''));
          const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
          const text = rows
            .map((row) => (row.every((cell) => cell === '') ? '' : row.map(quote).join(',')))
            .join('\r\n');
          const read = await records(text, 10_000);
          expect(read.map((record) => ('fields' in record ? record.fields : record))).toEqual(kept);
        },
      ),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe('strictNumber', () => {
  it.each([
    ['0', 0],
    ['1000', 1000],
    ['1840.50', 1840.5],
    ['-0.25', -0.25],
    ['+3', 3],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['2.5E-2', 0.025],
  ])('%s → %d', (text, value) => {
    expect(strictNumber(text, 'money')).toBe(value);
  });

  it.each([
    '',
    ' ',
    '12O0',
    '1,000',
    '0x10',
    'NaN',
    'Infinity',
    '1e999',
    '1.2.3',
    '--1',
    'e5',
    '€5',
    '5 EUR',
  ])('rejects %j', (text) => {
    expect(() => strictNumber(text, 'money')).toThrow(
      expect.objectContaining({ error_code: 'invalid_request', path: 'money' }),
    );
  });

  it('property: every finite number reads back from its JS text form', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        // String(-0) is '0', which reads as 0
        expect(strictNumber(String(value), 'x')).toBe(Object.is(value, -0) ? 0 : value);
      }),
    );
  });
});

describe('parseRecords (a chunk at once)', () => {
  it('property: agrees with csv-parse record by record, quoted or not, well-formed or not', () => {
    const unit = fc.constantFrom('a', '1', ' ', '\t', '\f', ',', '"', 'é', '-', '\r');
    const text = fc.string({ unit, minLength: 1, maxLength: 16 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (texts) => {
        const records = texts.map((item, index) => ({ line: index + 2, text: item }));
        expect(parseRecords(records)).toEqual(records.map(({ text: item, line }) => parseRecord(item, line)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('property: agrees with csv-parse with another delimiter', () => {
    const unit = fc.constantFrom('a', ' ', '\t', ',', ';', '"', '1');
    const text = fc.string({ unit, minLength: 1, maxLength: 16 });
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(',', ';'),
        (texts, delimiter) => {
          const records = texts.map((item, index) => ({ line: index + 2, text: item }));
          expect(parseRecords(records, delimiter)).toEqual(
            records.map(({ text: item, line }) => parseRecord(item, line, delimiter)),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('splitQuotedRecord (records with quoted fields, without csv-parse)', () => {
  // Records as a writer makes them: a field quoted (its quotes doubled) when it holds a quote, delimiter or line end,
  // or by choice; unquoted ones may have spaces around them, which both readers trim.
  const field = fc.string({ unit: fc.constantFrom('a', 'é', ' ', ',', '"', '\n', '-', '1'), maxLength: 8 });
  const cell = fc
    .tuple(field, fc.boolean())
    .map(([value, quote]) => (quote || /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value));

  it('property: reads written records as csv-parse does, and never leaves one to it', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), (cells) => {
        const text = cells.join(',');
        fc.pre(text.trim() !== '');
        const parsed = parseRecord(text, 2);
        expect(splitQuotedRecord(text)).toEqual('fields' in parsed ? parsed.fields : 'csv-parse failed');
      }),
      { numRuns: 3_000 },
    );
  });

  it('property: any record it reads, it reads as csv-parse does', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '""', '\n', '1'), maxLength: 16 });
    fc.assert(
      fc.property(text, (line) => {
        fc.pre(line.trim() !== '');
        const fields = splitQuotedRecord(line);
        if (fields === undefined) return;
        const parsed = parseRecord(line, 2);
        expect('fields' in parsed ? parsed.fields : 'csv-parse failed').toEqual(fields);
      }),
      { numRuns: 5_000 },
    );
  });

  it('looks for quotes and line ends in every unquoted field, also after a quoted one', () => {
    expect(splitQuotedRecord('"a",b,c"d')).toBeUndefined();
    expect(splitQuotedRecord('"a",b,"c",d"e')).toBeUndefined();
    expect(splitQuotedRecord('"a\nb",c,d\ne')).toBeUndefined();
    expect(splitQuotedRecord('"a",b,"c\nd",e')).toEqual(['a', 'b', 'c\nd', 'e']);
  });

  it('leaves to csv-parse what is not a plain quoted field', () => {
    expect(splitQuotedRecord('7,"Müller, ""Berlin""", 12 ')).toEqual(['7', 'Müller, "Berlin"', '12']);
    expect(splitQuotedRecord('a,""')).toEqual(['a', '']);
    expect(splitQuotedRecord('"a",')).toEqual(['a', '']);
    expect(splitQuotedRecord('7, "a"')).toBeUndefined(); // space before the quote
    expect(splitQuotedRecord('"a" ,7')).toBeUndefined(); // space after it
    expect(splitQuotedRecord('"a"b,7')).toBeUndefined(); // text after it
    expect(splitQuotedRecord('27" monitor,7')).toBeUndefined(); // a quote inside an unquoted field
    expect(splitQuotedRecord('"never closed,7')).toBeUndefined();
    expect(splitQuotedRecord('"a",7\n8')).toBeUndefined(); // a line end outside quotes
  });
});

describe('lines and records are made with new', () => {
  // V8 watches how long each object literal's objects live: a literal whose first lines a run held while starting
  // would have every later line put straight in the old generation, with its text promoted after it (lines.ts).
  it('for every line read, and every record that is its text, on the reader and on a worker', async () => {
    const lines = await collect(readLines(chunks('id,money\n1,2\n"a\nb",3\n')));
    expect(lines.length).toBe(4);
    expect(lines.every((line) => line instanceof ReadLine)).toBe(true);
    const texts: RecordText[] = [];
    for await (const batch of readCsvRecordTextBatches(
      (async function* () {
        yield lines;
      })(),
      1000,
    ))
      texts.push(...batch);
    expect(texts.map((record) => record.text)).toEqual(['id,money', '1,2', '"a\nb",3']);
    expect(texts.every((record) => record instanceof LineRecord)).toBe(true);
    expect(unpackRecords(packRecords(texts)).every((record) => record instanceof LineRecord)).toBe(true);
  });
});
