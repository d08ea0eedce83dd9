import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateSpend, type SpendRequest } from '../../src/index';
import { loadDatasetsFile } from '../../src/node/index';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { naioSdmxCsv, naioTsv, product } from '../loaders/naio-fixture';
import { cli, parseCsv, tempPath } from './harness';
import { eur1000, isic4 } from '../fixtures/requests';

/**
 * `datasets build --margins <Eurostat naio_10_cp15>` → `spend --datasets`, end to end. The synthetic release has
 * FR computer services (p72) at 0.089 kg/EUR. The naio file gives FR CPA_J62_63 (→ p72) TS_BP 700, D21X31 100,
 * OTTM 200, TS_PP 1000: tax 0.1, trade + transport 0.2, with --trade-share 0.75 trade 0.15 and transport 0.05.
 * 1000 EUR of ISIC 6201 in FR without margins: 1000 × (1 − 0.3) × 0.089 = 62.3 kg; with tax_margin 0 supplied:
 * 1000 × (1 − 0.2) × 0.089 = 71.2 kg.
 */
const FR_J62 = product('FR', 'CPA_J62_63', ['700', '100', '200', '1000']);
/** FR retail (CPA_G47 → p50.b, p52), which the embedded data has factors for. */
const FR_G47 = product('FR', 'CPA_G47', ['700', '100', '200', '1000']);
const RETAIL =
  'Retail  trade services, except of motor vehicles and motorcycles; repair services of personal and household goods (52)';
const HEADER =
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin';
const request = (margins: Partial<SpendRequest> = {}, code = '6201'): SpendRequest =>
  eur1000(isic4(code), 'FR', margins);

/** `co2e-engine datasets build` with these options, each a name and its value, in this order. */
const build = (...options: Array<[string, string]>) => cli(['datasets', 'build', ...options.flat()]);

let zip: string;
let built: string;
let stderr: string;

beforeAll(async () => {
  zip = tempPath('IOT_2019_pxp.zip');
  writeFileSync(zip, releaseZip(releaseTexts()));
  const naio = tempPath('naio_10_cp15.tsv');
  writeFileSync(naio, naioTsv(FR_J62));
  built = tempPath('my-data.json');
  const run = await build(
    ['--exiobase', zip],
    ['--exiobase-version', '3.8.2'],
    ['--margins', naio],
    ['--trade-share', '0.75'],
    ['--out', built],
  );
  stderr = run.stderr;
  expect(run.code).toBe(0);
});

