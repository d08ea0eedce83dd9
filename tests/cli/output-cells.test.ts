import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../../src/cli/formats/jsonl/reader';
import { stringify } from 'csv-stringify/sync';
import {
  csvField,
  ENCODERS,
  neutraliseFormula,
  plainDecimal,
  resultFields,
} from '../../src/cli/formats/index';
import { decimal, toPlainString } from '../../src/core/decimal';
import { cli, parseCsv, parseJsonl, tempFile } from './harness';

/**
 * What the output cells hold: formula-like pass-through cells made inert in CSV (never in JSON Lines), JSON
 * numbers passed through as written, plain decimals in CSV, and the same output whatever `--jobs` is.
 */

const SPEND = 'classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROW = 'isic4,62,2019,DE,500,eur'; // 500 EUR × 0.1333 = 66.65 kg

describe('CSV injection', () => {
  const note = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const cells = [
    '=HYPERLINK("http://evil.example","click")',
    '+1+1',
    '-2+3',
    '@SUM(A1:A9)',
    '-12.5', // a plain number: left alone
    '+3',
    '1e3',
    '\uFF1DSUM(A1)', // full-width =, which Apple Numbers runs too
    'ordinary',
  ];
  const input = [
    `id,note,=header,${SPEND}`,
    ...cells.map((text, index) => `${index},${note(text)},x,${ROW}`),
  ].join('\n');

  it('prefixes formula-like pass-through cells (and header names) with a quote in CSV; plain numbers stay', async () => {
    const { code, stdout } = await cli(['spend', tempFile('formulas.csv', input)]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]?.startsWith("id,note,'=header,")).toBe(true);
    expect(parseCsv(stdout).map((row) => row.note)).toEqual([
      `'=HYPERLINK("http://evil.example","click")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1:A9)",
      '-12.5',
      '+3',
      '1e3',
      "'\uFF1DSUM(A1)",
      'ordinary',
    ]);
  });

  it('neutralises tab and carriage-return starts from JSON Lines input; JSON Lines output is never changed', async () => {
    const lines = [
      { id: '\t=1+1', note: '\r=2+2', ...request() },
      { id: '-7', note: '=3+3', ...request() },
    ].map((row) => JSON.stringify(row));
    const file = tempFile('formulas.jsonl', lines.join('\n'));
    const csv = await cli(['spend', file, '--format', 'csv']);
    expect(parseCsv(csv.stdout).map((row) => [row.id, row.note])).toEqual([
      ["'\t=1+1", "'\r=2+2"],
      ['-7', "'=3+3"],
    ]);
    const jsonl = await cli(['spend', file]);
    expect(parseJsonl(jsonl.stdout).map((row) => [row.id, row.note])).toEqual([
      ['\t=1+1', '\r=2+2'],
      ['-7', '=3+3'],
    ]);
  });

  it('--allow-formulas writes the cells as they are', async () => {
    const { stdout } = await cli(['spend', tempFile('allowed.csv', input), '--allow-formulas']);
    expect(parseCsv(stdout).map((row) => row.note)).toEqual(cells);
    expect(stdout.split('\n')[0]?.startsWith('id,note,=header,')).toBe(true);
  });

  it('property: a neutralised cell never starts with a formula character unless it is a plain number', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '1', '.', 'e', 'a', ' ') }),
        (text) => {
          const safe = neutraliseFormula(text);
          const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text);
          expect(/^[=+\-@\t\r]/.test(safe) && !plainNumber).toBe(false);
          expect(safe === text || safe === `'${text}`).toBe(true);
        },
      ),
    );
  });
});

function request() {
  return {
    classification_type: 'isic4',
    classification_code: '62',
    spend_year: 2019,
    spend_region: 'DE',
    money: 500,
    money_unit: 'eur',
  };
}

