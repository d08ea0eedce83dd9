import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTables } from '../../src/embedded/index';
import { DatasetError } from '../../src/index';
import { parseExiobaseRelease } from '../../src/loaders/index';
import { loadCcfCoefficients, loadExiobaseRelease, loadTableFile } from '../../src/node/index';
import { AWS_INSTANCES, CCF_FOLDER, EXPECTED_INSTANCES } from './ccf-fixture';
import { CML_ROW, releaseTexts, releaseZip, REGIONS } from './exiobase-fixture';
import { caught } from '../fixtures/caught';

const root = mkdtempSync(join(tmpdir(), 'co2e-loaders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string | Uint8Array): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

const catchError = (run: () => unknown): DatasetError => caught(DatasetError, run);

const products = defaultTables.classifications.products;
const texts = releaseTexts();
const options = { year: 2019, version: '3.8.2', products };
const expected = parseExiobaseRelease({ ...texts, ...options });

describe('loadExiobaseRelease', () => {
  write('folder/IOT_2019_pxp/impacts/M.txt', texts.multipliers);
  write('folder/IOT_2019_pxp/x.txt', texts.output);
  write('zips/IOT_2019_pxp.zip', releaseZip(texts));
  write('flat/release.zip', releaseZip(texts, ''));
  write('stored/IOT_2019_pxp.zip', releaseZip(texts, 'IOT_2019_pxp/', 0));

  it.each([
    ['the release folder', 'folder/IOT_2019_pxp'],
    ['a folder holding the release folder', 'folder'],
    ['the zip as downloaded (files under IOT_2019_pxp/)', 'zips/IOT_2019_pxp.zip'],
    ['a folder holding the zip', 'zips'],
    ['a zip with the files at its root', 'flat/release.zip'],
    ['a zip with stored (uncompressed) entries', 'stored/IOT_2019_pxp.zip'],
  ])('reads %s: factors for every region', (_, path) => {
    const release = loadExiobaseRelease(join(root, path), options);
    expect(release).toEqual(expected);
    expect(release.regions).toEqual([...REGIONS]);
    expect(new Set(release.spendFactors.factors.map((row) => row.region))).toEqual(new Set(REGIONS));
  });

  it('names the file inside the zip in errors', () => {
    const bad = releaseTexts([
      [
        'GHG emissions (GWP100) | Problem oriented approach: baseline (CML, 2001) | GWP100 (IPCC, 2007)',
        { ...CML_ROW, AT: ['0', 'x', '1', '1', '1'] },
      ],
    ]);
    const zip = write('bad/IOT_2019_pxp.zip', releaseZip(bad));
    const error = catchError(() => loadExiobaseRelease(zip, options));
    expect([error.table, error.line, error.column]).toEqual([`${zip}:IOT_2019_pxp/impacts/M.txt`, 3, 3]);
  });

  it('refuses another year, the ixi tables, a missing path, a zip without the files, a file that is not a zip', () => {
    expect(
      catchError(() => loadExiobaseRelease(join(root, 'zips/IOT_2019_pxp.zip'), { ...options, year: 2020 }))
        .problem,
    ).toBe('this is the 2019 release, but year 2020 was asked for');
    write('ixi/IOT_2019_ixi/impacts/M.txt', texts.multipliers);
    write('ixi/IOT_2019_ixi/x.txt', texts.output);
    expect(catchError(() => loadExiobaseRelease(join(root, 'ixi/IOT_2019_ixi'), options)).problem).toMatch(
      /industry-by-industry release \(ixi\)/,
    );
    expect(catchError(() => loadExiobaseRelease(join(root, 'nowhere'), options)).problem).toBe(
      'no such file or folder',
    );
    expect(catchError(() => loadExiobaseRelease(join(root, 'ixi'), options)).problem).toBe(
      'no impacts/M.txt in the folder, and no IOT_2019_pxp folder or zip in it',
    );
    const other = write(
      'other.zip',
      releaseZip({ multipliers: texts.multipliers, output: texts.output }, 'IOT_2018_pxp/'),
    );
    expect(catchError(() => loadExiobaseRelease(other, options)).problem).toBe(
      'this is the 2018 release, but year 2019 was asked for',
    );
    const notZip = write('fake.zip', 'not a zip at all');
    expect(catchError(() => loadExiobaseRelease(notZip, options)).problem).toBe(
      'not a zip file (no end of central directory record)',
    );
  });
});

describe('loadTableFile', () => {
  const dataset = {
    id: 'treasury',
    version: '2024',
    source: 'Treasury',
    source_dataset: 'Treasury rates',
    licence: 'internal',
    attribution: 'Treasury',
  };
  const csv = 'currency,year,rate\neur,2024,0.92\ngbp,2024,0.78\n';
  const table = { dataset, rates: { eur: { '2024': 0.92 }, gbp: { '2024': 0.78 } } };

  it('reads a CSV with its meta file beside it', () => {
    const path = write('tables/fx.csv', csv);
    write('tables/fx.meta.json', JSON.stringify({ dataset }));
    expect(loadTableFile('fx', path)).toEqual(table);
  });

  it('reads a CSV with the meta given, and a JSON table', () => {
    expect(loadTableFile('fx', write('tables/rates.csv', csv), { meta: { dataset } })).toEqual(table);
    expect(loadTableFile('fx', write('tables/fx.json', JSON.stringify(table)))).toEqual(table);
  });

  it('names the file, line and column of a problem', () => {
    const path = write('tables/broken.csv', 'currency,year,rate\neur,2024,0.92\ngbp,2024,-1\n');
    write('tables/broken.meta.json', JSON.stringify({ dataset }));
    const error = catchError(() => loadTableFile('fx', path));
    expect([error.table, error.line, error.column]).toEqual([path, 3, 3]);
    const meta = write('tables/badmeta.meta.json', '{\n  "dataset": }');
    const badMeta = catchError(() => loadTableFile('fx', write('tables/badmeta.csv', csv)));
    expect([badMeta.table, badMeta.line]).toEqual([meta, 2]);
    write('tables/wrongmeta.meta.json', JSON.stringify({ dataset: { ...dataset, id: '' } }));
    expect(catchError(() => loadTableFile('fx', write('tables/wrongmeta.csv', csv))).table).toBe(
      join(root, 'tables/wrongmeta.meta.json'),
    );
  });

  it('refuses a CSV without meta, an unknown extension, a missing file', () => {
    const lone = write('tables/lone.csv', csv);
    expect(catchError(() => loadTableFile('fx', lone)).problem).toBe(
      `a CSV table needs its table-wide fields (dataset, ...): pass { meta } or write them to ${join(root, 'tables/lone.meta.json')}`,
    );
    expect(catchError(() => loadTableFile('fx', write('tables/fx.xlsx', 'x'))).problem).toBe(
      'unknown file type ".xlsx"; a table file is .csv or .json',
    );
    expect(catchError(() => loadTableFile('fx', join(root, 'tables/none.csv'))).problem).toBe('no such file');
  });
});

describe('loadCcfCoefficients', () => {
  for (const [name, content] of Object.entries(CCF_FOLDER)) write(`ccf/${name}`, content);

  it('reads every provider of the folder, versioned by content', () => {
    const result = loadCcfCoefficients(join(root, 'ccf'));
    expect(result.cloudInstances.instances).toEqual(EXPECTED_INSTANCES);
    expect(result.cloudInstances.dataset.version).toMatch(/^content-[0-9a-f]{16}$/);
    expect([
      result.cloudInstances.default_year,
      result.cloudInstances.gwp,
      result.cloudInstances.years,
    ]).toEqual([2021, 'ar4', [2021, 2022, 2023, 2024, 2025]]);
    expect(result.dropped.map((drop) => drop.instance)).toEqual(['t9.nano', 'x9.big', 'zz-1']);
    expect(result.cloudCoefficients).toBeUndefined();
  });

  it('sets provider-average watts from the use CSVs when asked, keeping the other coefficients', () => {
    const result = loadCcfCoefficients(join(root, 'ccf'), {
      coefficients: { base: defaultTables.cloudCoefficients, average: 'median' },
    });
    const gcp = defaultTables.cloudCoefficients.providers.gcp;
    // medians of 0.5/0.6/0.7 and 1.7/3.9/4.1
    expect(result.cloudCoefficients?.providers.gcp).toEqual({ ...gcp, min_watts: 0.6, max_watts: 3.9 });
    expect(result.cloudCoefficients?.providers.aws).toEqual(defaultTables.cloudCoefficients.providers.aws);
    expect(Object.keys(result.watts)).toEqual(['gcp']);
    expect(result.cloudCoefficients?.dataset.id).toBe('ccf-coefficients+ccf-use');
  });

  it('refuses a provider with one of its two files, and a folder with none', () => {
    write('half/aws-instances.csv', AWS_INSTANCES);
    expect(catchError(() => loadCcfCoefficients(join(root, 'half'))).problem).toBe(
      'aws: aws-instances.csv found but not coefficients-aws-embodied.csv; both are needed',
    );
    mkdirSync(join(root, 'empty'), { recursive: true });
    expect(catchError(() => loadCcfCoefficients(join(root, 'empty'))).problem).toMatch(
      /^no ccf-coefficients instance files/,
    );
    expect(catchError(() => loadCcfCoefficients(join(root, 'missing'))).problem).toBe('no such folder');
  });

  // The embedded default was built from these files by scripts/datasets/build-cloud.ts; present in the workspace only.
  const shared = resolve(__dirname, '../../../shared/data/ccf/ccf-coefficients');
  it.skipIf(!existsSync(shared))(
    'reads the real ccf-coefficients files into exactly the embedded instances they supply',
    () => {
      const result = loadCcfCoefficients(shared);
      const embedded = new Map(
        defaultTables.cloudInstances.instances.map((row) => [`${row.provider}/${row.instance}`, row]),
      );
      // The embedded rows also carry GPU counts and models (scripts/datasets/cloud-gpus.ts, issue 22), which the
      // ccf-coefficients files do not state.
      for (const row of result.cloudInstances.instances) {
        const {
          gpu_count: _count,
          gpu_model: _model,
          ...specs
        } = embedded.get(`${row.provider}/${row.instance}`) ?? {};
        expect(specs).toEqual(row);
      }
      // The others are the newer types from the CCF app's tables, the AWS 2026 list and today's families derived from
      // their platforms' specs (datasets/SOURCES.md): AWS 328, Azure 302, GCP 259 (with C4D and N4D).
      expect(embedded.size - result.cloudInstances.instances.length).toBe(328 + 302 + 259);
      expect(readFileSync(join(shared, 'aws-instances.csv'), 'utf8').length).toBeGreaterThan(0);
    },
  );
});
