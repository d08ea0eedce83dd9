import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SPEND_ACTIVITY_COLUMNS,
  SPEND_REQUEST_COLUMNS,
  spendRows,
  yearKey,
} from '../../src/cli/adapters/spend';
import { passThroughColumns } from '../../src/cli/formats/index';
import { type ChunkContext, chunkProcessor } from '../../src/cli/pipeline/chunk';
import type { RowAdapter } from '../../src/cli/pipeline/row-adapter';
import { defaultDatasets } from '../../src/embedded/index';
import { withDatasetPreset } from '../../src/embedded/presets';
import { createTableDatasets, mergeDatasets } from '../../src/index';
import { estimateOfTemplate } from '../../src/core/estimate';
import { fastSpendRow, spendParts } from '../../src/spend/spend';

/**
 * The spend adapter's CSV row path (`csvResult`: the result cells written from the calculator's cached parts) against
 * the generic one (`compute`, then the CSV writer): the same bytes and the same summary, row for row, on varied
 * ledgers with every kind of row the fast path must decline or get right (margins supplied in part, long margins,
 * credit notes, bad cells, other spellings of a code, region and currency, audit trail off, activity ids).
 */

/** The spend request's columns (a ledger's own, `id` and `supplier`, first), the activity's spread as fields. */
const HEADER = [
  'id',
  'supplier',
  ...SPEND_ACTIVITY_COLUMNS.filter((name) => name !== 'activity_id'),
  ...SPEND_REQUEST_COLUMNS,
  'activity_id',
];

const contextOf = (header: readonly string[]): ChunkContext => ({
  inputFormat: 'csv',
  format: 'csv',
  header,
  columns: passThroughColumns(header, undefined),
  neutraliseFormulas: true,
});

/** The adapter without its CSV row path: every row through `compute` and the writer. */
const generic = (rows: RowAdapter): RowAdapter => ({ ...rows, csvResult: undefined });

/** Cells a ledger mostly has (`good`, answered), and now and then others (other spellings, bad cells). */
const mostly = (good: readonly string[], other: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 12 },
    { arbitrary: fc.constantFrom(...other), weight: 1 },
  );

const quoted = (text: string) => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** Activity ids of the embedded EXIOBASE factors (retail trade; computer services). */
const RETAIL_ID =
  'general_retail-type_retail_trade_except_of_motor_vehicles_motorcycles_repair_of_personal_household_goods_services';
const COMPUTING_ID = 'professional_services-type_computer_related_services';

const row = fc
  .record({
    // Non-ASCII names: a short line's text is copied by the output buffer's ASCII loop until it meets one.
    supplier: fc.constantFrom(
      'Supplier 1, Ltd',
      'Plain',
      '=SUM(A1)',
      'Quote "q"',
      '-12.5',
      'Zürich',
      '東京 KK',
    ),
    type: mostly(['isic4'], ['ISIC4', 'Isic4', 'nace2', 'naics2017', 'mcc', 'unspsc', '']),
    code: mostly(
      ['4711', '62', 'F', '5110', '0130', '01', '3510', '86', '6419'],
      ['130', '9999', '47.11', ''],
    ),
    year: mostly(
      ['2012', '2016', '2019', '2021', '2025'],
      ['1899', '2019.5', '', '2019.0', ' 2019', '0219', '02019', '2O19', '201/'],
    ),
    region: mostly(['DE', 'GB', 'US', 'NO', 'BR', 'FR'], ['de', 'UK', 'gb', 'JP', 'XX', 'E', '']),
    money: mostly(
      ['1000', '0', '12.345678901234567', '1e3', '99999.99', '0.01'],
      ['-250.5', '-0', 'abc', '1,5', '', '1e15', '1e16', '0.1e-320'],
    ),
    currency: mostly(['eur', 'gbp', 'usd', 'nok', 'brl', 'jpy'], ['EUR', 'rmb', 'Rmb', 'xxx', '']),
    margins: fc.oneof(
      fc.constant(['', '', '']),
      fc.tuple(
        mostly(['0.19', '0.05', '0', '0.1'], ['', '-0.05', '0.123456789012345678', '0.6', '1', '1.5', '-0']),
        mostly(['0.1', '0', '0.085'], ['', '-0.1', '0.5', '1e-3']),
        mostly(['0.02', '0.03', '0'], ['', '0.9', '-0']),
      ),
    ),
    audit: mostly([''], ['enabled', 'disabled', 'bad']),
    activityId: mostly([''], ['no-such-id', RETAIL_ID, COMPUTING_ID]),
  })
  .map(({ supplier, type, code, year, region, money, currency, margins, audit, activityId }) =>
    [quoted(supplier), type, code, year, region, money, currency, ...margins, audit, activityId].join(','),
  );

