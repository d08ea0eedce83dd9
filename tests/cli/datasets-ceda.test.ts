import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { cli, parseCsv, tempFile, tempPath } from './harness';

/**
 * `co2e-engine datasets build --ceda FILE.xlsx`: the publisher's workbook read at full precision, on a workbook this
 * test writes in the 2024 layout (a cover sheet, then the factor sheet: sector names, a `Country Code` header row,
 * one row per country). The file then answers over the `ceda` preset with the unrounded factors.
 */

async function workbook(rows: unknown[][], sheet = 'Open CEDA 2024'): Promise<string> {
  const book = new ExcelJS.Workbook();
  book
    .addWorksheet('Cover')
    .addRows([[], ['', 'CEDA Version', '', 'CEDA 2024'], ['', 'License', '', 'CC BY-SA 4.0']]);
  book.addWorksheet(sheet).addRows(rows);
  const path = tempPath('ceda.xlsx');
  await book.xlsx.writeFile(path);
  return path;
}

const GRID = [
  [],
  ['', '', '', '', 'Cement manufacturing', 'Custom computer programming services'],
  ['', 'Country Code', 'Country', 'country', '327310', '541511'],
  ['', 'USA', 'United States', 'kgCO2e/US Dollar', 8.8724321, 0.0491234],
  ['', 'DEU', 'Germany', 'kgCO2e/US Dollar', 3.88211, 0.09187],
  ['', 'ROW', 'Rest of World', 'kgCO2e/US Dollar', 5.5, 0.3],
];

const LEDGER =
  'classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin\n';

describe('datasets build --ceda', () => {
  it('reads the factor sheet at full precision; spend with --datasets ceda --datasets FILE uses it', async () => {
    const xlsx = await workbook(GRID);
    const out = tempPath('ceda-full.json');
    const build = await cli(['datasets', 'build', '--ceda', xlsx, '--out', out]);
    expect(build.stderr).toContain('(sheet Open CEDA 2024): 2 sectors × 3 regions');
    expect(build.code).toBe(0);
    const ledger = tempFile(
      'ledger.csv',
      `${LEDGER}naics2017,327310,2022,US,1000,usd,0,0,0\nnaics2017,541511,2022,DE,1000,usd,0,0,0\nnaics2017,541511,2022,VE,1000,usd,0,0,0\n`,
    );
    const { code, stdout } = await cli(['spend', ledger, '--datasets', 'ceda', '--datasets', out]);
    expect(code).toBe(0);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => row.co2e)).toEqual(['8872.4321', '91.87', '300']);
    expect(rows[2]?.factor_region).toBe('WW');
    for (const row of rows) expect(row.factor_source).toBe('CEDA by Watershed');
  }, 60_000);

  it('names the sheet with --ceda-sheet, and says which sheets there are when none has the header', async () => {
    const xlsx = await workbook(GRID.slice(0, 2), 'Factors');
    const run = await cli(['datasets', 'build', '--ceda', xlsx, '--out', tempPath('x.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no sheet has a 'Country Code' header row (sheets: Cover, Factors)");
    const named = await cli([
      'datasets',
      'build',
      '--ceda',
      xlsx,
      '--ceda-sheet',
      'Nope',
      '--out',
      tempPath('y.json'),
    ]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("no sheet 'Nope'");
  }, 60_000);

  it('refuses a country code it cannot place and a cell that is no number', async () => {
    const unknown = await workbook([...GRID, ['', 'XYZ', 'Nowhere', 'kgCO2e/US Dollar', 1, 1]]);
    const run = await cli(['datasets', 'build', '--ceda', unknown, '--out', tempPath('z.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Country code XYZ (Nowhere) has no region code.');
    const text = await workbook([...GRID.slice(0, 3), ['', 'USA', 'United States', 'kg', 'n/a', 1]]);
    const bad = await cli(['datasets', 'build', '--ceda', text, '--out', tempPath('w.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("USA 327310: 'n/a' is not a number.");
  }, 60_000);
});
