import { describe, expect, it } from 'vitest';
import { cli, tempFile } from './harness';

// Issue 23 item 6: factor names from a --datasets file reached CSV output with their formulas intact.
describe('text cells that come from data are neutralised against spreadsheet formulas', () => {
  const datasets = JSON.stringify({
    format: 'co2e-engine-datasets/1',
    layers: [
      {
        spendFactors: {
          dataset: {
            id: 'acme',
            version: '1',
            source: '@SUM(1+1)',
            source_dataset: 'x',
            licence: 'x',
            attribution: 'x',
          },
          currency: 'eur',
          factor_year: 2019,
          price_basis: 'basic',
          gwp: 'ar5',
          product_classification: 'exiobase3p',
          factors: [
            {
              product: 'acme',
              region: 'DE',
              kgco2e: 1,
              name: '=HYPERLINK("http://example.invalid","click")',
              activity_id: 'acme-x',
              data_quality_flags: [],
            },
          ],
        },
      },
    ],
  });
  const ledger = 'id,activity_id,spend_year,spend_region,money,money_unit\n1,acme-x,2019,DE,10,eur\n';

  it.each([[[]], [['--allow-formulas']]])('factor_name and factor_source (options %j)', async (extra) => {
    const run = await cli([
      'spend',
      tempFile('formula-ledger.csv', ledger),
      '--datasets',
      tempFile('formula-data.json', datasets),
      '--jobs',
      '1',
      ...extra,
    ]);
    expect(run.code).toBe(0);
    const row = run.stdout.split('\n')[1] ?? '';
    expect(row).toContain(`"'=HYPERLINK(""http://example.invalid"",""click"")"`);
    expect(row).toContain(",'@SUM(1+1),");
    expect(row).not.toMatch(/,=HYPERLINK|,"=HYPERLINK|,@SUM/);
  });
});
