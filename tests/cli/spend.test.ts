import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, parseCsv, parseJsonl, RESULT_COLUMNS, tempFile, tempPath } from './harness';
import { RETAIL_DE_WITH_MARGINS } from '../fixtures/requests';

/**
 * `co2e-engine spend FILE`, in-process. Hand-worked values: EXIOBASE 2019 factors for DE, retail trade (ISIC 4711
 * → p52) 0.0272 and computer services (ISIC 62 → p72) 0.1333 kg per EUR; spend in EUR in 2019, the factor year,
 * so no conversion and no inflation: activity = money × (1 − tax − trade − transport).
 */

const HEADER =
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';
const ROW_A = 'a,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02'; // 1000 × 0.69 = 690 EUR × 0.0272 = 18.768 kg
const ROW_B = 'b,isic4,62,2019,DE,500,eur,0,0,0'; // 500 EUR × 0.1333 = 66.65 kg
const INPUT_COLUMNS = HEADER.split(',');

describe('spend CSV', () => {
  it('computes every row, writes the input columns then the result columns, and exits 1 for a bad row', async () => {
    const file = tempFile(
      'ledger.csv',
      [HEADER, ROW_A, 'c,isic4,4711,2019,DE,abc,eur,,,', ROW_B, ''].join('\n'),
    );
    const { code, stdout, stderr } = await cli(['spend', file]);
    expect(code).toBe(1);
    expect(stdout.split('\n')[0]).toBe([...INPUT_COLUMNS, ...RESULT_COLUMNS].join(','));
    const rows = parseCsv(stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      id: 'a',
      money: '1000',
      co2e: '18.768',
      co2e_unit: 'kg',
      activity_value: '690',
      activity_unit: 'eur',
      factor_source: 'EXIOBASE',
      notices: '',
      error_code: '',
      error_message: '',
    });
    expect(rows[0]?.factor_name).toBe(
      'Retail trade (except of motor vehicles and motorcycles) and repair of personal and household goods (services)',
    );
    expect(rows[0]?.factor_id).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[1]).toMatchObject({
      id: 'c',
      money: 'abc',
      co2e: '',
      factor_id: '',
      error_code: 'invalid_request',
      error_message: "'money' must be a number, got 'abc'.",
    });
    expect(rows[2]).toMatchObject({ id: 'b', co2e: '66.65', activity_value: '500' });

    // 18.768 + 66.65 = 85.418
    expect(stderr).toContain('co2e-engine spend: 3 rows, 1 failed');
    // In t and kg to four significant digits, each classification with its factor's name (shortened to 40).
    expect(stderr).toContain('total co2e: 0.08542 t (85.42 kg; rows that succeeded)');
    expect(stderr).toContain(
      'by classification:\n' +
        '  isic4 62 · Computer and related services               66.65 kg  (1 row)\n' +
        '  isic4 4711 · Retail trade (except of motor vehicles …  18.77 kg  (1 row)\n',
    );
    expect(stderr).toContain(
      "failed, by error code (count, first example):\n  invalid_request  1 row   line 3: 'money' must be a number, got 'abc'.\n",
    );
  });

  it('exits 0 when every row succeeds, and writes --out', async () => {
    const file = tempFile('ok.csv', [HEADER, ROW_A, ROW_B].join('\n'));
    const out = tempPath('ok-out.csv');
    const { code, stdout } = await cli(['spend', file, '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(parseCsv(readFileSync(out, 'utf8')).map((row) => row.co2e)).toEqual(['18.768', '66.65']);
  });

  it('an empty cell is "not supplied": missing margins come from the dataset, with a notice', async () => {
    const file = tempFile('defaults.csv', [HEADER, 'd,isic4,4711,2019,DE,1000,eur,,,'].join('\n'));
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(0);
    const [row] = parseCsv(stdout);
    expect(row?.error_code).toBe('');
    expect(row?.notices?.split(';')).toContain('default_margins_unavailable');
  });

  it('activity_id, groups in the summary by it', async () => {
    const file = tempFile(
      'by-id.csv',
      'activity_id,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin\n' +
        'general_retail-type_retail_trade_except_of_motor_vehicles_motorcycles_repair_of_personal_household_goods_services,2019,DE,100,eur,0,0,0\n',
    );
    const { code, stdout, stderr } = await cli(['spend', file]);
    expect(code).toBe(0);
    expect(parseCsv(stdout)[0]?.co2e).toBe('2.72'); // 100 EUR × 0.0272
    expect(stderr).toContain('activity_id general_retail-type_retail_trade');
  });

  it('malformed lines are their rows’ errors and the run goes on', async () => {
    const file = tempFile(
      'malformed.csv',
      [
        HEADER,
        ROW_A, // line 2
        'x,isic4,4711,2019,DE,1000', // line 3: too few fields
        'y,isic4,"47"11,2019,DE,1000,eur,0,0,0', // line 4: stray quote
        ROW_B, // line 5
        'z,isic4,"4711,2019,DE,1000,eur,0,0,0', // line 6: quote never closed
        ROW_A.replace('a,', 'a2,'), // line 7
      ].join('\n'),
    );
    const { code, stdout, stderr } = await cli(['spend', file]);
    expect(code).toBe(1);
    const rows = parseCsv(stdout);
    // A malformed line keeps the columns before its broken field (the id), so the user can find it; a line
    // with the wrong number of fields keeps its cells in order (#39 item 8), the message saying so.
    expect(rows.map((row) => [row.id, row.classification_type, row.co2e, row.error_code])).toEqual([
      ['a', 'isic4', '18.768', ''],
      ['x', 'isic4', '', 'invalid_request'],
      ['y', 'isic4', '', 'invalid_request'],
      ['b', 'isic4', '66.65', ''],
      ['z', 'isic4', '', 'invalid_request'],
      ['a2', 'isic4', '18.768', ''],
    ]);
    expect(rows[4]?.classification_code).toBe('');
    expect(rows[1]?.error_message).toBe(
      'line 3: expected 10 fields as in the header, found 6; the cells are passed through in order.',
    );
    expect(rows[2]?.error_message).toMatch(/^line 4: Invalid Closing Quote/);
    expect(rows[4]?.error_message).toBe('line 6: a quoted field is not closed at the end of the file.');
    expect(stderr).toContain('co2e-engine spend: 6 rows, 3 failed');
  });

  it('an empty file: no rows, a header of the result columns, exit 0', async () => {
    const { code, stdout, stderr } = await cli(['spend', tempFile('empty.csv', '')]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${RESULT_COLUMNS.join(',')}\n`);
    expect(stderr).toContain('co2e-engine spend: 0 rows, 0 failed');
    expect(stderr).toContain('total co2e: 0 t (0 kg; rows that succeeded)');
  });

  it('a header-only file keeps its columns', async () => {
    const { code, stdout } = await cli(['spend', tempFile('header.csv', `${HEADER}\r\n`)]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${[...INPUT_COLUMNS, ...RESULT_COLUMNS].join(',')}\n`);
  });

  it('a BOM and CRLF line ends are read cleanly', async () => {
    const file = tempFile('excel.csv', `\uFEFF${[HEADER, ROW_A, ROW_B].join('\r\n')}\r\n`);
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(0);
    expect(stdout.startsWith('id,classification_type,')).toBe(true);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => [row.id, row.transport_margin, row.co2e])).toEqual([
      ['a', '0.02', '18.768'],
      ['b', '0', '66.65'],
    ]);
  });

  it('a header naming a column twice is a usage error', async () => {
    const { code, stderr } = await cli(['spend', tempFile('dup.csv', 'money,money\n1,2\n')]);
    expect(code).toBe(2);
    expect(stderr).toContain("the header names the column 'money' twice");
  });

  it('an input column named like a result column is replaced by the result', async () => {
    const file = tempFile('rerun.csv', [`${HEADER},co2e`, `${ROW_A},999`].join('\n'));
    const { stdout } = await cli(['spend', file]);
    expect(stdout.split('\n')[0]).toBe([...INPUT_COLUMNS, ...RESULT_COLUMNS].join(','));
    expect(parseCsv(stdout)[0]?.co2e).toBe('18.768');
  });

  it('reads stdin for -', async () => {
    const { code, stdout } = await cli(['spend', '-'], { stdin: [HEADER, ROW_B].join('\n') });
    expect(code).toBe(0);
    expect(parseCsv(stdout)[0]?.co2e).toBe('66.65');
  });

  it('writes JSON Lines for --out *.jsonl, with CSV cells as text and results typed', async () => {
    const file = tempFile('to-jsonl.csv', [HEADER, ROW_A].join('\n'));
    const out = tempPath('out.jsonl');
    expect((await cli(['spend', file, '--out', out])).code).toBe(0);
    const [row] = parseJsonl(readFileSync(out, 'utf8'));
    expect(row).toMatchObject({
      id: 'a',
      money: '1000',
      co2e: 18.768,
      activity_value: 690,
      error_code: null,
      notices: [],
    });
    expect(Object.keys(row ?? {}).slice(-RESULT_COLUMNS.length)).toEqual(RESULT_COLUMNS);
  });

  it('stops after the current row when the signal aborts: exit 130, summary says interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { code, stderr } = await cli(['spend', tempFile('stop.csv', [HEADER, ROW_A].join('\n'))], {
      signal: controller.signal,
    });
    expect(code).toBe(130);
    expect(stderr).toContain('0 rows, 0 failed');
    expect(stderr).toContain('interrupted');
  });
});

