import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alternativeTables, defaultTables } from '../../src/embedded/index';
import { DatasetError } from '../../src/index';
import {
  parseTableCsv,
  TABLE_CSV_COLUMNS,
  TABLE_KINDS,
  type TableKind,
  type TableMeta,
} from '../../src/loaders/index';
import { toCsv } from './table-csv-writer';
import { caught } from '../fixtures/caught';
import { AWS_COEFFICIENTS } from '../fixtures/coefficients';

const dataset = {
  id: 'acme-fx',
  version: '2024-06',
  source: 'ACME treasury',
  source_dataset: 'ACME annual average rates',
  licence: 'internal',
  attribution: 'ACME Ltd.',
};

const catchError = (run: () => unknown): DatasetError => caught(DatasetError, run);

describe('parseTableCsv reads each kind from its documented columns', () => {
  it('fx: currency, year, rate', () => {
    const text = 'currency,year,rate\neur,2023,0.924\nusd,2023,1\n\neur,2024,0.9239\n';
    expect(parseTableCsv('fx', text, { meta: { dataset } })).toEqual({
      dataset,
      rates: { eur: { '2023': 0.924, '2024': 0.9239 }, usd: { '2023': 1 } },
    });
  });

  it('spend factors: columns in any order, flags split on |, alternative GWP columns optional', () => {
    const text = [
      'region,product,name,activity_id,kgco2e,kgco2e_ar4,data_quality_flags',
      'DE,acme-steel,"ACME steel, hot rolled",acme-steel-hr,1.25,1.2,supplier_specific|verified',
      'FR,acme-steel,ACME steel,acme-steel-hr,0.85,,',
    ].join('\r\n');
    const meta = {
      dataset,
      currency: 'eur',
      factor_year: 2019,
      price_basis: 'basic',
      gwp: 'ar5',
      product_classification: 'exiobase3p',
    } as const;
    expect(parseTableCsv('spendFactors', text, { meta })).toEqual({
      ...meta,
      factors: [
        {
          product: 'acme-steel',
          region: 'DE',
          kgco2e: 1.25,
          kgco2e_alt: { ar4: 1.2 },
          name: 'ACME steel, hot rolled',
          activity_id: 'acme-steel-hr',
          data_quality_flags: ['supplier_specific', 'verified'],
        },
        {
          product: 'acme-steel',
          region: 'FR',
          kgco2e: 0.85,
          name: 'ACME steel',
          activity_id: 'acme-steel-hr',
          data_quality_flags: [],
        },
      ],
    });
  });

  it('inflation: a product column makes a sector rate, an empty one a country rate', () => {
    const text = 'region,year,rate,product\nDE,2023,5.9,\nDE,2023,4.1,p52\nDE,2024,2.2,\n';
    expect(parseTableCsv('inflation', text, { meta: { dataset } })).toEqual({
      dataset,
      country: { DE: { '2023': 5.9, '2024': 2.2 } },
      sector: { DE: { p52: { '2023': 4.1 } } },
    });
    expect(parseTableCsv('inflation', 'region,year,rate\nDE,2023,5.9\n', { meta: { dataset } })).toEqual({
      dataset,
      country: { DE: { '2023': 5.9 } },
    });
  });

  it('cloud regions: one row per region and year, grouped under the lookup key', () => {
    const text = [
      'provider,region,location,grid_zone,year,grid_factor,grid_source',
      'aws,us-east-1,US,US-MIDA-PJM,2022,0.5,Our PPA 2022',
      'aws,us_east_1,US,US-MIDA-PJM,2023,0.45,Our PPA 2023',
      'gcp,europe-west1,BE,BE,2022,0.1,Utility',
    ].join('\n');
    const meta: TableMeta<'cloudRegions'> = { dataset, default_year: 2022, unit: 'kg/kWh', gwp: 'ar5' };
    expect(parseTableCsv('cloudRegions', text, { meta })).toEqual({
      ...meta,
      regions: [
        {
          provider: 'aws',
          region: 'us-east-1',
          location: 'US',
          grid_zone: 'US-MIDA-PJM',
          grid_factors: { '2022': 0.5, '2023': 0.45 },
          grid_sources: { '2022': 'Our PPA 2022', '2023': 'Our PPA 2023' },
        },
        {
          provider: 'gcp',
          region: 'europe-west1',
          location: 'BE',
          grid_zone: 'BE',
          grid_factors: { '2022': 0.1 },
          grid_sources: { '2022': 'Utility' },
        },
      ],
    });
  });

  it('cloud coefficients, instances, margins and classification mappings', () => {
    const coefficients = parseTableCsv(
      'cloudCoefficients',
      'provider,min_watts,max_watts,pue,memory_kwh_per_gb_hour,ssd_wh_per_tb_hour,hdd_wh_per_tb_hour,networking_kwh_per_gb,server_lifetime_hours\naws,0.74,3.5,1.135,0.000392,1.2,0.65,0.001,35040\n',
      { meta: { dataset } },
    );
    expect(coefficients.providers.aws).toEqual(AWS_COEFFICIENTS);
    const instances = parseTableCsv(
      'cloudInstances',
      'provider,instance,vcpu,memory_gib,platform_vcpu,platform_embodied_kgco2e\naws,x9.large,2,8,96,1500\n',
      {
        meta: { dataset, default_year: 2024, gwp: 'ar4', years: [2024] },
      },
    );
    expect(instances.instances).toEqual([
      {
        provider: 'aws',
        instance: 'x9.large',
        vcpu: 2,
        memory_gib: 8,
        platform_vcpu: 96,
        platform_embodied_kgco2e: 1500,
      },
    ]);
    const margins = parseTableCsv(
      'margins',
      'region,product,tax_margin,trade_margin,transport_margin\nDE,p52,-0.01,0.2,0.05\n',
      { meta: { dataset } },
    );
    expect(margins.margins).toEqual([
      { region: 'DE', product: 'p52', tax_margin: -0.01, trade_margin: 0.2, transport_margin: 0.05 },
    ]);
    const classifications = parseTableCsv(
      'classifications',
      'type,code,product\nisic4,4711,p52\nisic4,47,p52\nisic4,47,p50.b\nunspsc,4410,p52\n',
      {
        meta: {
          dataset,
          product_classification: 'exiobase3p',
          products: {},
          weights: {},
          weights_description: 'none',
        },
      },
    );
    expect(classifications.mappings).toEqual({
      isic4: { '4711': ['p52'], '47': ['p52', 'p50.b'] },
      unspsc: { '4410': ['p52'] },
    });
  });

  it('documents the columns of every kind, required ones first', () => {
    expect(Object.keys(TABLE_CSV_COLUMNS).sort()).toEqual([...TABLE_KINDS].sort());
    expect(TABLE_CSV_COLUMNS.fx).toEqual([
      { name: 'currency', required: true },
      { name: 'year', required: true },
      { name: 'rate', required: true },
    ]);
    for (const kind of TABLE_KINDS) {
      const required = TABLE_CSV_COLUMNS[kind].map((column) => column.required);
      expect(required).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
    }
  });
});

