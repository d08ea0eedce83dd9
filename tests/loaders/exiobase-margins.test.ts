import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { defaultTables } from '../../src/embedded/index';
import { DatasetError } from '../../src/index';
import {
  EXIOBASE_MARGIN_FILES,
  parseExiobaseMargins,
  textLines,
  type ExiobaseMarginLayer,
  type ExiobaseMarginsInput,
} from '../../src/loaders/index';
import { fileLines, linesOfChunks } from '../../src/node/files';
import { loadExiobaseMargins } from '../../src/node/index';
import { type ZipEntry, zipEntries, zipEntryChunks } from '../../src/node/zip';
import { tempPath } from '../cli/harness';

/**
 * A two-region supply-use release in the layout of EXIOBASE's `use.csv` (tab-separated, as pandas writes a frame
 * with two-level rows and columns: header rows `region` and `sector`, a row of index names, then rows of supplying
 * region and product name). Columns: AT and FR, two industries each. Using region totals (basic / trade /
 * transport / taxes → purchasers' price):
 * - AT wheat 12 / 4 / 2 / 2 → 20: tax 0.1, trade 0.2, transport 0.1.
 * - FR wheat 50 / 10 / 5 / −5 → 60 (a subsidy).
 * - AT computer services 25 / 0 / 0 / 5 → 30; FR 300 / 0 / 0 / 75 → 375.
 * - AT wholesale trade 6 / −2 / 0 / 0.4 → 4.4: a margin product, trade 0.
 * - Paddy rice: bought by nobody.
 */
const ROWS = [
  ['AT', 'Wheat'],
  ['AT', 'Computer and related services (72)'],
  ['AT', 'Wholesale trade and commission trade services, except of motor vehicles and motorcycles (51)'],
  ['AT', 'Paddy rice'],
  ['FR', 'Wheat'],
  ['FR', 'Computer and related services (72)'],
  ['FR', 'Wholesale trade and commission trade services, except of motor vehicles and motorcycles (51)'],
  ['FR', 'Paddy rice'],
] as const;
const CELLS: Record<ExiobaseMarginLayer, string[][]> = {
  use: [
    ['10', '0', '5', '0'],
    ['0', '20', '0', '30'],
    ['3', '3', '0', '0'],
    ['0', '0', '0', '0'],
    ['2', '0', '45', '0'],
    ['0', '5', '0', '270'],
    ['0', '0', '2', '2'],
    ['0', '0', '0', '0'],
  ],
  trade: [
    ['3.5', '0', '1', '0'],
    ['0', '0', '0', '0'],
    ['-1', '-1', '0', '0'],
    ['0', '0', '0', '0'],
    ['0.5', '0', '9', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
  ],
  transport: [
    ['1.5', '0', '1', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
    ['0.5', '0', '4', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
  ],
  taxes: [
    ['2', '0', '0', '0'],
    ['0', '4', '0', '15'],
    ['0.2', '0.2', '0', '0'],
    ['0', '0', '0', '0'],
    ['0', '0', '-5', '0'],
    ['0', '1', '0', '60'],
    ['0', '0', '0', '0'],
    ['0', '0', '0', '0'],
  ],
};

function table(cells: string[][], rows: ReadonlyArray<readonly [string, string]> = ROWS): string {
  return [
    'region\t\tAT\tAT\tFR\tFR',
    'sector\t\tCultivation of wheat\tComputer services\tCultivation of wheat\tComputer services',
    'region\tsector\t\t\t\t',
    ...rows.map((row, index) => [...row, ...(cells[index] ?? [])].join('\t')),
    '',
  ].join('\n');
}
const texts = (): Record<ExiobaseMarginLayer, string> => ({
  use: table(CELLS.use),
  trade: table(CELLS.trade),
  transport: table(CELLS.transport),
  taxes: table(CELLS.taxes),
});
const input = (tables = texts()): ExiobaseMarginsInput => ({
  tables: {
    use: textLines(tables.use),
    trade: textLines(tables.trade),
    transport: textLines(tables.transport),
    taxes: textLines(tables.taxes),
  },
  year: 2019,
  version: '3.8.2',
  products: defaultTables.classifications.products,
});

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as DatasetError).message;
  }
  throw new Error('expected a DatasetError');
}

