import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../billing/fixtures';
import { cli, parseCsv, parseJsonl, tempFile, tempPath } from './harness';

/**
 * Files as spreadsheets save them (#37): the delimiter, BOM, CRLF and decimal commas of an Excel file saved in
 * Germany, numbers with thousands separators or currency symbols, headers written another way, credit notes.
 *
 * Hand-worked values (tests/cli/spend.test.ts): EXIOBASE 2019, DE, ISIC 4711 → p52 at 0.0272 kg per EUR; 1000 EUR
 * in 2019 with tax 0.19, trade 0.1, transport 0.02 → 1000 × 0.69 = 690 EUR × 0.0272 = 18.768 kg. ISIC 62 → p72 at
 * 0.1333: 500 EUR → 66.65 kg.
 */

const BOM = '\uFEFF';
const HEADER =
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';

/**
 * A sheet as Excel (Microsoft 365, German locale) writes it with "CSV UTF-8 (durch Trennzeichen getrennt)": the
 * bytes EF BB BF, then the cells separated by `;` (the locale's list separator), each line ended by CR LF (0D 0A),
 * numbers in the cell's displayed form: decimal comma, trailing zeros dropped in the General format (1000,5 for
 * 1000.50), no thousands separators unless the cell is formatted with them; a cell holding `;` or `"` quoted.
 */
function excelGerman(rows: ReadonlyArray<readonly string[]>): Uint8Array {
  const cell = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return new TextEncoder().encode(BOM + rows.map((row) => row.map(cell).join(';')).join('\r\n') + '\r\n');
}

const header = HEADER.split(',');

describe('an Excel-saved CSV (Germany: ; BOM CRLF decimal commas)', () => {
  it('runs every row, reading ; and decimal commas, and says so in the end report', async () => {
    const bytes = excelGerman([
      header,
      ['a', 'isic4', '4711', '2019', 'DE', '1000', 'EUR', '0,19', '0,1', '0,02'],
      ['b; Büro', 'isic4', '62', '2019', 'DE', '500', 'EUR', '0', '0', '0'],
    ]);
    // The exact bytes: BOM, `;`, CR LF, `0,19`.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain('DE;1000;EUR;0,19;0,1;0,02\r\n"b; Büro";isic4');
    const file = tempFile('excel-de.csv', bytes);
    const { code, stdout, stderr } = await cli(['spend', file]);
    expect(stderr).toContain('2 rows, 0 failed');
    expect(code).toBe(0);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => [row.id, row.tax_margin, row.co2e, row.activity_value])).toEqual([
      ['a', '0,19', '18.768', '690'],
      ['b; Büro', '0', '66.65', '500'],
    ]);
    expect(stderr).toContain("read with the delimiter ';' (from the header; --delimiter to change)");
    expect(stderr).toContain("numbers read with a decimal comma, as usual in ';' files");
  });

  it('the example ledger saved by Excel gives the same estimates as the original', async () => {
    const original = readFileSync(resolve(__dirname, '../../examples/ledger.csv'), 'utf8');
    const lines = parseCsv(original);
    const columns = Object.keys(lines[0] as object);
    // Excel shows the number cells 1840.50 as 1840,5 and 0.19 as 0,19: the shortest decimal, with a comma. Codes
    // (NACE 31.01) are text cells, written as they are.
    const numeric = new Set(['money', 'tax_margin', 'trade_margin', 'transport_margin']);
    const shown = (column: string, text: string) =>
      numeric.has(column) && text !== '' ? String(Number(text)).replace('.', ',') : text;
    const excel = tempFile(
      'ledger-excel.csv',
      excelGerman([
        columns,
        ...lines.map((row) => columns.map((column) => shown(column, row[column] as string))),
      ]),
    );
    const [fromExcel, fromOriginal] = await Promise.all([
      cli(['spend', excel]),
      cli(['spend', resolve(__dirname, '../../examples/ledger.csv')]),
    ]);
    expect(fromExcel.code).toBe(fromOriginal.code);
    const results = (stdout: string) =>
      parseCsv(stdout).map(({ invoice_id, co2e, factor_id, error_code }) => [
        invoice_id,
        co2e,
        factor_id,
        error_code,
      ]);
    expect(results(fromExcel.stdout)).toEqual(results(fromOriginal.stdout));
    expect(results(fromExcel.stdout).length).toBe(lines.length);
  });

  it('--no-decimal-comma reads points in a ; file; --decimal-comma reads commas in a , file', async () => {
    const semicolons = tempFile(
      'points.csv',
      [header.join(';'), 'a;isic4;4711;2019;DE;1000;eur;0.19;0.1;0.02'].join('\n'),
    );
    const points = await cli(['spend', semicolons, '--no-decimal-comma']);
    expect(parseCsv(points.stdout)[0]?.co2e).toBe('18.768');
    expect(points.stderr).not.toContain('decimal comma');
    const byDefault = await cli(['spend', semicolons]);
    expect(parseCsv(byDefault.stdout)[0]?.error_message).toBe(
      "'tax_margin' must be a number, got '0.19'; did you mean 0,19? (the file is read with decimal commas; --no-decimal-comma for points)",
    );
    const commas = tempFile(
      'commas.csv',
      [HEADER, 'a,isic4,4711,2019,DE,1000,eur,"0,19","0,1","0,02"'].join('\n'),
    );
    const given = await cli(['spend', commas, '--decimal-comma']);
    expect(parseCsv(given.stdout)[0]?.co2e).toBe('18.768');
    expect(given.stderr).toContain('numbers read with a decimal comma (--decimal-comma)');
  });

  it('a thousands separator in a decimal-comma file is refused with the number meant', async () => {
    const file = tempFile(
      'grouped.csv',
      excelGerman([header, ['a', 'isic4', '4711', '2019', 'DE', '1.000,00', 'EUR', '0,19', '0,1', '0,02']]),
    );
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    const row = parseCsv(stdout)[0];
    expect(row?.id).toBe('a');
    expect(row?.error_message).toBe(
      "'money' must be a number, got '1.000,00'; did you mean 1000,00? (no thousands separators)",
    );
  });
});