describe('round trips: a table written in its CSV format reads back equal', () => {
  const embedded = {
    ...defaultTables,
    ccfGridRegions: alternativeTables.ccfGridRegions,
    useeioFactors: alternativeTables.useeioFactors,
  };
  const kinds: Array<[string, TableKind]> = [
    ['spendFactors', 'spendFactors'],
    ['useeioFactors', 'spendFactors'],
    ['classifications', 'classifications'],
    ['margins', 'margins'],
    ['inflation', 'inflation'],
    ['fx', 'fx'],
    ['cloudCoefficients', 'cloudCoefficients'],
    ['cloudRegions', 'cloudRegions'],
    ['ccfGridRegions', 'cloudRegions'],
    ['cloudInstances', 'cloudInstances'],
  ];
  it.each(kinds)('the embedded %s table', (name, kind) => {
    const table = embedded[name as keyof typeof embedded];
    const { text, meta } = toCsv(kind, table as never);
    expect(parseTableCsv(kind, text, { meta: meta as never })).toEqual(table);
  });

  it('any FX table (property)', () => {
    const currency = fc.stringMatching(/^[a-z]{3}$/);
    const year = fc.integer({ min: 1990, max: 2030 }).map(String);
    const rate = fc.double({ min: 1e-6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(fc.dictionary(currency, fc.dictionary(year, rate, { minKeys: 1 })), (rates) => {
        const table = { dataset, rates };
        const { text } = toCsv('fx', table);
        expect(parseTableCsv('fx', text, { meta: { dataset } })).toEqual(table);
      }),
    );
  });
});

describe('parseTableCsv errors name the file, line, column and problem', () => {
  const meta = { dataset };
  it('a cell that is not a number, with a decimal-comma hint', () => {
    const error = catchError(() =>
      parseTableCsv('fx', 'currency,year,rate\neur,2023,"0,92"\n', { file: 'rates.csv', meta }),
    );
    expect(error.message).toBe(
      'rates.csv at line 2, column 3 (rate): rate: "0,92" is not a number (write decimals with a point, not a comma)',
    );
    expect([error.table, error.line, error.column]).toEqual(['rates.csv', 2, 3]);
  });

  it('regional PUE and GPU watts as key=value pairs (issue 22), and a malformed pair', () => {
    const header =
      'provider,min_watts,max_watts,pue,memory_kwh_per_gb_hour,ssd_wh_per_tb_hour,hdd_wh_per_tb_hour,networking_kwh_per_gb,server_lifetime_hours,pue_by_region,gpu_watts\n';
    const good = parseTableCsv(
      'cloudCoefficients',
      `${header}gcp,0.68,4.11,1.1,0.000392,1.2,0.65,0.001,35040,us-central1=1.11|us-east4=1.08,Nvidia T4=8/71\n`,
      { meta },
    );
    expect(good.providers.gcp?.pue_by_region).toEqual({ 'us-central1': 1.11, 'us-east4': 1.08 });
    expect(good.providers.gcp?.gpu_watts).toEqual({ 'Nvidia T4': { min_watts: 8, max_watts: 71 } });
    const error = catchError(() =>
      parseTableCsv(
        'cloudCoefficients',
        `${header}gcp,0.68,4.11,1.1,0.000392,1.2,0.65,0.001,35040,,Nvidia T4=8\n`,
        { file: 'coefficients.csv', meta },
      ),
    );
    expect(error.message).toBe(
      'coefficients.csv at line 2, column 11 (gpu_watts): gpu_watts: "Nvidia T4=8" is not model=min/max watts',
    );
  });

  it('a value the schema refuses, with the value found', () => {
    const text =
      'region,product,tax_margin,trade_margin,transport_margin\nDE,p52,0.1,0.2,0.05\nde,p52,0.1,-0.2,0.05\n';
    const error = catchError(() => parseTableCsv('margins', text, { file: 'margins.csv', meta }));
    expect([error.line, error.column]).toEqual([3, 1]);
    expect(error.problem).toBe(
      'region: must be two capital letters (an ISO 3166-1 alpha-2 or EXIOBASE region code, e.g. DE) (got "de") (and 1 more problem in this file)',
    );
  });

  it('a coefficient the schema refuses, at its own cell (it was placed on the provider cell)', () => {
    const header =
      'provider,min_watts,max_watts,pue,memory_kwh_per_gb_hour,ssd_wh_per_tb_hour,hdd_wh_per_tb_hour,networking_kwh_per_gb,server_lifetime_hours,pue_by_region\n';
    const read = (row: string) =>
      catchError(() => parseTableCsv('cloudCoefficients', `${header}${row}\n`, { file: 'c.csv', meta }))
        .message;
    expect(read('aws,1,2,0.5,0,0,0,0,1,')).toBe(
      'c.csv at line 2, column 4 (pue): pue: a PUE below 1 is impossible (got 0.5)',
    );
    expect(read('aws,3,2,1.2,0,0,0,0,1,')).toBe(
      'c.csv at line 2, column 2 (min_watts): min_watts: min_watts is greater than max_watts (got 3)',
    );
    expect(read('aws,1,2,1.2,0,0,0,0,1,us-east-1=0.9')).toBe(
      'c.csv at line 2, column 10 (pue_by_region): pue_by_region: a PUE below 1 is impossible (got 0.9)',
    );
  });

  it('a bad key of a keyed table (an upper-case currency)', () => {
    const error = catchError(() =>
      parseTableCsv('fx', 'currency,year,rate\nusd,2023,1\nEUR,2023,0.92\n', { meta }),
    );
    expect([error.line, error.column]).toEqual([3, 1]);
    expect(error.problem).toBe(
      'currency: "EUR" is not a valid key: must be three lowercase letters (an ISO 4217 currency code, e.g. eur)',
    );
  });

  it('an empty required cell, a year that is not a year', () => {
    const error = catchError(() =>
      parseTableCsv('fx', 'currency,year,rate\n,2023,1\neur,23,0.9\n', { meta }),
    );
    expect(error.message).toBe(
      'fx.csv at line 2, column 1 (currency): currency is empty; it is required (and 1 more problem in this file)',
    );
    const year = catchError(() => parseTableCsv('fx', 'currency,year,rate\neur,23,0.9\n', { meta }));
    expect(year.problem).toBe('year: "23" is not a four-digit year');
  });

  it('keyed tables: each problem at its cell, every one listed', () => {
    const where = (error: DatasetError) => error.problems?.map((p) => `${p.location}: ${p.problem}`);
    const inflation =
      'region,year,rate,product\nDE,2023,4,\nde,2023,4,p52\nDE,2023,2000000,p52\nDE,2023,3,\n';
    expect(where(catchError(() => parseTableCsv('inflation', inflation, { meta })))).toEqual([
      'line 3, column 1 (region): region: "de" is not a valid key: must be two capital letters (an ISO 3166-1 alpha-2 or EXIOBASE region code, e.g. DE)',
      'line 4, column 3 (rate): rate: an annual inflation rate above 1,000,000 % is not plausible (is it a factor, not a percentage?) (got 2000000)',
      'line 5, column 2 (year): duplicate country rate for DE 2023 (first on line 2)',
    ]);
    const mappings = 'type,code,product\nisic4,47,p52\nisic4,47,p50\nisic4,47,p52\n,47,p52\n';
    const classificationsMeta = {
      dataset,
      product_classification: 'exiobase3p',
      products: {},
      weights: {},
      weights_description: 'none',
    };
    expect(
      where(catchError(() => parseTableCsv('classifications', mappings, { meta: classificationsMeta }))),
    ).toEqual([
      'line 4, column 3 (product): duplicate mapping isic4 47 → p52 (first on line 2)',
      'line 5, column 1 (type): type is empty; it is required',
    ]);
  });

  it('a repeated key, with the line of the first', () => {
    const text = 'currency,year,rate\neur,2023,0.92\nusd,2023,1\neur,2023,0.93\n';
    const error = catchError(() => parseTableCsv('fx', text, { meta }));
    expect([error.line, error.column, error.problem]).toEqual([
      4,
      2,
      'duplicate rate for eur 2023 (first on line 2)',
    ]);
    const instances =
      'provider,instance,vcpu,memory_gib,platform_vcpu,platform_embodied_kgco2e\nazure,Standard_D2s_v3,2,8,64,1500\nazure,d2s_v3,2,8,64,1500\n';
    const duplicate = catchError(() =>
      parseTableCsv('cloudInstances', instances, {
        meta: { dataset, default_year: 2024, gwp: 'ar4', years: [2024] },
      }),
    );
    expect([duplicate.line, duplicate.problem]).toEqual([
      3,
      'duplicate instance azure d2s_v3 (first on line 2)',
    ]);
  });

  it('rows of one region that disagree on its location', () => {
    const text =
      'provider,region,location,grid_zone,year,grid_factor,grid_source\naws,us-east-1,US,US-MIDA-PJM,2022,0.5,a\naws,us-east-1,CA,US-MIDA-PJM,2023,0.5,b\n';
    const error = catchError(() =>
      parseTableCsv('cloudRegions', text, {
        meta: { dataset, default_year: 2022, unit: 'kg/kWh', gwp: 'ar5' },
      }),
    );
    expect([error.line, error.column, error.problem]).toEqual([
      3,
      3,
      'location "CA" differs from "US" on line 2 for the same region',
    ]);
  });

  it('an unknown, repeated or missing column', () => {
    expect(catchError(() => parseTableCsv('fx', 'currency,year,rate,note\n', { meta })).message).toBe(
      'fx.csv at line 1, column 4 (note): unknown column "note"; the columns of a fx CSV are currency, year, rate',
    );
    expect(catchError(() => parseTableCsv('fx', 'currency,year,rate,rate\n', { meta })).problem).toBe(
      'column "rate" appears twice',
    );
    expect(catchError(() => parseTableCsv('fx', 'currency,rate\n', { meta })).problem).toBe(
      'missing column year of a fx CSV',
    );
  });

  it('malformed CSV: an unclosed quote, a row with an extra cell, an empty file', () => {
    const quote = catchError(() => parseTableCsv('fx', 'currency,year,rate\neur,2023,"0.92\n', { meta }));
    expect(quote.problem).toMatch(/^malformed CSV: Quote Not Closed/);
    const extra = catchError(() =>
      parseTableCsv('fx', 'currency,year,rate\neur,2023,0.92\nusd,2023,1,x\n', { meta }),
    );
    expect([extra.line, extra.problem]).toEqual([
      3,
      expect.stringMatching(/^malformed CSV: Invalid Record Length: expect 3, got 4/),
    ]);
    expect(catchError(() => parseTableCsv('fx', '', { meta })).problem).toBe(
      'empty file; a header row is required',
    );
  });

  it('counts lines through quoted line breaks, a BOM and blank lines', () => {
    const text = '\uFEFFproduct,region,kgco2e,name,activity_id\n\np1,DE,1,"two\nlines",a\np2,DE,x,n,b\n';
    const error = catchError(() =>
      parseTableCsv('spendFactors', text, {
        meta: {
          dataset,
          currency: 'eur',
          factor_year: 2019,
          price_basis: 'basic',
          gwp: 'ar5',
          product_classification: 'x',
        },
      }),
    );
    expect([error.line, error.column]).toEqual([5, 3]);
  });

  it('invalid table-wide fields, named in the meta', () => {
    const error = catchError(() =>
      parseTableCsv('fx', 'currency,year,rate\n', {
        file: 'fx.csv',
        meta: { dataset: { ...dataset, version: '' } },
      }),
    );
    expect(error.message).toBe(
      'fx.csv meta at dataset.version: dataset.version: Too small: expected string to have >=1 characters (got "")',
    );
    const spend = catchError(() =>
      parseTableCsv('spendFactors', 'product,region,kgco2e,name,activity_id\n', {
        metaFile: 'factors.meta.json',
        meta: {
          dataset,
          currency: 'EUR',
          factor_year: 2019,
          price_basis: 'basic',
          gwp: 'ar5',
          product_classification: 'x',
        } as never,
      }),
    );
    expect([spend.table, spend.location]).toEqual(['factors.meta.json', 'currency']);
  });

  it('an unknown kind', () => {
    expect(catchError(() => parseTableCsv('rates' as TableKind, '', { meta } as never)).problem).toMatch(
      /^unknown table kind "rates"; valid kinds: spendFactors/,
    );
  });

  it('reports the first problem in file order and how many there are, so nothing is half-loaded', () => {
    const rows = [
      'currency,year,rate',
      'eur,2020,0.87',
      'eur,2021,x',
      'eur,2022,0.95',
      'eur,2023,-1',
      'eur,2024,0.92',
    ];
    const error = catchError(() => parseTableCsv('fx', rows.join('\n'), { meta }));
    expect([error.line, error.problem]).toEqual([
      3,
      'rate: "x" is not a number (and 1 more problem in this file)',
    ]);
  });
});
