import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copiesAsRead, csvEncoder, recordFields } from '../../src/cli/formats/csv/writer';
import { parseRecord, parseRecords } from '../../src/cli/formats/csv/reader';

/**
 * Issue 40 item 3: a CSV output copies a record's text for its input columns when that text is what the writer
 * would write for the record's cells (`copiesAsRead`). The output must not change by a byte: a row's line with the
 * record given equals its line written cell by cell, for any record the reader reads whole.
 */

/** The line of `fields` (under columns c0, c1, …), cell by cell or from `record`. */
function lineOf(fields: readonly string[], neutralise: boolean, record?: string): string {
  const columns = fields.map((_, index) => `c${index}`);
  const encoder = csvEncoder({
    columns,
    neutraliseFormulas: neutralise,
    resultColumns: ['co2e'],
    copiesRecords: true,
  });
  const values = Object.fromEntries(columns.map((name, index) => [name, fields[index]]));
  return encoder.line(values, { co2e: 1.5 }, record);
}

describe('copying a CSV record for its input cells', () => {
  const field = fc.string({
    unit: fc.constantFrom('a', 'é', ' ', ',', '"', '\t', '\f', '=', '-', '+', '@', '1', '.', '\uFF1D'),
    maxLength: 7,
  });
  // Quoted when it must be, or by choice; unquoted ones sometimes with spaces around them (the reader trims them).
  const cell = fc
    .tuple(field, fc.boolean(), fc.constantFrom('', ' '))
    .map(([value, quote, pad]) =>
      quote || /[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : `${pad}${value}${pad}`,
    );

  it('property: the line with the record equals the line written cell by cell', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), fc.boolean(), (cells, neutralise) => {
        const text = cells.join(',');
        const parsed = parseRecord(text, 2);
        fc.pre('fields' in parsed && parsed.fields?.length === cells.length);
        const fields = (parsed as { fields: string[] }).fields;
        expect(lineOf(fields, neutralise, text)).toBe(lineOf(fields, neutralise));
      }),
      { numRuns: 5_000 },
    );
  });

  /** A cell's text between its bounds as the reader reads it: a quoted one without its quotes, `""` as `"`. */
  const cellText = (text: string, start: number, end: number): string =>
    text.charCodeAt(start) === 34
      ? text.slice(start + 1, end - 1).replaceAll('""', '"')
      : text.slice(start, end);

  it('property: the cells recordFields bounds are the cells the reader reads; it takes what copiesAsRead takes', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), fc.boolean(), (cells, neutralise) => {
        const text = cells.join(',');
        const spans = new Int32Array(2 * cells.length);
        const count = recordFields(text, neutralise, spans);
        expect(count >= 0).toBe(copiesAsRead(text, neutralise));
        if (count < 0) return;
        // As the chunk processor reads a record (parseRecords: split or splitQuotedRecord, else csv-parse).
        const [parsed] = parseRecords([{ line: 2, text }]);
        expect(parsed !== undefined && 'fields' in parsed).toBe(true);
        const fields = (parsed as { fields: string[] }).fields;
        expect(count).toBe(fields.length);
        fields.forEach((field, index) =>
          expect(cellText(text, spans[2 * index] as number, spans[2 * index + 1] as number)).toBe(field),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  it('counts every cell of a record, and bounds as many as it has room for', () => {
    const text = '1,"Supplier 1, Ltd",62,,"say ""hi"""';
    const spans = new Int32Array(6);
    expect(recordFields(text, true, spans)).toBe(5);
    expect([...spans]).toEqual([0, 1, 2, 19, 20, 22]);
    const all = new Int32Array(10);
    expect(recordFields(text, true, all)).toBe(5);
    expect([...all].slice(6)).toEqual([23, 23, 24, 36]);
    expect(recordFields('1,"plain",62', true, all)).toBe(-1);
    expect(recordFields('a,=SUM(A1)', true, all)).toBe(-1);
    expect(recordFields('a,=SUM(A1)', false, all)).toBe(2);
  });

  it('copies the records of real ledgers and bills, and only what it writes the same', () => {
    expect(copiesAsRead('1,"Supplier 1, Ltd",isic4,62,2020,GB,1.5,gbp,0.19,0.1,0.02', true)).toBe(true);
    expect(copiesAsRead('A1,isic4,62,2023,GB,-1000.5,gbp,,', true)).toBe(true); // a plain negative number
    expect(copiesAsRead('a,"say ""hi""",b', true)).toBe(true);
    expect(copiesAsRead('a,"plain",b', true)).toBe(false); // written without quotes
    expect(copiesAsRead('a,"",b', true)).toBe(false); // an empty cell is written empty
    expect(copiesAsRead('a,=SUM(A1),b', true)).toBe(false); // written as '=SUM(A1)
    expect(copiesAsRead('a,=SUM(A1),b', false)).toBe(true); // --allow-formulas
    expect(copiesAsRead('a,"=1+2, say",b', true)).toBe(false);
    expect(copiesAsRead('a, b,c', true)).toBe(false); // the reader trims the space
    expect(copiesAsRead('a,b ,c', true)).toBe(false);
    expect(copiesAsRead('a,27" monitor,c', true)).toBe(false); // a quote in an unquoted cell
    expect(copiesAsRead('a,"b" ,c', true)).toBe(false);
    expect(copiesAsRead('a,"never closed', true)).toBe(false);
    expect(copiesAsRead('a,"line\nend",c', true)).toBe(false);
    expect(copiesAsRead('a,b\r', true)).toBe(false);
    expect(copiesAsRead('', true)).toBe(false); // no record to the reader (the line splitter skips it)
    expect(copiesAsRead('a,', true)).toBe(true);
  });
});