/**
 * Rows the fast paths wrote, of those they were asked for, per test: each property must see them write most rows.
 * `fromText`: those answered from their record's text (csvRecordResult); a row it declines is asked of csvResult.
 */
const taken = { written: 0, asked: 0, fromText: 0 };
const counted = (rows: RowAdapter): RowAdapter => ({
  ...rows,
  csvResult(values, source, reading) {
    const written = rows.csvResult?.(values, source, reading);
    taken.asked += 1;
    if (written !== undefined) taken.written += 1;
    return written;
  },
  csvRecordResult(header) {
    const answer = rows.csvRecordResult?.(header);
    if (answer === undefined) return undefined;
    return (text, spans, reading) => {
      const written = answer(text, spans, reading);
      if (written !== undefined) {
        taken.asked += 1;
        taken.written += 1;
        taken.fromText += 1;
      }
      return written;
    };
  },
});

function bothWays(rows: RowAdapter, lines: readonly string[], reading?: ChunkContext['reading']) {
  const context = { ...contextOf(HEADER), reading };
  const records = lines.map((line, index) => ({ line: index + 2, text: `${index + 1},${line}` }));
  const fast = chunkProcessor(counted(rows), context)(records);
  const slow = chunkProcessor(generic(rows), context)(records);
  expect(Buffer.from(fast.bytes).toString('utf8')).toBe(Buffer.from(slow.bytes).toString('utf8'));
  expect(fast.summary.toParts()).toEqual(slow.summary.toParts());
}

