import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEPT_CELL_CHARS, MAX_LINE_CHARS } from '../../src/cli/formats/lines';
import { readRecords, type RecordText } from '../../src/cli/formats/records';
import { cli, parseCsv, parseJsonl, tempFile, tempPath } from './harness';
import { readFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';

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

/** An output file's rows, as its format gives them (Parquet: typed values, null for an empty cell). */
async function readOutput(
  path: string,
  format: 'csv' | 'jsonl' | 'parquet',
): Promise<Array<Record<string, unknown>>> {
  if (format === 'csv') return parseCsv(readFileSync(path, 'utf8'));
  if (format === 'jsonl') return parseJsonl(readFileSync(path, 'utf8'));
  return parquetReadObjects({ file: await asyncBufferFromFile(path) });
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

  it('a real-shaped ledger row with an extra field (an unquoted comma) keeps its cells in order, in every format', async () => {
    // Line 3: the description 'Paper, A4' was written without quotes, so the row has 9 fields for 8 columns; line 4
    // lost its unit (7 fields). Both fail, and both keep their invoice ids where the header puts them.
    const file = tempFile(
      'extra-field.csv',
      [
        HEADER,
        ok('INV-1'),
        'INV-7,Paper, A4,isic4,4711,2019,DE,100,eur',
        'INV-8,Paper,isic4,4711,2019,DE,100',
        ok('INV-9'),
      ].join('\n'),
    );
    for (const format of ['csv', 'jsonl', 'parquet'] as const) {
      const out = tempPath(`extra-field.${format}`);
      const { code } = await cli(['spend', file, '--out', out]);
      expect(code).toBe(1);
      const rows = await readOutput(out, format);
      expect(rows.map((row) => row.invoice_id)).toEqual(['INV-1', 'INV-7', 'INV-8', 'INV-9']);
      expect(rows[1]).toMatchObject({
        invoice_id: 'INV-7',
        description: 'Paper',
        classification_type: 'A4',
        error_code: 'invalid_request',
        error_message:
          'line 3: expected 8 fields as in the header, found 9; the cells are passed through in order.',
      });
      expect(rows[2]).toMatchObject({
        invoice_id: 'INV-8',
        error_message:
          'line 4: expected 8 fields as in the header, found 7; the cells are passed through in order.',
      });
      // Parquet types `money` as text here: the shifted row put 'DE' in it.
      expect(String(rows[2]?.money)).toBe('100');
      expect(rows[2]?.money_unit ?? '').toBe('');
      expect(rows[3]?.co2e).not.toBe('');
    }
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
