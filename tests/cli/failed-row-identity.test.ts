import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEPT_CELL_CHARS, MAX_LINE_CHARS } from '../../src/cli/formats/lines';
import { readRecords, type RecordText } from '../../src/cli/formats/records';
import { cli, parseCsv, tempFile } from './harness';

/**
 * A failed row keeps its identity (#39 item 8): whatever makes a row fail (an oversized cell, bad quoting, bytes
 * that are not UTF-8), its other cells pass through, so the row can be found by its own ids.
 */

const HEADER =
  'invoice_id,description,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ok = (id: string) => `${id},Paper,isic4,4711,2019,DE,100,eur`;

async function* chunks(...parts: Array<string | Uint8Array>) {
  for (const part of parts) yield part;
}

const collect = async (source: { records: AsyncIterator<RecordText> }) => {
  const all: RecordText[] = [];
  for (let next = await source.records.next(); next.done !== true; next = await source.records.next())
    all.push(next.value);
  return all;
};

describe('a failed row keeps its other cells', () => {
  it('a 1 MB cell: the row keeps its invoice id and every other cell, the big one emptied', async () => {
    const big = 'x'.repeat(MAX_LINE_CHARS + 10);
    const file = tempFile(
      'big-cell.csv',
      [HEADER, ok('INV-1'), `INV-2,"${big}, still quoted",isic4,4711,2019,DE,250,eur`, ok('INV-3')].join(
        '\r\n',
      ),
    );
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => row.invoice_id)).toEqual(['INV-1', 'INV-2', 'INV-3']);
    expect(rows[1]).toMatchObject({
      invoice_id: 'INV-2',
      description: '',
      classification_code: '4711',
      money: '250',
      money_unit: 'eur',
      error_code: 'invalid_request',
      error_message: `line 3: the record is longer than ${MAX_LINE_CHARS} characters.`,
    });
    expect(rows[2]?.co2e).not.toBe('');
  });

  it('a too-long line of a ; file given in small chunks keeps its cells', async () => {
    const big = 'y'.repeat(5_000);
    const text = [HEADER.replaceAll(',', ';'), `INV-9;${big};isic4;4711;2019;DE;1,5;eur`, ''].join('\n');
    // A limit of 1,000 characters: the line is too long; its 5,000-character cell is still short enough to keep.
    expect(big.length).toBeLessThan(KEPT_CELL_CHARS);
    const pieces = text.match(/[\s\S]{1,300}/g) as string[];
    const source = await readRecords(chunks(...pieces), 'csv', { maxRecordChars: 1_000 });
    expect(source.delimiter).toBe(';');
    const [record] = await collect(source);
    expect(record).toEqual({
      line: 2,
      error: 'line 2: the record is longer than 1000 characters.',
      fields: ['INV-9', big, 'isic4', '4711', '2019', 'DE', '1,5', 'eur'],
    });
  });

  it('bad quoting: text after a closing quote, and a quote never closed', async () => {
    const file = tempFile(
      'bad-quotes.csv',
      [
        HEADER,
        'INV-4,"Desk" lamp,isic4,4711,2019,DE,100,eur',
        'INV-5,Chair,isic4,"4711,2019,DE,100,eur',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => [row.invoice_id, row.description, row.classification_code, row.money])).toEqual([
      ['INV-4', '', '4711', '100'],
      ['INV-5', 'Chair', '', '100'],
    ]);
    expect(rows[0]?.error_message).toMatch(/^line 2: Invalid Closing Quote/);
    expect(rows[1]?.error_message).toBe('line 3: a quoted field is not closed at the end of the file.');
  });

  it('bytes that are not UTF-8: the row keeps its cells, the bad byte as U+FFFD', async () => {
    const head = new TextEncoder().encode(`${HEADER}\nINV-6,Caf`);
    const tail = new TextEncoder().encode(',isic4,4711,2019,DE,100,eur\n');
    const file = tempFile('latin1.csv', new Uint8Array([...head, 0xe9, ...tail])); // 'Café' in Latin-1
    const { stdout } = await cli(['spend', file]);
    expect(parseCsv(stdout)[0]).toMatchObject({
      invoice_id: 'INV-6',
      description: 'Caf\uFFFD',
      money: '100',
      error_message: 'line 2: the line is not valid UTF-8; save the file as UTF-8.',
    });
  });

  it('property: a too-long line keeps exactly the cells csv-parse reads from it', async () => {
    const unit = fc.constantFrom('a', 'b', ' ', ',', '"', '\t', 'é');
    const cell = fc.string({ unit, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(cell, { minLength: 2, maxLength: 6 }), async (cells) => {
        const line = cells.map((text) => `"${text.replaceAll('"', '""')}"`).join(',');
        const expected = (parse(line, { trim: true, relax_quotes: true }) as string[][])[0];
        const header = cells.map((_, index) => 'abcdef'[index]).join(',');
        // The limit makes the record too long; its cells stay far below the kept length.
        const source = await readRecords(chunks(`${header}\n`, `${line}\n`), 'csv', {
          maxRecordChars: Math.max(1, line.length - 1),
        });
        const [record] = await collect(source);
        expect(record?.fields).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