describe('parseExiobaseMargins', () => {
  const result = parseExiobaseMargins(input());
  const margin = (region: string, product: string) =>
    result.margins.margins.find((each) => each.region === region && each.product === product);

  it('gives each layer’s share of the purchasers’-price total of the using region', () => {
    expect(margin('AT', 'p01.b')).toEqual({
      region: 'AT',
      product: 'p01.b',
      tax_margin: 0.1,
      trade_margin: 0.2,
      transport_margin: 0.1,
    });
    expect(margin('FR', 'p01.b')).toMatchObject({
      tax_margin: -0.08333333333333333,
      trade_margin: 0.16666666666666666,
      transport_margin: 0.08333333333333333,
    });
    expect(margin('AT', 'p72')).toMatchObject({
      tax_margin: 0.16666666666666666,
      trade_margin: 0,
      transport_margin: 0,
    });
    expect(margin('FR', 'p72')).toMatchObject({ tax_margin: 0.2, trade_margin: 0, transport_margin: 0 });
  });

  it('lists margin products (negative layer: that margin is 0) and products nobody buys (no margins)', () => {
    expect(margin('AT', 'p51')).toMatchObject({
      tax_margin: 0.09090909090909091,
      trade_margin: 0,
      transport_margin: 0,
    });
    expect(result.marginProducts).toEqual([{ region: 'AT', product: 'p51', layer: 'trade' }]);
    expect(result.notPurchased).toEqual([
      { region: 'AT', product: 'p01.a' },
      { region: 'FR', product: 'p01.a' },
    ]);
    expect(margin('AT', 'p01.a')).toBeUndefined();
    expect(result.margins.margins).toHaveLength(6);
  });

  it('leaves out a product whose margins would leave no basic price', () => {
    const one = (value: string) => textLines(`region\t\tAT\nsector\t\tFarming\nAT\tWheat\t${value}\n`);
    // basic 1, trade −2 (a margin product's layer), taxes 2: purchasers' price 1, tax share 2.
    const read = parseExiobaseMargins({
      tables: { use: one('1'), trade: one('-2'), transport: one('0'), taxes: one('2') },
      year: 2019,
      products: defaultTables.classifications.products,
    });
    expect(read.noBasicPrice).toEqual([{ region: 'AT', product: 'p01.b' }]);
    expect(read.margins.margins).toEqual([]);
    expect(read.marginProducts).toEqual([]);
  });

  it('names the dataset after the release, with its licence', () => {
    expect(result.margins.dataset).toMatchObject({
      id: 'exiobase-3-MRSUT_2019-margins',
      version: '3.8.2',
      source: 'EXIOBASE',
      licence: 'CC-BY-SA-4.0',
    });
    const unversioned = parseExiobaseMargins({ ...input(), version: undefined });
    expect(unversioned.margins.dataset.version).toMatch(/^content-[0-9a-f]{16}$/);
    expect(parseExiobaseMargins({ ...input(), regions: ['FR'] }).regions).toEqual(['FR']);
  });

  it('refuses another layout, unknown products, mismatched layers, bad cells and unknown regions', () => {
    expect(failure(() => parseExiobaseMargins(input({ ...texts(), use: 'a\tb\n' })))).toBe(
      'use.csv at line 1, column 1: expected the EXIOBASE use.csv layout: header rows "region" then "sector", each column\'s region and industry from the third cell (got "a")',
    );
    const unknown = table(CELLS.use, [['AT', 'Moon rock'], ...ROWS.slice(1)]);
    expect(failure(() => parseExiobaseMargins(input({ ...texts(), use: unknown })))).toBe(
      'use.csv at line 4, column 2: unknown product name "Moon rock"; it is not in the products map',
    );
    const shorter = table(CELLS.trade.slice(0, 7), ROWS.slice(0, 7));
    expect(failure(() => parseExiobaseMargins(input({ ...texts(), trade: shorter })))).toBe(
      'trade_margins.csv: the rows differ from those of use.csv (from data row 8)',
    );
    const otherColumns = texts().taxes.replace('region\t\tAT\tAT\tFR\tFR', 'region\t\tAT\tAT\tFR\tDE');
    expect(failure(() => parseExiobaseMargins(input({ ...texts(), taxes: otherColumns })))).toBe(
      'taxes_less_subsidies.csv at line 1: the columns differ from those of use.csv',
    );
    const bad = table([['1,5', '0', '0', '0'], ...CELLS.transport.slice(1)]);
    expect(failure(() => parseExiobaseMargins(input({ ...texts(), transport: bad })))).toBe(
      'transport_margins.csv at line 4, column 3: cell "1,5" is not a number (write decimals with a point, not a comma)',
    );
    expect(failure(() => parseExiobaseMargins({ ...input(), regions: ['DE'] }))).toBe(
      'use.csv: region DE is not in the tables; they have AT, FR',
    );
  });
});