describe('CSV fields', () => {
  it('property: csvField writes what csv-stringify writes with its defaults, and quotes a carriage return', () => {
    // csv-stringify leaves a lone CR unquoted (`a\rb`), which readers may take for a line end; RFC 4180 quotes it.
    expect(csvField('a\rb')).toBe('"a\rb"');
    const unit = fc.constantFrom('a', ' ', ',', '"', '\n', '\t', 'é', '=');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 8 }), { minLength: 1, maxLength: 5 }), (cells) => {
        expect(`${cells.map(csvField).join(',')}\n`).toBe(stringify([cells], { record_delimiter: 'unix' }));
      }),
      { numRuns: 2_000 },
    );
  });

  it('property: a CSV line is each cell by the rules, however often a value repeats (the encoder remembers result texts)', () => {
    // Values drawn from small pools, so rows repeat them as a ledger does; the rules, cell by cell, are the reference.
    const text = fc.constantFrom(
      'Steel',
      '=HYPERLINK("x")',
      '-12.5',
      '+1+1',
      'a, "b"',
      '@x',
      '',
      'line\nend',
      'é',
    );
    const value = fc.oneof(text, fc.constantFrom(0.1, -2.5, 4.1771632e-10, 1e21, 7), fc.constant(null));
    const row = fc.record({ note: text, co2e: value, factor_name: value, error_message: value });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (rows, neutraliseFormulas) => {
          const encoder = ENCODERS.csv({ columns: ['note'], neutraliseFormulas });
          const guard = neutraliseFormulas ? neutraliseFormula : (cell: string) => cell;
          const resultCell = (cell: unknown) =>
            cell === null
              ? ''
              : typeof cell === 'number'
                ? plainDecimal(cell)
                : csvField(neutraliseFormula(String(cell)));
          for (const { note, ...result } of rows) {
            const fields = { ...resultFields(undefined), ...result };
            const expected = [
              csvField(guard(note)),
              ...Object.keys(resultFields(undefined)).map((name) =>
                name === 'notices' ? '' : resultCell(fields[name as keyof typeof fields]),
              ),
            ].join(',');
            expect(encoder.line({ note }, fields)).toBe(`${expected}\n`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('JSON Lines result columns', () => {
  it('writes every result column in order, null where the outcome has none (as a failed row gets them)', () => {
    const encoder = ENCODERS.jsonl({ columns: ['id'], neutraliseFormulas: true });
    const outcome = { co2e: 1.5, co2e_unit: 'kg', activity_value: 3, activity_unit: 'eur', notices: [] };
    const written = JSON.parse(encoder.line({ id: 'a' }, outcome)) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(['id', ...Object.keys(resultFields(undefined))]);
    expect(written).toEqual({ id: 'a', ...resultFields(undefined), ...outcome });
  });
});

describe('JSON Lines numbers pass through as written', () => {
  const passThrough = '"ref":1e999,"big":12345678901234567890,"one":1.0,"zero":-0,"hundred":1E2,"plain":2.5';
  const line = `{${passThrough},"classification_type":"isic4","classification_code":"62","spend_year":2019,"spend_region":"DE","money":500,"money_unit":"eur"}`;

  it('writes 1e999, 20-digit ids, 1.0 and -0 as their input text, in JSON Lines and in CSV', async () => {
    const file = tempFile('numbers.jsonl', `${line}\n`);
    const jsonl = await cli(['spend', file]);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout.startsWith(`{${passThrough},`)).toBe(true);
    expect(jsonl.stdout).toContain('"co2e":66.65,');

    const csv = await cli(['spend', file, '--format', 'csv']);
    const [row] = parseCsv(csv.stdout);
    expect([row?.ref, row?.big, row?.one, row?.zero, row?.hundred, row?.plain]).toEqual([
      '1e999',
      '12345678901234567890',
      '1.0',
      '-0',
      '1E2',
      '2.5',
    ]);
  });

  it('property: any JSON number text passes through a JSON Lines read and write unchanged', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const numberText = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
      fc
        .tuple(
          fc.constantFrom('', '-'),
          fc.constantFrom('0', '1', '9'),
          digits(0, 25),
          fc.option(digits(1, 25)),
        )
        .map(
          ([sign, lead, rest, fraction]) =>
            `${sign}${lead === '0' ? '0' : lead + rest}${fraction === null ? '' : `.${fraction}`}`,
        ),
      fc
        .tuple(
          fc.integer({ min: -99, max: 99 }),
          fc.integer({ min: -400, max: 400 }),
          fc.constantFrom('e', 'E', 'e+'),
        )
        .map(([mantissa, exponent, e]) => `${mantissa}${e}${exponent}`),
    );
    const encode = ENCODERS.jsonl({ columns: [], neutraliseFormulas: true });
    fc.assert(
      fc.property(numberText, (text) => {
        const parsed = parseJsonLine(`{"n":${text}}`, 1);
        if (!('values' in parsed)) return; // not a JSON number after all (e.g. `01`)
        const written = encode.encode([{ input: parsed.values, result: resultFields(undefined) }]);
        expect(written.startsWith(`{"n":${text},`)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('a request number JSON cannot hold (money 1e999) fails its row and is still written as given', async () => {
    const file = tempFile('huge.jsonl', `${line.replace('"money":500', '"money":1e999')}\n`);
    const { code, stdout } = await cli(['spend', file]);
    expect(code).toBe(1);
    expect(stdout).toContain('"money":1e999,');
    expect(parseJsonl(stdout)[0]?.error_code).toBe('invalid_request');
  });
});

describe('plain decimals in CSV', () => {
  it('writes a tiny result as a plain decimal in CSV and as a JSON number in JSON Lines', async () => {
    // 0.00000001 EUR of ISIC 62 in DE, 2019, no margins: activity 0.00000001 EUR × 0.1333 = 0.000000001333 kg.
    const file = tempFile(
      'tiny.csv',
      `${SPEND},tax_margin,trade_margin,transport_margin\nisic4,62,2019,DE,0.00000001,eur,0,0,0\n`,
    );
    const csv = await cli(['spend', file]);
    const [row] = parseCsv(csv.stdout);
    expect(row?.co2e).toBe('0.000000001333');
    expect(row?.activity_value).toBe('0.00000001');
    expect(csv.stdout).not.toMatch(/\de-\d/);
    expect(csv.stderr).toContain('total co2e: 0.000000000001333 t (0.000000001333 kg;');

    const jsonl = await cli(['spend', file, '--format', 'jsonl']);
    expect(parseJsonl(jsonl.stdout)[0]?.co2e).toBe(1.333e-9);
  });

  it('property: plainDecimal of any finite double has no exponent and reads back as the same double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = plainDecimal(value);
        expect(text).toMatch(/^-?\d+(?:\.\d+)?$/);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
      }),
    );
    expect(plainDecimal(4.1771632e-10)).toBe('0.00000000041771632');
    expect(plainDecimal(1.5e21)).toBe('1500000000000000000000');
  });

  it('property: plainDecimal writes the very text of the exact decimal of the double (String digits, no exponent)', () => {
    // The text expansion must equal the decimal arithmetic it replaced, digit for digit: output bytes unchanged.
    const exponentForm = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: 1e-30, max: 1e-6, noNaN: true }),
      fc.double({ min: 1e21, max: 1e300, noNaN: true }),
    );
    fc.assert(
      fc.property(exponentForm, (value) => {
        expect(plainDecimal(value)).toBe(toPlainString(decimal(value)));
      }),
    );
    expect(plainDecimal(-1.25e-7)).toBe('-0.000000125');
    expect(plainDecimal(5e-324)).toBe(toPlainString(decimal(5e-324)));
  });
});

describe('--jobs', () => {
  it('worker threads write the same rows in the same order, with the same summary, as the main thread', async () => {
    const rows = Array.from({ length: 2_500 }, (_, index) =>
      index % 400 === 7
        ? `${index},isic4,62,2019,DE,n/a,eur`
        : `${index},${ROW.replace('500', String(index + 0.5))}`,
    );
    const file = tempFile('jobs.csv', [`id,${SPEND}`, ...rows].join('\n'));
    const one = await cli(['spend', file, '--jobs', '1']);
    const two = await cli(['spend', file, '--jobs', '2']);
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    const withoutTiming = (text: string) => text.replace(/, [\d.]+ s \(\d+ rows\/s\)/, '');
    expect(withoutTiming(two.stderr)).toBe(withoutTiming(one.stderr));
    expect(two.stderr).toContain('2500 rows, 7 failed');
    expect(parseCsv(two.stdout).map((row) => row.id)).toEqual(rows.map((_, index) => String(index)));
  });
});
