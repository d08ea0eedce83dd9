import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateSpend, DatasetError } from '../../src/index';
import { loadDatasetsFile } from '../../src/node/index';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { cli, parseCsv, serveCli, tempFile, tempPath } from './harness';
import { runCliProcess } from './process';
import { eur1000, isic4 } from '../fixtures/requests';

/**
 * `co2e-engine datasets build` → `--datasets`, through the real CLI. The synthetic release (tests/loaders/
 * exiobase-fixture.ts) has FR computer services (p72) at 89000 kg CO2e per million EUR on its AR5 row, so
 * 0.089 kg/EUR; the embedded data has no p72 factor for FR. The margins file gives FR p72 tax 0.2, trade 0.1,
 * transport 0.05: 1000 EUR × (1 − 0.35) = 650 EUR at basic price × 0.089 = 57.85 kg. DE retail (ISIC 4711 → p52)
 * is not in the release and keeps the embedded 0.0272 kg/EUR: 1000 EUR with margins 0 = 27.2 kg.
 */

const MARGINS_META = {
  dataset: {
    id: 'acme-margins',
    version: '2024',
    source: 'ACME statistics',
    source_dataset: 'FR supply table margins',
    licence: 'internal',
    attribution: 'ACME',
  },
};
const HEADER =
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';
const FR_ROW = (id: number) => `${id},isic4,6201,2019,FR,1000,eur,,,`;
const DE_ROW = (id: number) => `${id},isic4,4711,2019,DE,1000,eur,0,0,0`;

let dataFile: string;

beforeAll(async () => {
  const zip = tempPath('IOT_2019_pxp.zip');
  writeFileSync(zip, releaseZip(releaseTexts()));
  const margins = tempPath('fr-margins.csv');
  writeFileSync(margins, 'region,product,tax,trade,transport\nFR,p72,0.2,0.1,0.05\n');
  writeFileSync(margins.replace(/\.csv$/, '.meta.json'), JSON.stringify(MARGINS_META));
  dataFile = tempPath('my-data.json');
  const build = await runCliProcess([
    'datasets',
    'build',
    '--exiobase',
    zip,
    '--exiobase-version',
    '3.8.2',
    '--margins',
    margins,
    '--out',
    dataFile,
  ]);
  expect(build.stderr).toContain('15 factors for 3 regions');
  expect(build.stderr).toContain('1 default margins (acme-margins)');
  expect(build.code).toBe(0);
});

describe('datasets build → --datasets', () => {
  it('spend: the file’s factors and margins win, the rest stays the defaults, on worker threads too', async () => {
    // 1,200 rows: two chunks, so with --jobs 2 worker threads compute them, from the same file.
    const rows = Array.from({ length: 1_200 }, (_, index) =>
      index % 2 === 0 ? FR_ROW(index) : DE_ROW(index),
    );
    const ledger = tempFile('ledger.csv', [HEADER, ...rows, ''].join('\n'));
    const out = tempPath('out.csv');
    const run = await cli(['spend', ledger, '--datasets', dataFile, '--jobs', '2', '--out', out]);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    const results = parseCsv(readFileSync(out, 'utf8'));
    expect(results).toHaveLength(1_200);
    const co2e = new Set(results.map((row) => `${row.spend_region} ${row.co2e} ${row.factor_source}`));
    expect([...co2e].sort()).toEqual(['DE 27.2 EXIOBASE', 'FR 57.85 EXIOBASE']);

    // Without the file FR has no computer-services factor.
    const without = await cli(['spend', '-'], { stdin: [HEADER, FR_ROW(0), ''].join('\n') });
    expect(without.code).toBe(1);
    expect(parseCsv(without.stdout)[0]?.error_code).toBe('no_emission_factors_found');
  });

  it('the library loads the same file with one call, and names its margins dataset', () => {
    const datasets = loadDatasetsFile(dataFile, defaultDatasets);
    const result = calculateSpend(eur1000(isic4('6201'), 'FR'), datasets);
    expect(result.estimate.co2e).toBe(57.85);
    expect(result.calculation_details.margin_datasets).toEqual(['acme-margins@2024']);
    expect(result.estimate.emission_factor?.source_dataset).toContain('EXIOBASE 3.8.2 IOT_2019_pxp');
  });

  it('cloud takes --datasets too (the file has no cloud tables, so results are the defaults’)', async () => {
    const input = 'calculator,provider,cpu_count,region,duration\ncpu,aws,1,us_east_1,1\n';
    const withFile = await cli(['cloud', '-', '--datasets', dataFile], { stdin: input });
    const without = await cli(['cloud', '-'], { stdin: input });
    expect(withFile.code).toBe(0);
    expect(withFile.stdout).toBe(without.stdout);
  });

  it('serve answers from the file', async () => {
    const { url, stop } = await serveCli(['--datasets', dataFile]);
    try {
      const response = await fetch(`${url}/procurement/spend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(eur1000(isic4('6201'), 'FR')),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).estimate.co2e).toBe(57.85);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  });
});

describe('datasets build and --datasets refuse bad input', () => {
  it('refuses a missing or bad --datasets file with a usage error naming it', async () => {
    const missing = tempPath('none.json');
    const run = await cli(['spend', '-', '--datasets', missing], { stdin: HEADER });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--datasets ${missing}: no such file`);
    const other = tempFile('other.json', '{"layers": []}');
    const bad = await cli(['cloud', '-', '--datasets', other], { stdin: 'calculator\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${other} at format: not a dataset file`);
    const invalid = tempFile(
      'invalid.json',
      JSON.stringify({ format: 'co2e-engine-datasets/1', layers: [{ fx: { rates: {} } }] }),
    );
    expect(() => loadDatasetsFile(invalid, defaultDatasets)).toThrow(DatasetError);
    expect(() => loadDatasetsFile(invalid, defaultDatasets)).toThrow(`${invalid} at layers[0].fx`);
  });

  it('refuses margins that break the bounds, naming file and line, and writes nothing', async () => {
    const margins = tempPath('bad-margins.csv');
    writeFileSync(margins, 'region,product,tax,trade,transport\nFR,p72,0.5,0.5,0\n');
    writeFileSync(margins.replace(/\.csv$/, '.meta.json'), JSON.stringify(MARGINS_META));
    const out = tempPath('never.json');
    const run = await cli(['datasets', 'build', '--margins', margins, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${margins} at line 2, column 3 (tax): tax + trade + transport = 1`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a margins CSV without its meta, an existing --out without --force, and no inputs', async () => {
    const margins = tempFile('lonely.csv', 'region,product,tax,trade,transport\n');
    const noMeta = await cli(['datasets', 'build', '--margins', margins, '--out', tempPath('x.json')]);
    expect(noMeta.code).toBe(1);
    expect(noMeta.stderr).toContain('needs its dataset description');
    const exists = await cli(['datasets', 'build', '--margins', margins, '--out', dataFile]);
    expect(exists.code).toBe(2);
    expect(exists.stderr).toContain('exists; pass --force');
    const nothing = await cli(['datasets', 'build', '--out', tempPath('y.json')]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('needs --exiobase');
  });
});