describe('datasets build --margins naio_10_cp15 → spend --datasets', () => {
  it('says what it read', () => {
    expect(stderr).toMatch(
      /naio_10_cp15\.tsv: 3 default margins for FR \(eurostat-naio_10_cp15-2019@content-[0-9a-f]{16}, trade share 0\.75\)/,
    );
  });

  it('spend takes the loaded margins where none are supplied, and the supplied ones where given', async () => {
    const ledger = tempPath('ledger.csv');
    writeFileSync(
      ledger,
      [HEADER, '1,isic4,6201,2019,FR,1000,eur,', '2,isic4,6201,2019,FR,1000,eur,0', ''].join('\n'),
    );
    const out = tempPath('out.csv');
    const run = await cli(['spend', ledger, '--datasets', built, '--out', out]);
    expect(run.code).toBe(0);
    expect(parseCsv(readFileSync(out, 'utf8')).map((row) => row.co2e)).toEqual(['62.3', '71.2']);
  });

  it('calculation_details tells which margins were supplied and which came from which dataset', () => {
    const datasets = loadDatasetsFile(built, defaultDatasets);
    const details = calculateSpend(request({ tax_margin: 0 }), datasets).calculation_details;
    expect(details).toMatchObject({
      tax_margin: 0,
      trade_margin: 0.15,
      transport_margin: 0.05,
      margin_sources: { tax_margin: 'supplied', trade_margin: 'default', transport_margin: 'default' },
    });
    expect(details.margin_datasets).toEqual([expect.stringMatching(/^eurostat-naio_10_cp15-2019@content-/)]);
    const all = calculateSpend(request({ tax_margin: 0, trade_margin: 0, transport_margin: 0 }), datasets);
    expect(all.calculation_details.margin_sources).toEqual({
      tax_margin: 'supplied',
      trade_margin: 'supplied',
      transport_margin: 'supplied',
    });
    expect(all.calculation_details.margin_datasets).toBeUndefined();
  });

  it('reads SDMX-CSV and gzip alike, and a later margins file wins per region and product', async () => {
    const sdmx = tempPath('naio.csv');
    writeFileSync(sdmx, naioSdmxCsv(FR_G47));
    const gz = tempPath('naio.tsv.gz');
    writeFileSync(gz, gzipSync(naioTsv(FR_G47)));
    const plain = tempPath('ours.csv');
    writeFileSync(plain, 'region,product,tax,trade,transport\nFR,p52,0.2,0.1,0.05\n');
    writeFileSync(
      plain.replace(/\.csv$/, '.meta.json'),
      JSON.stringify({
        dataset: {
          id: 'ours',
          version: '1',
          source: 'Us',
          source_dataset: 'Our margins',
          licence: 'internal',
          attribution: 'Us',
        },
      }),
    );
    const out = tempPath('both.json');
    const run = await build(
      ['--margins', sdmx],
      ['--margins', gz],
      ['--margins', plain],
      ['--trade-share', '1'],
      ['--out', out],
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('naio.csv: 2 default margins for FR');
    expect(run.stderr).toContain('naio.tsv.gz: 2 default margins for FR');
    const datasets = loadDatasetsFile(out, defaultDatasets);
    const details = calculateSpend(request({}, '4711'), datasets).calculation_details;
    expect(details).toMatchObject({ tax_margin: 0.2, trade_margin: 0.1, transport_margin: 0.05 });
    expect(details.margin_datasets).toEqual(['ours@1']);
    // p50.b (from CPA_G47 too) keeps the Eurostat margins, all trade with --trade-share 1.
    expect(datasets.margins.get('FR', 'p50.b')).toMatchObject({
      tax_margin: 0.1,
      trade_margin: 0.2,
      transport_margin: 0,
    });
  });

  it('builds margins from EXIOBASE valuation layers with --exiobase-margins', async () => {
    const encoder = new TextEncoder();
    const header = 'region\t\tFR\nsector\t\tComputer services\nregion\tsector\t\n';
    const layer = (value: string) => encoder.encode(`${header}FR\t${RETAIL}\t${value}\n`);
    const sut = tempPath('MRSUT_2019.zip');
    writeFileSync(
      sut,
      zipSync({
        'use.csv': layer('80'),
        'trade_margins.csv': layer('10'),
        'transport_margins.csv': layer('5'),
        'taxes_less_subsidies.csv': layer('5'),
      }),
    );
    const out = tempPath('layers.json');
    const run = await build(['--exiobase-margins', sut], ['--exiobase-version', '3.8.2'], ['--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('1 default margins for 1 regions (exiobase-3-MRSUT_2019-margins)');
    const details = calculateSpend(
      request({}, '4711'),
      loadDatasetsFile(out, defaultDatasets),
    ).calculation_details;
    expect(details).toMatchObject({
      tax_margin: 0.05,
      trade_margin: 0.1,
      transport_margin: 0.05,
      margin_datasets: ['exiobase-3-MRSUT_2019-margins@3.8.2'],
    });
  });
});

describe('datasets build refuses margins it cannot read', () => {
  it('a naio file without --trade-share is a usage error', async () => {
    const naio = tempPath('naio_10_cp15.tsv');
    writeFileSync(naio, naioTsv(FR_J62));
    const run = await build(['--margins', naio], ['--out', tempPath('x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'which gives trade and transport margins combined (OTTM): pass --trade-share <0..1>',
    );
    const bad = await build(['--margins', naio], ['--trade-share', '1.5'], ['--out', tempPath('x.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--trade-share must be a fraction from 0 to 1.');
  });

  it('bad data: exit 1 naming file, line and column, and nothing written', async () => {
    const naio = tempPath('naio_10_cp15.tsv');
    writeFileSync(naio, naioTsv(product('FR', 'CPA_J62_63', ['700', '100', '200', '1200'])));
    const out = tempPath('never.json');
    const run = await build(['--margins', naio], ['--trade-share', '1'], ['--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${naio} at line 5, column 3 (2019): FR CPA_J62_63: TS_PP 1200 ≠ TS_BP 700`);
    expect(existsSync(out)).toBe(false);
    const omitted = await build(
      ['--margins', naio],
      ['--trade-share', '1'],
      ['--margins-inconsistent', 'omit'],
      ['--out', out],
    );
    expect(omitted.code).toBe(0);
    expect(omitted.stderr).toContain('0 default margins for no region');
    expect(omitted.stderr).toContain('CPA products left out: 1 inconsistent');
  });

  it('a header of no known format, or not the format --margins-format names', async () => {
    const other = tempPath('other.csv');
    writeFileSync(other, 'a,b\n1,2\n');
    const unknown = await build(['--margins', other], ['--out', tempPath('x.json')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`${other} at line 1: cannot tell the format from the header`);
    const naio = tempPath('naio.tsv');
    writeFileSync(naio, naioTsv(FR_J62));
    const mismatch = await build(
      ['--margins', naio],
      ['--margins-format', 'csv'],
      ['--out', tempPath('x.json')],
    );
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('--margins-format is csv, but the header is that of naio-tsv');
    const year = await build(
      ['--margins', naio],
      ['--trade-share', '1'],
      ['--margins-year', '2021'],
      ['--out', tempPath('x.json')],
    );
    expect(year.code).toBe(1);
    expect(year.stderr).toContain('no column for 2021; the file has 2018, 2019');
  });
});
