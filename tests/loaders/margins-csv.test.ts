import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDatasets, spendTables } from '../../src/embedded/index';
import {
  calculateSpend,
  createTableDatasets,
  DatasetError,
  mergeDatasets,
  type DatasetInfo,
  type SpendRequest,
} from '../../src/index';
import { parseMarginsCsv } from '../../src/loaders/index';
import { loadMarginsCsv } from '../../src/node/index';
import { RETAIL_DE } from '../fixtures/requests';

const dataset: DatasetInfo = {
  id: 'our-margins',
  version: '2024',
  source: 'Stats office',
  source_dataset: 'Supply table margins',
  licence: 'internal',
  attribution: 'Stats office',
};
const options = { file: 'margins.csv', dataset, classifications: spendTables.classifications };
const parse = (text: string) => parseMarginsCsv(text, options);

/** The DatasetError a CSV raises, as `location: problem`. */
function failure(text: string, parseOptions: Parameters<typeof parseMarginsCsv>[1] = options): string {
  try {
    parseMarginsCsv(text, parseOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    const datasetError = error as DatasetError;
    expect(datasetError.table).toBe('margins.csv');
    return `${datasetError.location}: ${datasetError.problem}`;
  }
  throw new Error('expected a DatasetError');
}

const retailDe = (margins: Partial<SpendRequest> = {}): SpendRequest => ({ ...RETAIL_DE, ...margins });

describe('parseMarginsCsv', () => {
  it('reads rows by product and by classification code; a product row wins over a code row', () => {
    const table = parse(
      [
        'region,classification,code,product,tax,trade,transport',
        'FR,isic4,47,,0.2,0.25,0.02', // ISIC 47 maps to p50.b and p52
        'FR,,,p52,0.1,0.3,0.01',
        'DE,,,p52,-0.05,0.2,0.01',
      ].join('\n'),
    );
    expect(table.dataset).toEqual(dataset);
    expect(table.margins).toEqual([
      { region: 'FR', product: 'p50.b', tax_margin: 0.2, trade_margin: 0.25, transport_margin: 0.02 },
      { region: 'FR', product: 'p52', tax_margin: 0.1, trade_margin: 0.3, transport_margin: 0.01 },
      { region: 'DE', product: 'p52', tax_margin: -0.05, trade_margin: 0.2, transport_margin: 0.01 },
    ]);
    // The same whichever comes first.
    const reversed = parse(
      [
        'region,product,classification,code,tax,trade,transport',
        'FR,p52,,,0.1,0.3,0.01',
        'FR,,isic4,47,0.2,0.25,0.02',
      ].join('\n'),
    );
    expect(reversed.margins.find((row) => row.product === 'p52')?.trade_margin).toBe(0.3);
  });

  it('accepts two codes giving one product the same margins', () => {
    const table = parse(
      [
        'region,classification,code,tax,trade,transport',
        'DE,isic4,4711,0.19,0.2,0.01',
        'DE,isic4,4719,0.19,0.2,0.01',
      ].join('\n'),
    );
    expect(table.margins).toEqual([
      { region: 'DE', product: 'p52', tax_margin: 0.19, trade_margin: 0.2, transport_margin: 0.01 },
    ]);
  });

  it.each([
    [
      'a negative trade margin',
      'DE,p52,0.1,-0.01,0',
      'line 2, column 4 (trade): trade: -0.01 is negative; it must be at least 0',
    ],
    [
      'a negative transport margin',
      'DE,p52,0.1,0,-1',
      'line 2, column 5 (transport): transport: -1 is negative; it must be at least 0',
    ],
    // 0.5 + 0.3 + 0.2 is exactly 1 when added as decimals (as the engine adds them)
    [
      'margins summing to exactly 1',
      'DE,p52,0.5,0.3,0.2',
      'line 2, column 3 (tax): tax + trade + transport = 1; the margins must leave part of the price (sum below 1)',
    ],
    [
      'margins summing to more than 1',
      'DE,p52,0.7,0.3,0.2',
      'line 2, column 3 (tax): tax + trade + transport = 1.2; the margins must leave part of the price (sum below 1)',
    ],
    ['a decimal comma', 'DE,p52,"0,1",0,0', 'line 2, column 3 (tax): tax: '],
    ['an empty region', ',p52,0.1,0,0', 'line 2, column 1 (region): region is empty; it is required'],
    [
      'a region that is not a code',
      'Germany,p52,0.1,0,0',
      'line 2, column 1 (region): region: must be two capital letters',
    ],
  ])('refuses %s, naming line and column', (_what, row, expected) => {
    expect(failure(`region,product,tax,trade,transport\n${row}\n`)).toContain(expected);
  });

  it.each([
    [
      'both product and code',
      'DE,p52,isic4,4711,0,0,0',
      'line 2, column 2 (product): give either product or classification and code, not both',
    ],
    [
      'neither product nor code',
      'DE,,,,0,0,0',
      'line 2, column 2 (product): a row needs product, or classification and code',
    ],
    [
      'a classification without a code',
      'DE,,isic4,,0,0,0',
      'line 2, column 4 (code): a row needs product, or classification and code',
    ],
    [
      'an unknown classification',
      'DE,,sic,4711,0,0,0',
      'line 2, column 3 (classification): unknown classification "sic"; known: ',
    ],
    [
      'an unknown code',
      'DE,,isic4,9999,0,0,0',
      'line 2, column 4 (code): isic4 code "9999" is not in the classifications table',
    ],
  ])('refuses %s', (_what, row, expected) => {
    expect(failure(`region,product,classification,code,tax,trade,transport\n${row}\n`)).toContain(expected);
  });

  it('refuses codes without a classifications table', () => {
    expect(
      failure('region,classification,code,tax,trade,transport\nDE,isic4,4711,0,0,0\n', {
        file: 'margins.csv',
        dataset,
      }),
    ).toBe(
      'line 2, column 3 (code): rows by classification code need the classifications table (option classifications)',
    );
  });

  it('refuses a (region, product) given twice, or two codes that disagree, naming both lines', () => {
    expect(failure('region,product,tax,trade,transport\nDE,p52,0,0,0\nFR,p52,0,0,0\nDE,p52,0.1,0,0\n')).toBe(
      'line 4, column 1 (region): margins for region DE and product p52 given twice (first on line 2)',
    );
    expect(
      failure(
        'region,classification,code,tax,trade,transport\nDE,isic4,4711,0.19,0.2,0.01\nDE,isic4,4719,0.19,0.1,0.01\n',
      ),
    ).toBe(
      'line 3, column 1 (region): margins for region DE and product p52 given twice with different values (first on line 2)',
    );
  });

  it('refuses unknown and missing columns, and reports how many more problems there are', () => {
    expect(failure('region,product,tax,trade,transport,vat\n')).toContain(
      'line 1, column 6 (vat): unknown column "vat"',
    );
    expect(failure('region,product,tax,trade\n')).toBe('line 1: missing column transport of a margins CSV');
    expect(failure('region,product,tax,trade,transport\nDE,p52,0,-1,0\nDE,p53,0,-1,0\n')).toBe(
      'line 2, column 4 (trade): trade: -1 is negative; it must be at least 0 (and 1 more problem in this file)',
    );
  });

  it('refuses a dataset description that is incomplete', () => {
    expect(() =>
      parseMarginsCsv('region,product,tax,trade,transport\n', {
        dataset: { ...dataset, licence: '' },
      }),
    ).toThrow(DatasetError);
  });
});

describe('loaded margins in a spend estimate', () => {
  const margins = parse(
    ['region,classification,code,tax,trade,transport', 'DE,isic4,4711,0.19,0.2,0.01'].join('\n'),
  );
  const datasets = mergeDatasets(defaultDatasets, createTableDatasets({ margins }));

  it('fill every margin not supplied, and say which dataset they came from', () => {
    const result = calculateSpend(retailDe(), datasets);
    // 1000 EUR × (1 − 0.19 − 0.2 − 0.01) = 600 EUR at basic price × 0.0272 kg/EUR (DE p52) = 16.32 kg
    expect(result.estimate.co2e).toBe(16.32);
    expect(result.calculation_details.margin_sources).toEqual({
      tax_margin: 'default',
      trade_margin: 'default',
      transport_margin: 'default',
    });
    expect(result.calculation_details.margin_datasets).toEqual(['our-margins@2024']);
    expect(result.notices.map((notice) => notice.code)).not.toContain('default_margins_unavailable');
  });

  it('lose to margins supplied with the request, one by one', () => {
    const result = calculateSpend(retailDe({ tax_margin: 0 }), datasets);
    // 1000 × (1 − 0 − 0.2 − 0.01) = 790 EUR × 0.0272 = 21.488 kg
    expect(result.estimate.co2e).toBe(21.488);
    expect(result.calculation_details).toMatchObject({
      tax_margin: 0,
      trade_margin: 0.2,
      transport_margin: 0.01,
      margin_sources: { tax_margin: 'supplied', trade_margin: 'default', transport_margin: 'default' },
      margin_datasets: ['our-margins@2024'],
    });
    const allSupplied = calculateSpend(
      retailDe({ tax_margin: 0, trade_margin: 0, transport_margin: 0 }),
      datasets,
    );
    expect(allSupplied.estimate.co2e).toBe(27.2);
    expect(allSupplied.calculation_details).not.toHaveProperty('margin_datasets');
  });

  it('leave a product they lack at 0 with the warning, and name no dataset', () => {
    const result = calculateSpend(retailDe({ spend_region: 'FR' }), datasets);
    expect(result.calculation_details.margin_sources.trade_margin).toBe('none');
    expect(result.calculation_details).not.toHaveProperty('margin_datasets');
    expect(result.notices.map((notice) => notice.code)).toContain('default_margins_unavailable');
  });
});

describe('loadMarginsCsv', () => {
  const folder = mkdtempSync(join(tmpdir(), 'co2e-margins-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a file, and names it in errors', () => {
    const path = join(folder, 'margins.csv');
    writeFileSync(path, '\uFEFFregion,product,tax,trade,transport\r\nDE,p52,0.19,0.2,0.01\r\n');
    expect(loadMarginsCsv(path, { dataset }).margins).toEqual([
      { region: 'DE', product: 'p52', tax_margin: 0.19, trade_margin: 0.2, transport_margin: 0.01 },
    ]);
    writeFileSync(path, 'region,product,tax,trade,transport\nDE,p52,0.19,0.9,0.01\n');
    expect(() => loadMarginsCsv(path, { dataset })).toThrow(
      `${path} at line 2, column 3 (tax): tax + trade + transport = 1.1`,
    );
    expect(() => loadMarginsCsv(join(folder, 'none.csv'), { dataset })).toThrow(
      `${join(folder, 'none.csv')}: no such file`,
    );
  });
});