describe('delimiters', () => {
  const rows = (delimiter: string) =>
    [HEADER, 'a,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02', 'b,isic4,62,2019,DE,500,eur,0,0,0']
      .map((line) => line.replaceAll(',', delimiter))
      .join('\n');

  it.each([
    ['tab', '\t'],
    ['pipe', '|'],
  ])('detects %s from the header', async (name, delimiter) => {
    const { code, stdout, stderr } = await cli(['spend', tempFile(`${name}.csv`, rows(delimiter))]);
    expect(code).toBe(0);
    expect(parseCsv(stdout).map((row) => row.co2e)).toEqual(['18.768', '66.65']);
    expect(stderr).toContain(`read with the delimiter ${name === 'tab' ? 'tab' : "'|'"} (from the header`);
    // Only ; files default to decimal commas.
    expect(stderr).not.toContain('decimal comma');
  });

  it("takes Excel's sep= line, and --delimiter over the detection", async () => {
    const sep = await cli(['spend', tempFile('sep.csv', `sep=|\n${rows('|')}`)]);
    expect(parseCsv(sep.stdout).map((row) => row.co2e)).toEqual(['18.768', '66.65']);
    expect(sep.stderr).toContain("read with the delimiter '|' (from the sep line");
    // A header with more ; than , would be read with ;: --delimiter says otherwise.
    const file = tempFile('given.csv', rows(',').replace('id,', 'id;ref;x,'));
    const given = await cli(['spend', file, '--delimiter', 'comma']);
    expect(given.code).toBe(0);
    expect(parseCsv(given.stdout)[0]?.['id;ref;x']).toBe('a');
  });

  it('a record of one field in a file of several says which delimiter it was read with', async () => {
    const file = tempFile('one-field.csv', `${HEADER}\na;isic4;4711;2019;DE;1000;eur;0;0;0\n`);
    const { stdout } = await cli(['spend', file]);
    expect(parseCsv(stdout)[0]?.error_message).toBe(
      "line 2: expected 10 fields as in the header, found 1 (read with the delimiter ','; set another with --delimiter).",
    );
  });

  it('refuses an unknown --delimiter', async () => {
    const { code, stderr } = await cli(['spend', tempFile('x.csv', rows(',')), '--delimiter', ':']);
    expect(code).toBe(2);
    expect(stderr).toContain('--delimiter must be one of , ; tab | (or comma, semicolon, pipe).');
  });
});

