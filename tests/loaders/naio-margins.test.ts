import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { calculateSpend, createTableDatasets, DatasetError, mergeDatasets } from '../../src/index';
import {
  detectMarginsFormat,
  finestCodes,
  parseCpaCode,
  parseNaioMargins,
  type CpaCode,
  type ParseNaioMarginsOptions,
} from '../../src/loaders/index';
import { loadNaioMargins } from '../../src/node/index';
import { tempPath } from '../cli/harness';
import { type NaioCell, naioCells, naioSdmxCsv, naioTsv, product } from './naio-fixture';
import { eur1000 } from '../fixtures/requests';

const options: ParseNaioMarginsOptions = {
  file: 'naio_10_cp15.tsv',
  year: 2019,
  tradeShare: 0.8,
  classifications: defaultTables.classifications,
};
/** Tax, trade and transport margins, in that order. */
const margins = (tax_margin: number, trade_margin: number, transport_margin: number) => ({
  tax_margin,
  trade_margin,
  transport_margin,
});
const margin = (table: ReturnType<typeof parseNaioMargins>, region: string, product: string) =>
  table.margins.margins.find((each) => each.region === region && each.product === product);

/** The DatasetError a file raises, as `location: problem`. */
function failure(text: string, overrides: Partial<ParseNaioMarginsOptions> = {}): string {
  try {
    parseNaioMargins(text, { ...options, ...overrides });
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    const datasetError = error as DatasetError;
    expect(datasetError.table).toBe(overrides.file ?? 'naio_10_cp15.tsv');
    return `${datasetError.location}: ${datasetError.problem}`;
  }
  throw new Error('expected a DatasetError');
}

