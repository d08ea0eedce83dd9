import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copiesAsRead, csvEncoder } from '../../src/cli/formats/csv/writer';
import { parseRecord } from '../../src/cli/formats/csv/reader';

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
    expect(copiesAsRead('', true)).toBe(true); // one empty cell, written empty
    expect(copiesAsRead('a,', true)).toBe(true);
  });
});