describe('numbers with thousands separators or currency symbols', () => {
  it.each([
    ['"1,000.00"', 'did you mean 1000.00? (no thousands separators)'],
    ['€1000', 'did you mean 1000? (no currency symbol; the currency has its own column)'],
    ['1000 EUR', 'did you mean 1000? (no currency symbol; the currency has its own column)'],
    ['"1000,50"', 'did you mean 1000.50? (a decimal point; --decimal-comma for commas)'],
    ['"1,000"', "did you mean 1000 or 1.000? (',' may group thousands or mark decimals)"],
  ])('%s fails its row with the number meant', async (cell, suggestion) => {
    const file = tempFile('money.csv', `${HEADER}\na,isic4,4711,2019,DE,${cell},eur,0.19,0.1,0.02\n`);
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    const row = parseCsv(stdout)[0];
    expect(row?.error_message).toBe(`'money' must be a number, got '${row?.money}'; ${suggestion}`);
  });
});

describe('the header checked first', () => {
  it('matches names whatever their case and separators, and reads known aliases, saying so', async () => {
    const file = tempFile(
      'header.csv',
      'Invoice ID,Classification_Type,ClassificationCode,Year,Country,Amount,Money-Unit,tax margin,trade_margin,transport_margin\n' +
        'a,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02\n',
    );
    const { code, stdout, stderr } = await cli(['spend', file]);
    expect(code).toBe(0);
    const row = parseCsv(stdout)[0];
    // The output keeps the header's own names.
    expect(row).toMatchObject({ 'Invoice ID': 'a', Amount: '1000', Year: '2019', co2e: '18.768' });
    expect(stderr).toContain(
      "columns read as: 'Classification_Type' as classification_type, 'ClassificationCode' as classification_code, 'Money-Unit' as money_unit, 'tax margin' as tax_margin",
    );
    expect(stderr).toContain(
      "columns read by alias: 'Year' as spend_year, 'Country' as spend_region, 'Amount' as money",
    );
  });

  it('a misspelt required column stops the run before any row, naming it and the nearest match', async () => {
    const file = tempFile(
      'misspelt.csv',
      'id,classification_type,clasification_code,spend_year,spend_region,money,money_unit\na,isic4,4711,2019,DE,1000,eur\n',
    );
    const out = tempPath('never.csv');
    const { code, stdout, stderr } = await cli(['spend', file, '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    expect(stderr).toBe(
      `co2e-engine: ${file}: the header has no column 'classification_code' (did you mean 'clasification_code'?).\n`,
    );
  });

  it('names every missing column, with no suggestion where none is near', async () => {
    const file = tempFile(
      'missing.csv',
      'id,classification_type,classification_code,spend_year\na,isic4,4711,2019\n',
    );
    const { code, stderr } = await cli(['spend', file]);
    expect(code).toBe(2);
    expect(stderr).toContain("the header has no columns 'spend_region', 'money', 'money_unit'.");
  });

  it('an alias beside the column it stands for passes through; a name twice is refused', async () => {
    const both = tempFile('both.csv', `${HEADER},amount\na,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02,7\n`);
    const ran = await cli(['spend', both]);
    expect(parseCsv(ran.stdout)[0]).toMatchObject({ amount: '7', co2e: '18.768' });
    const twice = tempFile('twice.csv', `${HEADER},Money\na,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02,7\n`);
    const refused = await cli(['spend', twice]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("the header names the column 'money' twice ('money' and 'Money')");
  });

  it('a misspelt optional column passes through, named in the end report', async () => {
    const file = tempFile(
      'optional.csv',
      `${HEADER.replace('tax_margin', 'tax_margn')}\na,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02\n`,
    );
    const { code, stderr } = await cli(['spend', file]);
    expect(code).toBe(0);
    expect(stderr).toContain("columns passed through unread: 'tax_margn' (did you mean tax_margin?)");
  });

  it('cloud needs calculator and provider', async () => {
    const file = tempFile('cloud.csv', 'calculater,provider,region\ncpu,aws,us_east_1\n');
    const { code, stderr } = await cli(['cloud', file]);
    expect(code).toBe(2);
    expect(stderr).toContain("the header has no column 'calculator' (did you mean 'calculater'?).");
  });
});

describe('JSON Lines keys checked as a CSV header is', () => {
  const jsonl = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n';
  const row = {
    Invoice_ID: 'a',
    Classification_Type: 'isic4',
    classificationCode: '4711',
    Year: 2019,
    Country: 'DE',
    Amount: 1000,
    Money_Unit: 'eur',
  };

  /** The same row with the names the calculator reads, as CSV: what every spelling above must give. */
  const expected = async () => {
    const canonical = tempFile(
      'canonical.csv',
      'classification_type,classification_code,spend_year,spend_region,money,money_unit\nisic4,4711,2019,DE,1000,eur\n',
    );
    const co2e = Number(parseCsv((await cli(['spend', canonical])).stdout)[0]?.co2e);
    expect(co2e).toBeGreaterThan(0);
    return co2e;
  };

  it('matches keys whatever their case and separators, and reads aliases, saying so', async () => {
    const { code, stdout, stderr } = await cli(['spend', tempFile('keys.jsonl', jsonl(row))]);
    expect(code).toBe(0);
    // The output keeps the record's own keys.
    expect(parseJsonl(stdout)[0]).toMatchObject({
      Invoice_ID: 'a',
      Amount: 1000,
      Money_Unit: 'eur',
      co2e: await expected(),
    });
    expect(stderr).toContain(
      "keys read as: 'Classification_Type' as classification_type, 'classificationCode' as classification_code, 'Money_Unit' as money_unit",
    );
    expect(stderr).toContain(
      "keys read by alias: 'Year' as spend_year, 'Country' as spend_region, 'Amount' as money",
    );
  });

  it('a misspelt required key in the first record stops the run before any row, naming the nearest key', async () => {
    const { Classification_Type: _, ...rest } = row;
    const file = tempFile('misspelt.jsonl', jsonl({ ...rest, clasification_type: 'isic4' }, row));
    const out = tempPath('never.jsonl');
    const { code, stdout, stderr } = await cli(['spend', file, '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    expect(stderr).toBe(
      `co2e-engine: ${file}: the first record has no key 'classification_type' (did you mean 'clasification_type'?).\n`,
    );
  });

  it('a later record with other keys is read by its own keys, or fails alone naming the nearest key', async () => {
    const { Amount: amount, ...rest } = row;
    const file = tempFile(
      'later.jsonl',
      jsonl(row, { ...rest, MONEY: amount }, { ...rest, mony: amount }, row),
    );
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    const rows = parseJsonl(stdout);
    const co2e = await expected();
    expect(rows.map((output) => output.co2e)).toEqual([co2e, co2e, null, co2e]);
    expect(rows[2]).toMatchObject({
      Invoice_ID: 'a',
      error_code: 'invalid_request',
      error_message: "line 3: the record has no key 'money' (did you mean 'mony'?).",
    });
  });
});

describe('credit notes', () => {
  const ledger = `${HEADER}\na,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02\ncn,isic4,4711,2019,DE,-1000,eur,0.19,0.1,0.02\n`;

  it('are refused by default, with a message naming --credits', async () => {
    const { code, stdout } = await cli(['spend', tempFile('credit.csv', ledger)]);
    expect(code).toBe(1);
    expect(parseCsv(stdout)[1]?.error_message).toBe(
      "'money' is negative (a credit note?); use --credits net to estimate it as negative emissions.",
    );
  });

  it('--credits net estimates them as negative emissions, labelled, and the total nets exactly', async () => {
    const { code, stdout, stderr } = await cli(['spend', tempFile('credit.csv', ledger), '--credits', 'net']);
    expect(code).toBe(0);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => [row.id, row.co2e, row.activity_value, row.notices])).toEqual([
      ['a', '18.768', '690', ''],
      ['cn', '-18.768', '-690', 'credit_note'],
    ]);
    expect(stderr).toContain('total co2e: 0 t (0 kg;');
    expect(stderr).toContain('negative amounts estimated as negative emissions (--credits net)');
  });
});

describe('every file command reads the Excel-saved file as the original', () => {
  /** A comma file re-saved by Excel in Germany: number cells with a decimal comma, `;`, BOM, CRLF. */
  const resaved = (text: string) => {
    const rows = parse(text, { relax_column_count: false }) as string[][];
    return excelGerman(
      rows.map((row) => row.map((cell) => (/^-?\d+\.\d+$/.test(cell) ? cell.replace('.', ',') : cell))),
    );
  };
  const results = (stdout: string, columns: readonly string[]) =>
    parseCsv(stdout).map((row) => columns.map((column) => row[column]));

  it('cloud: the example usage file', async () => {
    const path = resolve(__dirname, '../../examples/cloud-usage.csv');
    const excel = tempFile('cloud-excel.csv', resaved(readFileSync(path, 'utf8')));
    const [fromExcel, fromOriginal] = await Promise.all([cli(['cloud', excel]), cli(['cloud', path])]);
    expect(fromExcel.code).toBe(fromOriginal.code);
    const columns = ['resource', 'co2e', 'energy_kwh', 'error_code'];
    expect(results(fromExcel.stdout, columns)).toEqual(results(fromOriginal.stdout, columns));
    expect(readFileSync(excel, 'utf8')).toMatch(/;0,35;/); // average_vcpu_utilization 0.35 as Excel writes it
  });

  it('billing: a FOCUS export, with its --summary', async () => {
    const path = join(FIXTURES, 'focus-aws.csv');
    const excel = tempFile('focus-excel.csv', resaved(readFileSync(path, 'utf8')));
    const runs = await Promise.all(
      [excel, path].map(async (input) => {
        const out = tempPath('focus-out.csv');
        const summary = tempPath('focus-summary.json');
        const run = await cli(['billing', input, '--out', out, '--summary', summary]);
        return { ...run, out: readFileSync(out, 'utf8'), summary: JSON.parse(readFileSync(summary, 'utf8')) };
      }),
    );
    const [fromExcel, fromOriginal] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(readFileSync(excel, 'utf8')).toContain(';7,488;'); // BilledCost 7.488 as Excel writes it
    expect(fromExcel.code).toBe(0);
    const columns = ['co2e_status', 'co2e_reason', 'co2e_kg', 'co2e_activity_value'];
    expect(results(fromExcel.out, columns)).toEqual(results(fromOriginal.out, columns));
    expect(fromExcel.summary).toEqual(fromOriginal.summary);
    expect(fromExcel.summary.cost.total).toBeGreaterThan(0);
  });

  it('Parquet output from an Excel-saved CSV', async () => {
    const file = tempFile(
      'excel-parquet.csv',
      excelGerman([header, ['a', 'isic4', '4711', '2019', 'DE', '1000', 'EUR', '0,19', '0,1', '0,02']]),
    );
    const out = tempPath('excel.parquet');
    const { code, stderr } = await cli(['spend', file, '--out', out]);
    expect(code).toBe(0);
    expect(stderr).toContain('total co2e: 0.01877 t (18.77 kg;');
    expect(stderr).toContain("numbers read with a decimal comma, as usual in ';' files");
  });
});