describe('loadExiobaseMargins', () => {
  const encoder = new TextEncoder();
  it('reads the release zip (tables in a folder of it) and the unpacked folder alike', () => {
    const zip = tempPath('MRSUT_2019.zip');
    const files = Object.fromEntries(
      (Object.entries(texts()) as Array<[ExiobaseMarginLayer, string]>).map(([layer, text]) => [
        `MRSUT_2019/${EXIOBASE_MARGIN_FILES[layer]}`,
        encoder.encode(text),
      ]),
    );
    writeFileSync(
      zip,
      zipSync({ ...files, 'MRSUT_2019/supply.csv': encoder.encode('not read') }, { level: 6 }),
    );
    const options = { year: 2019, version: '3.8.2', products: defaultTables.classifications.products };
    const fromZip = loadExiobaseMargins(zip, options);
    expect(fromZip.margins).toEqual(parseExiobaseMargins(input()).margins);

    const folder = tempPath('MRSUT_2019');
    mkdirSync(folder);
    for (const [layer, text] of Object.entries(texts()))
      writeFileSync(join(folder, EXIOBASE_MARGIN_FILES[layer as ExiobaseMarginLayer]), text);
    expect(loadExiobaseMargins(folder, options).margins).toEqual(fromZip.margins);
  });

  it('splits streamed chunks into whole lines, across CRLF and multi-byte characters', () => {
    const bytes = encoder.encode('a\tÉté\r\nb\tx\n\nlast');
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect([...linesOfChunks(chunks, 'f.csv')]).toEqual(['a\tÉté', 'b\tx', '', 'last']);
    expect(() => [...linesOfChunks([Uint8Array.of(0x61, 0xff, 0x0a)], 'f.csv')]).toThrow(
      'f.csv: not UTF-8 text',
    );
    const file = tempPath('lines.txt');
    writeFileSync(file, 'one\ntwo\nthree');
    expect([...fileLines(file, 2)]).toEqual(['one', 'two', 'three']);
  });

  it('inflates a zip entry in small pieces to the same bytes, stored or deflated', () => {
    const text = texts().use.repeat(20);
    for (const level of [0, 6] as const) {
      const zip = tempPath(`entry-${level}.zip`);
      writeFileSync(zip, zipSync({ 'use.csv': encoder.encode(text) }, { level }));
      const [entry] = zipEntries(zip);
      const lines = [...linesOfChunks(zipEntryChunks(zip, entry as ZipEntry, 7), 'use.csv')];
      expect(lines.join('\n')).toBe(text.replace(/\n$/, ''));
    }
  });

  it('refuses a missing path or table, and a release of another year', () => {
    const options = { year: 2019, products: defaultTables.classifications.products };
    expect(failure(() => loadExiobaseMargins(tempPath('none'), options))).toContain('no such file or folder');
    const folder = tempPath('layers');
    mkdirSync(folder);
    writeFileSync(join(folder, 'use.csv'), texts().use);
    expect(failure(() => loadExiobaseMargins(folder, options))).toContain(
      'no trade_margins.csv in the folder (the trade table)',
    );
    const zip = tempPath('MRSUT_2018.zip');
    writeFileSync(zip, zipSync({ 'use.csv': encoder.encode(texts().use) }));
    expect(failure(() => loadExiobaseMargins(zip, options))).toContain(
      'this is the 2018 release, but year 2019 was asked for',
    );
    const other = tempPath('layers.zip');
    writeFileSync(other, zipSync({ 'use.csv': encoder.encode(texts().use) }));
    expect(failure(() => loadExiobaseMargins(other, options))).toContain('no trade_margins.csv in the zip');
  });
});
