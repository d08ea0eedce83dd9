/**
 * Builds `datasets/spend/inflation-worldbank.json`: World Bank CPI inflation, annual % (CC BY 4.0).
 *
 *   npx tsx scripts/datasets/spend/build-inflation.ts
 */
import { InflationTable } from '../../../src/datasets/tables';
import {
  Report,
  SPEND_OUT_DIR,
  WORLD_BANK_ATTRIBUTION,
  assert,
  col,
  isMain,
  num,
  readTable,
  roundTrips,
  sharedDataDir,
  significantDigits,
  writeTable,
} from './lib';

export const INFLATION_FILE = 'inflation-worldbank.json';

export function buildInflation(dataDir: string, report: Report): InflationTable {
  const country: Record<string, Record<string, number>> = {};
  let rows = 0;
  let maxSig = 0;
  const notExact: string[] = [];
  let latest = 0;
  for (const r of readTable(dataDir, 'inflation/wb_cpi_inflation_FP.CPI.TOTL.ZG_long.csv')) {
    const iso2 = col(r, 'iso2');
    if (col(r, 'is_aggregate') !== '0' || iso2 === '') continue;
    const year = Number(col(r, 'year'));
    assert(Number.isInteger(year), `year ${col(r, 'year')}`);
    if (year < 1990) continue;
    const text = col(r, 'inflation_pct');
    const value = num(text, `inflation ${iso2} ${year}`);
    maxSig = Math.max(maxSig, significantDigits(text));
    if (significantDigits(text) > 17 || !roundTrips(text, value)) notExact.push(`${iso2} ${year} ${text}`);
    const byYear = (country[iso2] ??= {});
    assert(byYear[String(year)] === undefined, `duplicate inflation ${iso2} ${year}`);
    byYear[String(year)] = value;
    latest = Math.max(latest, year);
    rows++;
  }
  assert(country.DE?.['2022'] === 6.87257438551097, 'World Bank DE 2022 = 6.87257438551097');
  report.info(
    `  inflation: ${Object.keys(country).length} economies, ${rows} country-years 1990-${latest}; ` +
      `max ${maxSig} significant digits in the CSV; ${notExact.length} values not exactly representable`,
  );
  for (const v of notExact) report.warn(`inflation value not exact as a JS number: ${v}`);

  return InflationTable.parse({
    dataset: {
      id: 'worldbank-cpi',
      version: 'FP.CPI.TOTL.ZG@datasets-inflation-fc1dbea',
      source: 'World Bank',
      source_dataset:
        'World Development Indicators: Inflation, consumer prices (annual %) [FP.CPI.TOTL.ZG], via datasets/inflation (commit fc1dbea)',
      licence: 'CC-BY-4.0',
      attribution: WORLD_BANK_ATTRIBUTION,
    },
    country,
  } satisfies InflationTable);
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, INFLATION_FILE, buildInflation(sharedDataDir(), report), report);
}
