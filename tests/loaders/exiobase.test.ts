import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateSpend, createTableDatasets, DatasetError } from '../../src/index';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { EXIOBASE_DEFAULT_IMPACT, parseExiobaseRelease } from '../../src/loaders/index';
import {
  AR5,
  AR5_ROW,
  CML,
  CML_ROW,
  OUTPUT,
  PRODUCT_NAMES,
  PRODUCTS,
  REGIONS,
  releaseTexts,
} from './exiobase-fixture';
import { caught } from '../fixtures/caught';
import { eur1000, isic4, NO_MARGINS } from '../fixtures/requests';

const products = defaultTables.classifications.products;
const parse = (texts = releaseTexts(), extra: Partial<Parameters<typeof parseExiobaseRelease>[0]> = {}) =>
  parseExiobaseRelease({ ...texts, year: 2019, products, ...extra });

const catchError = (run: () => unknown): DatasetError => caught(DatasetError, run);

/** kg per EUR by region and product, as the tests expect them: the multiplier ÷ 1,000,000, worked out by hand. */
const EXPECTED_CML: Record<string, number[]> = {
  AT: [0, 1.2658, 0.0987654321, 0.027, 0.1322], // 0, 1265800, 98765.4321, 27000, 132200 ÷ 1e6
  FR: [3.4731, 0.25, 0.730000000001, 0.01999999, 0.088123456789], // 3473100, 2.5E+05, 730000.000001, 19999.99, 88123.456789
  WA: [5.1209, 1, 0.000001, 0.0000005, 123456.789012], // 5120900, 1000000, 1, 0.5, 123456789012
};
const EXPECTED_AR5: Record<string, number[]> = {
  AT: [0, 1.1683, 0.101, 0.0272, 0.1333],
  FR: [3.7582, 0.26, 0.74, 0.0201, 0.089],
  WA: [4.883, 1.1, 0.000002, 0.00000025, 123456.789013],
};