describe('parseNaioMargins', () => {
  const tsv = parseNaioMargins(naioTsv(), options);

  it('computes tax = D21X31/TS_PP and trade + transport = OTTM/TS_PP, split by tradeShare', () => {
    expect(margin(tsv, 'DE', 'p01.b')).toEqual({
      region: 'DE',
      product: 'p01.b',
      tax_margin: 0.05,
      trade_margin: 0.12,
      transport_margin: 0.03,
    });
    // CPA_C10-12 reaches the food products, beverages (p15.j) and tobacco (p16).
    for (const product of ['p15.a', 'p15.j', 'p16'])
      expect(margin(tsv, 'DE', product)).toMatchObject(margins(0.10015, 0.11968, 0.02992));
  });

  it('reads a value written with a plus sign as its number (it threw a RangeError before)', () => {
    const cells = naioCells().map((cell) =>
      cell.geo === 'DE' && cell.code === 'CPA_A01' && cell.item === 'TS_PP'
        ? { ...cell, value: '+1000' }
        : cell,
    );
    // 50 / 1000 tax; 150 / 1000 × 0.8 trade, × 0.2 transport: as with 1000 unsigned.
    expect(margin(parseNaioMargins(naioTsv(cells), options), 'DE', 'p01.b')).toMatchObject(
      margins(0.05, 0.12, 0.03),
    );
  });

  it('gives a product reached from several CPA products the ratio of their sums', () => {
    // p72 ← CPA_J58 (250 at purchasers' prices) and CPA_J62_63 (350): tax (10 + 30)/600, OTTM (40 + 20)/600.
    expect(margin(tsv, 'DE', 'p72')).toMatchObject(margins(0.06666666666666667, 0.08, 0.02));
    // p22 only from CPA_J58: 10/250 and 40/250.
    expect(margin(tsv, 'DE', 'p22')).toMatchObject(margins(0.04, 0.128, 0.032));
  });

  it('gives margin products (negative OTTM) no trade or transport margin, and lists them', () => {
    expect(margin(tsv, 'DE', 'p51')).toMatchObject(margins(0.09090909090909091, 0, 0));
    expect(tsv.marginProducts).toEqual([{ region: 'DE', product: 'p51' }]);
    expect(tsv.noBasicPrice).toEqual([]);
  });

  it('maps Eurostat geo codes to the engine’s regions and leaves aggregates out', () => {
    expect(tsv.regions).toEqual(['DE', 'FR', 'GR']);
    expect(tsv.aggregateGeos).toEqual(['EU27_2020']);
    expect(margin(tsv, 'GR', 'p01.a')).toMatchObject(margins(0.055, 0.036, 0.009));
    expect(tsv.margins.margins.some((each) => !/^[A-Z]{2}$/.test(each.region))).toBe(false);
  });

  it('reads the finest codes where a country publishes two levels, and lists what it left out', () => {
    expect(margin(tsv, 'FR', 'p15.a')).toMatchObject(margins(0.075, 0.14, 0.035));
    expect(margin(tsv, 'FR', 'p15.j')).toMatchObject(margins(0.1, 0.12, 0.03));
    expect(margin(tsv, 'FR', 'p16')).toMatchObject(margins(0.4, 0.08, 0.02));
    expect(tsv.leftOut.map(({ region, code, reason }) => `${region} ${code} ${reason}`)).toEqual([
      'DE CPA_M69_70 not_published',
      'FR CPA_C10-12 aggregate',
    ]);
  });

  it('leaves out products nothing is bought of, and margins that would leave no basic price', () => {
    const cells = [
      // Everything moved into margins: TS_PP 0.
      ...product('DE', 'CPA_G45', ['10', '0', '-10', '0']),
      // A margin product whose taxes exceed what is bought of it directly: tax 5/4.
      ...product('DE', 'CPA_H49', ['100', '5', '-101', '4']),
      ...product('DE', 'CPA_A01', ['800', '50', '150', '1000']),
    ];
    const read = parseNaioMargins(naioTsv(cells), options);
    expect(read.leftOut).toEqual([{ region: 'DE', code: 'CPA_G45', line: 3, reason: 'no_purchases' }]);
    expect(read.noBasicPrice.map((each) => each.product)).toEqual(['p60.1', 'p60.2', 'p60.3']);
    expect(read.marginProducts).toEqual([]);
    expect(read.margins.margins.map((each) => each.product)).not.toContain('p60.1');
  });

  it('reads the SDMX-CSV of the same table to the same margins, and names the dataset', () => {
    const sdmx = parseNaioMargins(naioSdmxCsv(), { ...options, file: 'naio_10_cp15.csv' });
    expect(sdmx.margins.margins).toEqual(tsv.margins.margins);
    expect(sdmx.margins.dataset.version).toBe(tsv.margins.dataset.version);
    expect(tsv.margins.dataset).toMatchObject({
      id: 'eurostat-naio_10_cp15-2019',
      source: 'Eurostat',
      licence: 'CC-BY-4.0',
    });
    expect(tsv.margins.dataset.version).toMatch(/^content-[0-9a-f]{16}$/);
    expect(tsv.margins.dataset.source_dataset).toContain(
      'trade = 0.8 × OTTM/TS_PP, transport = 0.2 × OTTM/TS_PP',
    );
    const named = parseNaioMargins(naioTsv(), { ...options, version: '2024-04-25', dataset: { id: 'ours' } });
    expect(named.margins.dataset).toMatchObject({ id: 'ours', version: '2024-04-25' });
  });

  it('reads only the regions asked for, in either spelling, and the unit asked for', () => {
    const greece = parseNaioMargins(naioTsv(), { ...options, regions: ['EL'] });
    expect(greece.regions).toEqual(['GR']);
    expect(parseNaioMargins(naioTsv(), { ...options, regions: ['GR'] }).margins.margins).toEqual(
      greece.margins.margins,
    );
    const national = parseNaioMargins(naioTsv(), { ...options, unit: 'MIO_NAC' });
    expect(national.regions).toEqual(['DE']);
    expect(margin(national, 'DE', 'p01.a')).toMatchObject({ tax_margin: 0.3333333333333333 });
  });

  it('tells the formats apart by their header', () => {
    expect(detectMarginsFormat(naioTsv())).toBe('naio-tsv');
    expect(detectMarginsFormat('unit,stk_flow,ind_impv,prd_amo,geo\\time\t2019 \n')).toBe('naio-tsv');
    expect(detectMarginsFormat(naioSdmxCsv())).toBe('naio-sdmx-csv');
    expect(detectMarginsFormat('STRUCTURE,STRUCTURE_ID,ACTION,freq\n')).toBe('naio-sdmx-csv');
    expect(detectMarginsFormat('\uFEFFregion,product,tax,trade,transport\n')).toBe('csv');
    expect(detectMarginsFormat('a,b\n')).toBeUndefined();
  });

  it('property: margins sum to 1 − TS_BP/TS_PP, split by the share, and TSV equals SDMX-CSV', () => {
    const cents = fc.integer({ min: 1, max: 10_000_000 }).map((value) => value / 100);
    fc.assert(
      fc.property(
        cents,
        fc.integer({ min: -500, max: 5_000 }),
        cents,
        fc.integer({ min: 0, max: 100 }),
        (basic, taxCents, ottm, share) => {
          const tax = taxCents / 100;
          const purchaser = Math.round((basic + tax + ottm) * 100) / 100;
          fc.pre(purchaser > 0 && basic / purchaser > 0.01);
          const cells = product('DE', 'CPA_A01', [
            String(basic),
            String(tax),
            String(ottm),
            String(purchaser),
          ]);
          const read = parseNaioMargins(naioTsv(cells), { ...options, tradeShare: share / 100 });
          const sdmx = parseNaioMargins(naioSdmxCsv(cells), { ...options, tradeShare: share / 100 });
          expect(sdmx.margins.margins).toEqual(read.margins.margins);
          const first = read.margins.margins[0] as (typeof read.margins.margins)[number];
          expect(first.tax_margin).toBeCloseTo(tax / purchaser, 12);
          expect(first.trade_margin + first.transport_margin).toBeCloseTo(ottm / purchaser, 12);
          expect(first.trade_margin).toBeCloseTo(((ottm / purchaser) * share) / 100, 12);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('loaded margins fill the defaults: supplied ones win, missing ones default', () => {
    const datasets = mergeDatasets(defaultDatasets, createTableDatasets({ margins: tsv.margins }));
    const result = calculateSpend(
      eur1000({ classification_type: 'nace2', classification_code: '01.11' }, 'DE', { tax_margin: 0.1 }),
      datasets,
    );
    expect(result.calculation_details).toMatchObject({
      tax_margin: 0.1,
      trade_margin: 0.12,
      transport_margin: 0.03,
      margin_sources: { tax_margin: 'supplied', trade_margin: 'default', transport_margin: 'default' },
      margin_datasets: [`eurostat-naio_10_cp15-2019@${tsv.margins.dataset.version}`],
    });
  });
});

describe('parseNaioMargins refuses what it cannot read, naming file, line and column', () => {
  it('a header of neither format, a missing dimension or column', () => {
    expect(failure('region,product\n')).toContain('line 1: expected Eurostat naio_10_cp15 as TSV');
    expect(failure('freq,unit,stk_flow,prd_amo,geo\\TIME_PERIOD\t2019 \n')).toBe(
      'line 1, column 1: missing dimension ind_impv; naio_10_cp15 has freq,unit,stk_flow,ind_impv,prd_amo,geo (got freq,unit,stk_flow,prd_amo,geo)',
    );
    const noProduct = naioSdmxCsv().replace(',prd_amo,', ',product,');
    expect(failure(noProduct, { file: 'x.csv' })).toContain('line 1: missing column prd_amo of an SDMX-CSV');
  });

  it('no column or rows for the year, no rows for the unit', () => {
    expect(failure(naioTsv(), { year: 2020 })).toBe('line 1: no column for 2020; the file has 2018, 2019');
    expect(failure(naioSdmxCsv(), { year: 2020, file: 'x.csv' })).toBe(
      ': no observations for 2020 (TIME_PERIOD)',
    );
    expect(failure(naioTsv(), { unit: 'MIO_PPS' })).toBe(
      ': no rows with unit MIO_PPS, stk_flow TOTAL for 2019; units in the file: MIO_EUR, MIO_NAC',
    );
  });

  it('a bad flag or a value that is not a number', () => {
    const flagged = naioTsv(product('DE', 'CPA_A01', ['800', '50', '150', '1000'], 'x'));
    // Series are sorted by key, so D21X31 comes first.
    expect(failure(flagged)).toMatch(
      /^line 2, column 3 \(2019\): "50 x": unknown flag "x"; Eurostat flags .* \(and 3 more problems in this file\)$/,
    );
    const comma = naioTsv(product('DE', 'CPA_A01', ['800,5', '50', '150', '1000']));
    expect(failure(comma)).toContain(
      'column 3 (2019): value "800,5" is not a number (write decimals with a point',
    );
    const sdmx = naioSdmxCsv(product('DE', 'CPA_A01', ['800', '50', '150', '1000'], '?'));
    expect(failure(sdmx, { file: 'x.csv' })).toContain(
      'line 3, column 10 (OBS_VALUE): "800 ?": unknown flag',
    );
  });

  it('an unknown CPA code', () => {
    const cells: NaioCell[] = [
      ...product('DE', 'CPA_Z99', ['1', '0', '0', '1']),
      ...product('DE', 'CPA_A01', ['800', '50', '150', '1000']),
    ];
    expect(failure(naioTsv(cells))).toContain(
      'line 3, column 1: unknown product: "CPA_Z99" is not a CPA 2.1 product code',
    );
    expect(failure(naioTsv(product('DE', 'CPA_C35', ['1', '0', '0', '1'])))).toContain(
      'unknown product: "CPA_C35": C35 is not a NACE Rev. 2 division of section C',
    );
  });

  it('inconsistent totals, unless omitted (then listed)', () => {
    const cells = [...naioCells(), ...product('DE', 'CPA_B', ['100', '10', '10', '125'])];
    expect(failure(naioTsv(cells))).toMatch(
      /^line \d+, column 3 \(2019\): DE CPA_B: TS_PP 125 ≠ TS_BP 100 \+ D21X31 10 \+ OTTM 10 \(off by 5, allowed 2\); pass inconsistent: 'omit'/,
    );
    const omitted = parseNaioMargins(naioTsv(cells), { ...options, inconsistent: 'omit' });
    expect(omitted.leftOut).toContainEqual(
      expect.objectContaining({ region: 'DE', code: 'CPA_B', reason: 'inconsistent' }),
    );
    // Within the rounding of the published cells (0.05 each at one decimal) it passes.
    const rounded = parseNaioMargins(
      naioTsv(product('DE', 'CPA_B', ['100.1', '10.1', '10.1', '120.4'])),
      options,
    );
    expect(rounded.margins.margins.length).toBeGreaterThan(0);
    expect(failure(naioTsv(product('DE', 'CPA_B', ['100.1', '10.1', '10.1', '120.6'])))).toContain(
      'off by 0.3, allowed 0.2',
    );
    expect(
      parseNaioMargins(naioTsv(product('DE', 'CPA_B', ['100.1', '10.1', '10.1', '120.6'])), {
        ...options,
        tolerance: 0.01,
      }).margins.margins.length,
    ).toBeGreaterThan(0);
  });

  it('a region not in the file, or not a country', () => {
    expect(failure(naioTsv(), { regions: ['IT'] })).toBe(
      ': region IT is not in the file for 2019 (MIO_EUR); it has DE, EL, FR',
    );
    expect(failure(naioTsv(), { regions: ['EU27_2020'] })).toBe(
      ': region EU27_2020 is not a country; margins are read per country (DE, EL, FR)',
    );
  });

  it('overlapping codes, a repeated cell, a bad trade share', () => {
    const partial = [
      ...product('DE', 'CPA_C10-12', ['1', '0', '0', '1']),
      ...product('DE', 'CPA_C10', ['1', '0', '0', '1']),
    ];
    expect(failure(naioTsv(partial))).toContain(
      'DE: CPA_C10-12 and CPA_C10 overlap, and the finer codes do not cover divisions 11, 12 of CPA_C10-12',
    );
    const twice = naioSdmxCsv([
      ...product('DE', 'CPA_A01', ['1', '0', '0', '1']),
      ...product('DE', 'CPA_A01', ['1', '0', '0', '1']),
    ]);
    expect(failure(twice, { file: 'x.csv' })).toContain(
      'line 11, column 10 (OBS_VALUE): TS_BP for DE CPA_A01 2019 given twice (first on line 3)',
    );
    expect(failure(naioTsv(), { tradeShare: 1.5 })).toBe(
      ': tradeShare must be a fraction from 0 to 1, got 1.5',
    );
  });
});

describe('CPA codes', () => {
  it('parses divisions, ranges, lists, sections and parts of a division', () => {
    expect(parseCpaCode('CPA_C10-12')).toEqual({ code: 'CPA_C10-12', divisions: ['10', '11', '12'] });
    expect(parseCpaCode('CPA_C31_32')).toEqual({ code: 'CPA_C31_32', divisions: ['31', '32'] });
    expect(parseCpaCode('CPA_B')).toEqual({ code: 'CPA_B', divisions: ['05', '06', '07', '08', '09'] });
    expect(parseCpaCode('CPA_B-D')).toMatchObject({
      divisions: expect.arrayContaining(['05', '10', '33', '35']),
    });
    expect(parseCpaCode('CPA_M_N')).toMatchObject({
      divisions: ['69', '70', '71', '72', '73', '74', '75', '77', '78', '79', '80', '81', '82'],
    });
    expect(parseCpaCode('CPA_L68A')).toEqual({ code: 'CPA_L68A', divisions: ['68'], part: 'A' });
    expect(parseCpaCode('CPA_TOTAL')).toBe('total');
    for (const bad of ['A01', 'CPA_', 'CPA_C10-', 'CPA_C10-B', 'CPA_X01', 'CPA_C10A-12'])
      expect(parseCpaCode(bad)).toHaveProperty('problem');
  });

  it('keeps the finest level: L68 beside L68A and L68B is an aggregate', () => {
    const codes = (list: string[]) => list.map((code) => parseCpaCode(code) as CpaCode);
    const result = finestCodes(
      codes(['CPA_L68', 'CPA_L68A', 'CPA_L68B', 'CPA_C10-12', 'CPA_C10', 'CPA_C11', 'CPA_C12']),
    );
    expect('kept' in result && result.kept.map((each) => each.code)).toEqual([
      'CPA_L68A',
      'CPA_L68B',
      'CPA_C10',
      'CPA_C11',
      'CPA_C12',
    ]);
    expect('aggregates' in result && result.aggregates.map((each) => each.code)).toEqual([
      'CPA_L68',
      'CPA_C10-12',
    ]);
    // CPA_C has 24 divisions; CPA_C10-12 covers 3 of them: reading both would count 10-12 twice.
    expect(finestCodes(codes(['CPA_C', 'CPA_C10-12']))).toMatchObject({
      uncovered: expect.arrayContaining(['13', '33']),
    });
    expect(finestCodes(codes(['CPA_C10-12', 'CPA_C12_13']))).toMatchObject({ uncovered: [] });
  });
});

describe('loadNaioMargins', () => {
  it('reads the file plain or gzipped, and refuses a missing or broken one', () => {
    const plain = tempPath('naio_10_cp15.tsv');
    writeFileSync(plain, naioTsv());
    const gzipped = tempPath('naio_10_cp15.tsv.gz');
    writeFileSync(gzipped, gzipSync(naioTsv()));
    const { classifications } = defaultTables;
    const fromPlain = loadNaioMargins(plain, { year: 2019, tradeShare: 0.8, classifications });
    expect(loadNaioMargins(gzipped, { year: 2019, tradeShare: 0.8, classifications }).margins).toEqual(
      fromPlain.margins,
    );
    expect(() =>
      loadNaioMargins(tempPath('none.tsv'), { year: 2019, tradeShare: 1, classifications }),
    ).toThrow('none.tsv: no such file');
    const broken = tempPath('broken.tsv.gz');
    writeFileSync(broken, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(() => loadNaioMargins(broken, { year: 2019, tradeShare: 1, classifications })).toThrow(
      'not a valid gzip file',
    );
  });
});
