import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';

/** Shared helpers of the dataset build scripts (`npx tsx scripts/datasets/build-all.ts`). */

/** Repository root: two levels up from `scripts/datasets/`. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Read-only source data (see its MANIFEST.md); `CO2E_SHARED_DATA` overrides `../shared/data`. */
export const SHARED_DATA = resolve(process.env.CO2E_SHARED_DATA ?? resolve(REPO_ROOT, '../shared/data'));

export const sharedPath = (...parts: string[]): string => resolve(SHARED_DATA, ...parts);
export const repoPath = (...parts: string[]): string => resolve(REPO_ROOT, ...parts);

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`dataset build: ${message}`);
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

/** A CSV file as one record per data row, keyed by the header (an unnamed pandas index column is key `''`). */
export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), {
    columns: true,
    bom: true,
    skip_empty_lines: true,
  }) as Record<string, string>[];
}

/** A plain decimal string (`12`, `0.60`) as a number, else undefined; no decimal commas, `N/A` or exponents. */
export function parseDecimal(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** Locale-independent string order, so the output is the same on every machine. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Orders rows by `provider`, then by the given id field. */
export function byProviderThen<K extends string>(key: K) {
  return (a: { provider: string } & Record<K, string>, b: { provider: string } & Record<K, string>): number =>
    compareStrings(a.provider, b.provider) || compareStrings(a[key], b[key]);
}

/**
 * Writes `value` as 2-space JSON with a trailing newline and prints its SHA-256. Arrays must already be sorted
 * by the caller and objects built in a fixed key order, so the bytes depend on the inputs alone.
 */
export function writeJson(path: string, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  const sha = createHash('sha256').update(text).digest('hex');
  console.log(`  wrote ${relative(REPO_ROOT, path)}  sha256 ${sha}`);
}

/** True when the module at `importMetaUrl` is the script node/tsx was started with. */
export function isMain(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(resolve(entry)).href === importMetaUrl;
}