describe('parseExiobaseRelease', () => {
  it('gives a factor for every region × product of M.txt: the GHG multiplier ÷ 1e6, exactly', () => {
    const release = parse();
    expect(release.regions).toEqual(['AT', 'FR', 'WA']);
    expect(release.spendFactors.factors).toHaveLength(REGIONS.length * PRODUCTS.length);
    for (const region of REGIONS) {
      PRODUCTS.forEach(([code, name], index) => {
        const factor = release.spendFactors.factors.find(
          (row) => row.region === region && row.product === code,
        );
        expect(factor).toEqual({
          product: code,
          region,
          kgco2e: EXPECTED_CML[region]?.[index],
          kgco2e_alt: { ar5: EXPECTED_AR5[region]?.[index] },
          name,
          activity_id: `exiobase3p-${code}`,
          data_quality_flags: region === 'AT' && code === 'p01.a' ? ['zero_output'] : [],
        });
      });
    }
  });

  it('describes the table: EUR of the release year, basic prices, the GWP basis of the row read', () => {
    const { spendFactors } = parse(releaseTexts(), { version: '3.8.2' });
    const { factors, ...table } = spendFactors;
    expect(factors).toHaveLength(15);
    expect(table).toEqual({
      dataset: {
        id: 'exiobase-3-IOT_2019_pxp-ghg-ar4',
        version: '3.8.2',
        source: 'EXIOBASE',
        source_dataset: `EXIOBASE 3.8.2 IOT_2019_pxp, impacts/M.txt "${CML}" per million EUR / 1e6`,
        licence: 'CC-BY-SA-4.0',
        attribution: expect.stringContaining('Stadler'),
      },
      currency: 'eur',
      factor_year: 2019,
      price_basis: 'basic',
      gwp: 'ar4',
      product_classification: 'exiobase3p',
    });
    expect(EXIOBASE_DEFAULT_IMPACT).toBe(CML);
  });

  it('reads the AR5 row when asked, with the AR4 row as the alternative', () => {
    const release = parse(releaseTexts(), { impact: AR5 });
    expect(release.spendFactors.gwp).toBe('ar5');
    expect(release.spendFactors.dataset.id).toBe('exiobase-3-IOT_2019_pxp-ghg-ar5');
    const wheatFr = release.spendFactors.factors.find(
      (row) => row.region === 'FR' && row.product === 'p01.b',
    );
    expect(wheatFr?.kgco2e).toBe(0.26); // 260000 / 1e6
    expect(wheatFr?.kgco2e_alt).toEqual({ ar4: 0.25 }); // 2.5E+05 / 1e6
  });

  it('has no alternative when the file has only the row read', () => {
    const release = parse(releaseTexts([[CML, CML_ROW]]));
    expect(release.spendFactors.factors.every((row) => row.kgco2e_alt === undefined)).toBe(true);
  });

  it('reads any other row by name with its GWP basis given, and refuses it without one', () => {
    const rows = [['Carbon dioxide (CO2) IPCC categories 1 to 4', CML_ROW]] as const;
    const release = parse(releaseTexts(rows), { impact: rows[0][0], gwp: 'ar6' });
    expect(release.spendFactors.gwp).toBe('ar6');
    expect(release.spendFactors.dataset.id).toMatch(/^exiobase-3-IOT_2019_pxp-impact-[0-9a-f]{8}$/);
    expect(catchError(() => parse(releaseTexts(rows), { impact: rows[0][0] })).problem).toMatch(
      /GWP basis .* is not known; pass gwp/,
    );
  });

  it('gives the output weights by region and product code, and describes them', () => {
    const release = parse(releaseTexts(), { version: '3.8.2' });
    expect(release.weights.AT).toEqual({
      'p01.a': 0,
      'p01.b': 359.79773658,
      'p01.d': 1665.26180543,
      p52: 40000,
      p72: 12000.5,
    });
    expect(Object.keys(release.weights)).toEqual(['AT', 'FR', 'WA']);
    expect(release.weightsDescription).toBe(
      'EXIOBASE 3.8.2 IOT_2019_pxp total output x (indout), million EUR (current 2019 basic prices)',
    );
  });

  it('uses the given activity ids and dataset description', () => {
    const release = parse(releaseTexts(), {
      activityIds: { p72: 'professional_services-type_computer_related_services' },
      dataset: { licence: 'EXIOBASE licence as agreed', id: 'exio-licensed' },
    });
    const p72 = release.spendFactors.factors.filter((row) => row.product === 'p72');
    expect(p72.map((row) => row.activity_id)).toEqual(
      Array(3).fill('professional_services-type_computer_related_services'),
    );
    expect(release.spendFactors.dataset.licence).toBe('EXIOBASE licence as agreed');
    expect(release.spendFactors.dataset.id).toBe('exio-licensed');
  });

  it('versions an unversioned release by its content: same files, same version; one changed multiplier, another', () => {
    const first = parse().spendFactors.dataset.version;
    expect(first).toMatch(/^content-[0-9a-f]{16}$/);
    expect(parse().spendFactors.dataset.version).toBe(first);
    const changed = releaseTexts([
      [CML, { ...CML_ROW, WA: ['5120900', '1000000', '1', '0.5', '123456789011'] }],
    ]);
    expect(parse(changed).spendFactors.dataset.version).not.toBe(first);
  });

  it('turns every multiplier into multiplier ÷ 1e6 without binary rounding (property, checked by moving the point)', () => {
    // The oracle moves the decimal point six places by string operations, independently of the decimal library.
    const shift = (integer: string, fraction: string) => {
      const digits = (integer.padStart(7, '0') + fraction).replace(/^0+(?=\d)/, '');
      const point = digits.length - fraction.length - 6;
      const whole =
        point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : `${digits.slice(0, point)}.${digits.slice(point)}`;
      return Number(whole);
    };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.stringMatching(/^\d{0,8}$/),
        (integer, fraction) => {
          const cell = fraction === '' ? String(integer) : `${integer}.${fraction}`;
          const cells = {
            AT: [cell, '1', '1', '1', '1'],
            FR: ['1', '1', '1', '1', '1'],
            WA: ['1', '1', '1', '1', '1'],
          };
          const factor = parse(releaseTexts([[CML, cells]])).spendFactors.factors[0];
          expect(factor?.kgco2e).toBe(shift(String(integer), fraction));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives estimates in every region of the release, through createTableDatasets', () => {
    const release = parse(releaseTexts(), { version: '3.8.2' });
    const datasets = {
      ...defaultDatasets,
      ...createTableDatasets({
        spendFactors: release.spendFactors,
        classifications: {
          ...defaultTables.classifications,
          weights: release.weights,
          weights_description: release.weightsDescription,
        },
      }),
    };
    for (const region of REGIONS) {
      const result = calculateSpend(
        eur1000(isic4('6201'), region, NO_MARGINS), // ISIC 6201 → p72 only
        datasets,
      );
      const expected = EXPECTED_CML[region]?.[4] as number;
      expect(result.estimate.emission_factor?.factor).toBe(expected);
      expect(result.estimate.emission_factor?.source).toBe('EXIOBASE');
      expect(result.estimate.emission_factor?.region).toBe(region);
    }
    // WA p72: 1000 EUR × 123456.789012 kg/EUR = 123456789.012 kg
    const wa = calculateSpend(eur1000({ activity_id: 'exiobase3p-p72' }, 'WA', NO_MARGINS), datasets);
    expect(wa.estimate.co2e).toBe(123456789.012);
  });
});

describe('parseExiobaseRelease refuses what it cannot read, naming file, line and column', () => {
  it('a negative multiplier, unless asked to omit it (then it is listed)', () => {
    const cells = { ...CML_ROW, FR: ['3473100', '-12.5', '730000.000001', '19999.99', '88123.456789'] };
    const error = catchError(() =>
      parse(
        releaseTexts([
          ['Value Added', CML_ROW],
          [CML, cells],
        ]),
      ),
    );
    // Row 4 of the file (region, sector, Value Added, CML); FR wheat is column 1 + 5 (AT) + 2 = 8.
    expect(error.table).toBe('impacts/M.txt');
    expect([error.line, error.column]).toEqual([4, 8]);
    expect(error.problem).toMatch(/negative multiplier -12.5 for FR p01.b; pass negative: 'omit'/);

    const release = parse(releaseTexts([[CML, cells]]), { negative: 'omit' });
    expect(release.omitted).toEqual([{ region: 'FR', product: 'p01.b', impact: CML, multiplier: '-12.5' }]);
    expect(release.spendFactors.factors).toHaveLength(14);
    expect(release.spendFactors.factors.some((row) => row.region === 'FR' && row.product === 'p01.b')).toBe(
      false,
    );
  });

  it('a negative alternative value, by the same rule', () => {
    const alt = { ...AR5_ROW, WA: ['4883000', '1100000', '2', '-0.25', '123456789013'] };
    const error = catchError(() =>
      parse(
        releaseTexts([
          [CML, CML_ROW],
          [AR5, alt],
        ]),
      ),
    );
    expect([error.line, error.column]).toEqual([4, 1 + 10 + 4]);
    const release = parse(
      releaseTexts([
        [CML, CML_ROW],
        [AR5, alt],
      ]),
      { negative: 'omit' },
    );
    expect(release.omitted).toEqual([{ region: 'WA', product: 'p52', impact: AR5, multiplier: '-0.25' }]);
    const waRetail = release.spendFactors.factors.find((row) => row.region === 'WA' && row.product === 'p52');
    expect(waRetail?.kgco2e).toBe(0.0000005);
    expect(waRetail?.kgco2e_alt).toBeUndefined();
  });

  it('a multiplier written with a plus sign is read as its number (it threw a RangeError before)', () => {
    const cells = { ...CML_ROW, AT: ['0', '+1265800', '98765.4321', '27000', '132200'] };
    const wheat = parse(releaseTexts([[CML, cells]])).spendFactors.factors.find(
      (row) => row.region === 'AT' && row.product === 'p01.b',
    );
    expect(wheat?.kgco2e).toBe(1.2658); // 1265800 / 1e6
  });

  it('a cell that is not a number, with how many more problems there are', () => {
    const cells = { ...CML_ROW, AT: ['0', 'n/a', '98765,4321', '27000', '132200'] };
    const error = catchError(() => parse(releaseTexts([[CML, cells]])));
    expect([error.line, error.column]).toEqual([3, 3]);
    expect(error.problem).toBe('multiplier "n/a" is not a number (and 1 more problem in this file)');
  });

  it('a product name the products map does not have', () => {
    const texts = releaseTexts();
    const renamed = { ...texts, multipliers: texts.multipliers.replace('\tWheat\t', '\tWheat (durum)\t') };
    const error = catchError(() => parse(renamed));
    expect([error.line, error.column]).toEqual([2, 3]);
    expect(error.problem).toMatch(/^unknown product name "Wheat \(durum\)"/);
  });

  it('an impact row the file does not have, listing its GHG rows', () => {
    const error = catchError(() =>
      parse(
        releaseTexts([
          ['Value Added', CML_ROW],
          [AR5, AR5_ROW],
        ]),
      ),
    );
    expect(error.problem).toBe(`no impact row "${CML}"; GHG rows in the file: "${AR5}"`);
  });

  it('a file that is not in the EXIOBASE layout', () => {
    const texts = releaseTexts();
    const error = catchError(() =>
      parse({ ...texts, multipliers: texts.multipliers.replace(/^region/, 'Region') }),
    );
    expect([error.table, error.line, error.column]).toEqual(['impacts/M.txt', 1, 1]);
    expect(error.problem).toMatch(/two header rows starting "region" and "sector"/);
    const transposed = catchError(() =>
      parse({ ...texts, output: texts.output.replace('indout', 'output') }),
    );
    expect([transposed.table, transposed.line]).toEqual(['x.txt', 1]);
  });

  it('a row with too few cells', () => {
    const texts = releaseTexts([[CML, CML_ROW]]);
    const short = { ...texts, multipliers: texts.multipliers.replace(/\t123456789012\n$/, '\n') };
    const error = catchError(() => parse(short));
    expect(error.line).toBe(3);
    expect(error.problem).toMatch(/^the row has 15 cells, the header 16/);
  });

  it('a region or product that only one of the two files has', () => {
    const texts = releaseTexts();
    const withoutRow = { ...texts, output: texts.output.replace(/WA\tWheat\t20000\n/, '') };
    const missing = catchError(() => parse(withoutRow));
    expect(missing.table).toBe('x.txt');
    expect(missing.problem).toBe('no output row for region WA, product p01.b, which impacts/M.txt has');
    const extra = catchError(() => parse({ ...texts, output: `${texts.output}DE\tWheat\t10\n` }));
    expect([extra.table, extra.line]).toEqual(['x.txt', 17]);
    expect(extra.problem).toBe('no column in impacts/M.txt for region DE, product p01.b');
  });

  it('a negative or repeated output row', () => {
    const negative = releaseTexts(undefined, {
      ...OUTPUT,
      FR: ['12.25', '-5000', '7000', '120000', '30000'],
    });
    const error = catchError(() => parse(negative));
    expect([error.table, error.line, error.column]).toEqual(['x.txt', 8, 3]);
    const texts = releaseTexts();
    const repeated = catchError(() => parse({ ...texts, output: `${texts.output}AT\tWheat\t1\n` }));
    expect([repeated.line, repeated.problem]).toEqual([17, 'region AT, product p01.b repeats line 3']);
  });

  it('a year that is not a year, an empty or ambiguous products map', () => {
    expect(catchError(() => parse(releaseTexts(), { year: 19 })).problem).toMatch(/four-digit year/);
    expect(
      catchError(() => parseExiobaseRelease({ ...releaseTexts(), year: 2019, products: {} })).problem,
    ).toMatch(/products is empty/);
    const twice = { ...PRODUCT_NAMES, 'p01.z': 'Wheat' };
    expect(
      catchError(() => parseExiobaseRelease({ ...releaseTexts(), year: 2019, products: twice })).problem,
    ).toBe('products: the name "Wheat" is given to both p01.b and p01.z');
  });
});