describe('spend CSV rows written from the cached parts (csvResult)', () => {
  const rows = spendRows(defaultDatasets);

  it('takes the fast path for a plain row, and declines a row that fails or a credit note', () => {
    const values = (money: string, margins = ['0.19', '0.1', '0.02']) => ({
      id: '1',
      classification_type: 'isic4',
      classification_code: '4711',
      spend_year: '2019',
      spend_region: 'DE',
      money,
      money_unit: 'eur',
      tax_margin: margins[0],
      trade_margin: margins[1],
      transport_margin: margins[2],
    });
    // 1000 × (1 − 0.19 − 0.1 − 0.02) = 690 EUR × 0.0272 kg/EUR = 18.768 kg (tests/cli/spend.test.ts).
    const written = rows.csvResult?.(values('1000'), 'csv', {});
    expect(written?.co2eText).toBe('18.768');
    const line = (written?.cells ?? []).join('');
    expect(line.startsWith('18.768,kg,690,eur,')).toBe(true);
    expect(line.endsWith(',0.19,supplied,0.1,supplied,0.02,supplied,0,,,,,')).toBe(true);
    expect(rows.csvResult?.(values('abc'), 'csv', {})).toBeUndefined();
    expect(rows.csvResult?.(values('-5'), 'csv', { credits: 'net' })).toBeUndefined();
    // Margins supplied in part: the calculator's exact path, so the generic row path.
    expect(rows.csvResult?.(values('1000', ['0.19', '', '']), 'csv', {})).toBeUndefined();
  });

  it('writes the same bytes and summary as compute and the writer, on varied ledgers', () => {
    taken.written = taken.asked = taken.fromText = 0;
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 60 }), (lines) => bothWays(rows, lines)),
      { numRuns: 150 },
    );
    expect(taken.written).toBeGreaterThan(taken.asked * 0.3);
    // Most of them from the record's text (csvRecordResult), the rest from the row's values (csvResult).
    expect(taken.fromText).toBeGreaterThan(taken.written * 0.3);
  });

  it('the same for rows answered from kept parts (a fresh adapter; each key seen first, then again)', () => {
    // A row whose selection, rate and price change were kept by earlier rows is answered from the numbers and
    // cells on the kept entries (keptCsvResult); later rows of each key, in another order and with other money and
    // margins, must give what the generic path gives.
    const again = fc.tuple(
      fc.array(row, { minLength: 1, maxLength: 30 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
      fc.array(fc.constantFrom('1000', '0.01', '12.345678901234567', '99999.99', '0'), { minLength: 1 }),
    );
    taken.written = taken.asked = taken.fromText = 0;
    fc.assert(
      fc.property(again, ([lines, picks, moneys]) => {
        const later = picks.map((pick, index) => {
          const cells = (lines[pick % lines.length] as string).split(',');
          // The money cell is the seventh from the end (then currency, three margins, audit, activity id).
          cells[cells.length - 7] = moneys[index % moneys.length] as string;
          return cells.join(',');
        });
        bothWays(spendRows(defaultDatasets), [...lines, ...later]);
      }),
      { numRuns: 80 },
    );
    expect(taken.written).toBeGreaterThan(taken.asked * 0.3);
    // From the text 30–45 % of the time over 40 seeds: the bound is half the lowest seen, so no seed fails it by
    // chance and a text path never taken does.
    expect(taken.fromText).toBeGreaterThan(taken.written * 0.15);
  });

  it('the same for every key of the good cells, each kept and then met again with other currencies', () => {
    // Every code, region and year with every currency, without margins and then with them, in two orders: a kept
    // price change meets rates with and without notices of their own (each row's notices cell joined from its parts).
    const lines: string[] = [];
    for (const code of ['4711', '62', 'F', '0130', '01'])
      for (const region of ['DE', 'GB', 'US', 'BR'])
        for (const year of ['2012', '2016', '2021', '2025'])
          for (const currency of ['eur', 'clf', 'gbp', 'usd', 'ars', 'brl', 'afn', 'jpy'])
            lines.push(`Plain,isic4,${code},${year},${region},1234.5,${currency},,,,,`);
    const supplied = lines.map((line) => line.replace(',,,,,', ',0.1,0.05,0.01,,'));
    taken.written = taken.asked = taken.fromText = 0;
    bothWays(spendRows(defaultDatasets), [
      ...lines,
      ...supplied,
      ...[...lines].reverse(),
      ...supplied.reverse(),
    ]);
    expect(taken.written).toBeGreaterThan(taken.asked * 0.9);
  });

  it('the same where sector inflation applies to some selections of a region and not to others', () => {
    // Retail trade (4711) is one product, p52, whose sector rates apply in DE; computer services (62) and
    // construction (F) take DE's country rates. Kept price changes are shared by the selections of one region and
    // product, so rows of all three in the same years must still each get their own.
    const inflation = createTableDatasets({
      inflation: {
        dataset: {
          id: 'sector-test',
          version: '1',
          source: 'Stats office',
          source_dataset: 'Stats office dataset',
          licence: 'internal',
          attribution: 'Stats office',
        },
        country: { DE: { '2020': 10, '2021': 3 } },
        sector: { DE: { p52: { '2020': 1, '2021': 40, '2022': 2 } } },
      },
    }).inflation;
    const datasets = mergeDatasets(defaultDatasets, { inflation });
    const lines: string[] = [];
    for (const year of ['2020', '2021', '2022', '2023'])
      for (const code of ['4711', '62', 'F', '4711'])
        for (const margins of [',,', '0.1,0.05,0.01'])
          lines.push(`Plain,isic4,${code},${year},DE,1000,eur,${margins},,`);
    taken.written = taken.asked = taken.fromText = 0;
    bothWays(spendRows(datasets), [...lines, ...lines.reverse()]);
    expect(taken.written).toBeGreaterThan(taken.asked * 0.9);
  });

  it('answers records from their text under other headers, or leaves them to csvResult, with the same bytes', () => {
    // A header whose columns the adapter reads under other names (aliases), in another order, without margins; one
    // with a column twice (no text path: which cell a name holds is then the values object's business); quoted key
    // cells and activity ids (declined from the text, answered by csvResult or compute).
    const ledger = (order: readonly string[], cells: Record<string, string>) =>
      order.map((name) => cells[name] ?? '').join(',');
    const keysOf = ['4711', '62', 'F'].flatMap((code) =>
      ['DE', 'GB'].flatMap((region) =>
        ['2016', '2021'].map((year) => ({ code, region, year, money: '1234.5', currency: 'eur' })),
      ),
    );
    const run = (header: string[], rename: Record<string, string> | undefined, texts: string[]) => {
      const context: ChunkContext = { ...contextOf(header), ...(rename !== undefined && { rename }) };
      const records = texts.map((text, index) => ({ line: index + 2, text }));
      taken.written = taken.asked = taken.fromText = 0;
      const fast = chunkProcessor(counted(spendRows(defaultDatasets)), context)(records);
      const slow = chunkProcessor(generic(spendRows(defaultDatasets)), context)(records);
      expect(Buffer.from(fast.bytes).toString('utf8')).toBe(Buffer.from(slow.bytes).toString('utf8'));
      expect(fast.summary.toParts()).toEqual(slow.summary.toParts());
      return { ...taken };
    };

    const aliased = ['Amount', 'Region', 'ref', 'Code', 'Type', 'Currency', 'Year'];
    const rename = {
      Amount: 'money',
      Region: 'spend_region',
      Code: 'classification_code',
      Type: 'classification_type',
      Currency: 'money_unit',
      Year: 'spend_year',
    };
    const aliasedTexts = [...keysOf, ...keysOf, ...keysOf].map((key, index) =>
      ledger(aliased, {
        ...key,
        Amount: key.money,
        Region: key.region,
        ref: `INV-${index}`,
        Code: key.code,
        Type: 'isic4',
        Currency: key.currency,
        Year: key.year,
      }),
    );
    const renamed = run(aliased, rename, aliasedTexts);
    expect(renamed.fromText).toBeGreaterThan(renamed.written * 0.5);

    const twice = [...HEADER, 'money'];
    const twiceTexts = [...keysOf, ...keysOf].map((key, index) =>
      [
        `${index}`,
        'Plain',
        'isic4',
        key.code,
        key.year,
        key.region,
        '1',
        key.currency,
        '',
        '',
        '',
        '',
        '',
        key.money,
      ].join(','),
    );
    const doubled = run(twice, undefined, twiceTexts);
    expect(doubled.fromText).toBe(0);
    expect(doubled.written).toBeGreaterThan(0);

    const line = (key: (typeof keysOf)[number], index: number, code: string, activityId: string) =>
      [
        `${index}`,
        'Plain',
        'isic4',
        code,
        key.year,
        key.region,
        key.money,
        key.currency,
        '',
        '',
        '',
        '',
        activityId,
      ].join(',');
    const mixed = [...keysOf, ...keysOf, ...keysOf].map((key, index) =>
      index % 3 === 1
        ? line(key, index, `"${key.code}"`, '')
        : index % 3 === 2
          ? line(key, index, key.code, COMPUTING_ID)
          : line(key, index, key.code, ''),
    );
    const some = run(HEADER, undefined, mixed);
    expect(some.fromText).toBeGreaterThan(0);
    expect(some.fromText).toBeLessThan(some.written);
  });

  it('reads money and margins where they lie in the text as strictly as the generic path reads them', () => {
    // Amounts of up to 18 digits with a point anywhere (the text path reads up to 15 digits itself, the rest as
    // text), and now and then a sign, an exponent or a second point.
    const digits = (most: number) =>
      fc
        .integer({ min: 0, max: most })
        .chain((length) =>
          fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length }),
        );
    const amount = fc.oneof(
      {
        arbitrary: fc
          .tuple(digits(9), digits(9), fc.boolean())
          .map(([whole, fraction, point]) => (point ? `${whole}.${fraction}` : `${whole}${fraction}`)),
        weight: 8,
      },
      {
        arbitrary: fc.constantFrom(
          '-1.5',
          '+2',
          '1e3',
          '1.2.3',
          '.',
          '5.',
          '.5',
          '0.140',
          '00.50',
          '9007199254740993',
        ),
        weight: 2,
      },
    );
    // Margins of up to 18 places below 1 (the text path reads up to 15 digits itself).
    const fractions = digits(18).map((fraction) => `0.${fraction}`);
    const margin = fc.oneof(fc.constantFrom('0.19', '0', '0.050', '.1'), fractions, amount);
    taken.written = taken.asked = taken.fromText = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(amount, margin, margin, margin, fc.boolean()), { minLength: 1, maxLength: 30 }),
        (cells) => {
          const lines = cells.map(([money, tax, trade, transport, supplied]) =>
            [
              'Plain',
              'isic4',
              '4711',
              '2019',
              'DE',
              money,
              'eur',
              ...(supplied ? [tax, trade, transport] : ['', '', '']),
              '',
              '',
            ].join(','),
          );
          // The key is kept by a first row, so every row after it is asked of the text path.
          bothWays(spendRows(defaultDatasets), ['Plain,isic4,4711,2019,DE,1000,eur,,,,,', ...lines]);
        },
      ),
      { numRuns: 200 },
    );
    expect(taken.fromText).toBeGreaterThan(taken.written * 0.3);
  });

  it('leaves a record to the usual path where its text path throws (which it must not)', () => {
    const rows = spendRows(defaultDatasets);
    const throwing: RowAdapter = {
      ...rows,
      csvRecordResult: () => () => {
        throw new Error('a bug in the text path');
      },
    };
    const context = contextOf(HEADER);
    const records = ['Plain,isic4,4711,2019,DE,1000,eur,,,,,', 'Plain,isic4,4711,2019,DE,250.5,eur,,,,,'].map(
      (text, index) => ({ line: index + 2, text: `${index + 1},${text}` }),
    );
    const answered = chunkProcessor(throwing, context)(records);
    const usual = chunkProcessor(generic(spendRows(defaultDatasets)), context)(records);
    expect(Buffer.from(answered.bytes).toString('utf8')).toBe(Buffer.from(usual.bytes).toString('utf8'));
    expect(answered.summary.failures).toBe(0);
  });

  it('the same under --credits net and with decimal commas', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (lines) => {
        bothWays(rows, lines, { credits: 'net' });
        bothWays(
          rows,
          lines.map((line) => line.replaceAll('.', ',').replace(/^([^,]*),/, '"$1",')),
          { decimalComma: true },
        );
      }),
      { numRuns: 40 },
    );
  });

  it('the same for JSON Lines input written as CSV (activity as an object or as fields)', () => {
    const jsonLines = (lines: readonly string[]) =>
      lines.map((line, index) => {
        const [, type, code, year, region, money, currency, tax, trade, transport, audit, id] = line
          .replace(/^"[^"]*(?:""[^"]*)*"/, 'supplier')
          .split(',');
        const number = (text: string | undefined) =>
          text === undefined || text === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text;
        const activity =
          id !== '' ? { activity_id: id } : { classification_type: type, classification_code: code };
        const fields = {
          id: index + 1,
          ...(index % 2 === 0 ? { activity } : activity),
          spend_year: number(year),
          spend_region: region,
          money: number(money),
          money_unit: currency,
          tax_margin: number(tax),
          trade_margin: number(trade),
          transport_margin: number(transport),
          ...(audit !== '' && { audit_trail: audit }),
        };
        return { line: index + 1, text: JSON.stringify(fields) };
      });
    const context: ChunkContext = {
      inputFormat: 'jsonl',
      format: 'csv',
      header: [],
      columns: ['id'],
      neutraliseFormulas: true,
    };
    taken.written = taken.asked = taken.fromText = 0;
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (lines) => {
        const records = jsonLines(lines);
        const fast = chunkProcessor(counted(rows), context)(records);
        const slow = chunkProcessor(generic(rows), context)(records);
        expect(Buffer.from(fast.bytes).toString('utf8')).toBe(Buffer.from(slow.bytes).toString('utf8'));
        expect(fast.summary.toParts()).toEqual(slow.summary.toParts());
      }),
      { numRuns: 60 },
    );
    expect(taken.written).toBeGreaterThan(taken.asked * 0.3);
  });

  it('the same with factors at purchaser price and a basis region (the CEDA preset)', () => {
    taken.written = taken.asked = taken.fromText = 0;
    const ceda = spendRows(withDatasetPreset(defaultDatasets, 'ceda'));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (lines) => bothWays(ceda, lines)),
      { numRuns: 60 },
    );
    expect(taken.written).toBeGreaterThan(0);
  });

  it('gives the estimate spendParts gives, where it answers', () => {
    let answered = 0;
    for (const code of ['4711', '62', 'F', '0130', '01'])
      for (const region of ['DE', 'GB', 'US', 'BR'])
        for (const [currency, year] of [
          ['eur', 2019],
          ['gbp', 2014],
          ['brl', 2024],
        ] as const)
          for (const margins of [{}, { tax_margin: 0.1, trade_margin: 0.05, transport_margin: 0.01 }]) {
            const request = {
              activity: { classification_type: 'isic4' as const, classification_code: code },
              spend_year: year,
              spend_region: region,
              money: 1234.5,
              money_unit: currency,
              ...margins,
            };
            const fast = fastSpendRow(request, defaultDatasets);
            if (fast === undefined) continue;
            answered += 1;
            const parts = spendParts(request, defaultDatasets);
            // The row's two numbers, and the estimate its template makes of them (its other fields).
            expect(fast.co2e).toBe(parts.estimate.co2e);
            expect(fast.activityValue).toBe(parts.estimate.activity_data.activity_value);
            expect(estimateOfTemplate(fast.activityValue, fast.template)).toEqual(parts.estimate);
            expect(fast.rate.exchange).toBe(parts.exchange);
            expect(fast.price.prices).toBe(parts.prices);
          }
    expect(answered).toBeGreaterThan(100);
  });
});

describe('yearKey (the spend year cell as a map key)', () => {
  it('reads four ASCII digits as their number and keeps every other cell as written', () => {
    expect(yearKey('2019')).toBe(2019);
    expect(yearKey('0219')).toBe(219);
    expect(yearKey('0000')).toBe(0);
    for (const cell of ['219', '02019', ' 2019', '2019 ', '2O19', '201/', '201:', '+201', '', '２０１９'])
      expect(yearKey(cell)).toBe(cell);
  });

  it('gives no two cells the same key', () => {
    const cell = fc.oneof(
      fc.stringMatching(/^[0-9]{1,5}$/),
      fc.string({ maxLength: 5 }),
      fc.integer({ min: 0, max: 9999 }).map(String),
    );
    fc.assert(
      fc.property(cell, cell, (a, b) => {
        expect(yearKey(a) === yearKey(b)).toBe(a === b);
      }),
      { numRuns: 2000 },
    );
  });
});