describe('spend JSON Lines', () => {
  const nested = { id: 1, ...RETAIL_DE_WITH_MARGINS };

  it('takes the request body as-is (nested activity) or flat columns; null is "not supplied"', async () => {
    const flat = {
      id: 2,
      classification_type: 'isic4',
      classification_code: '62',
      spend_year: 2019,
      spend_region: 'DE',
      money: 500,
      money_unit: 'eur',
      tax_margin: 0,
      trade_margin: 0,
      transport_margin: 0,
      note: null,
    };
    const lines = [
      JSON.stringify(nested),
      '',
      JSON.stringify(flat),
      '{"id": 3, "money": ',
      '[1, 2]',
      JSON.stringify({ ...nested, id: 4, money: '1000' }),
      JSON.stringify({ ...nested, id: 5, classification_code: '62' }),
    ];
    const { code, stdout, stderr } = await cli(['spend', tempFile('ledger.jsonl', lines.join('\n'))]);
    expect(code).toBe(1);
    const rows = parseJsonl(stdout);
    expect(rows.map((row) => [row.id, row.co2e, row.error_code])).toEqual([
      [1, 18.768, null],
      [2, 66.65, null],
      [undefined, null, 'invalid_request'],
      [undefined, null, 'invalid_request'],
      [4, null, 'invalid_request'],
      [5, null, 'invalid_request'],
    ]);
    expect(rows[0]?.activity).toEqual(nested.activity);
    expect(rows[2]?.error_message).toMatch(/^line 4: not valid JSON: /);
    expect(rows[3]?.error_message).toBe('line 5: expected a JSON object, found an array.');
    expect(rows[4]?.error_message).toBe("'money' must be a number.");
    expect(rows[5]?.error_message).toBe(
      "Give either 'activity' or 'classification_type'/'classification_code'/'activity_id', not both.",
    );
    expect(stderr).toContain('6 rows, 4 failed');
  });

  it('--format csv from JSON Lines: the columns of the first object, objects as JSON text', async () => {
    const { code, stdout } = await cli([
      'spend',
      tempFile('one.jsonl', JSON.stringify(nested)),
      '--format',
      'csv',
    ]);
    expect(code).toBe(0);
    const [row] = parseCsv(stdout);
    expect(row?.activity).toBe('{"classification_type":"isic4","classification_code":"4711"}');
    expect(row?.co2e).toBe('18.768');
  });
});
