import { distance } from 'fastest-levenshtein';
import type { ColumnSpec } from './row-adapter';

/**
 * The header checked before the first row: its names matched to the columns an adapter reads whatever their case
 * and separators (`Money_Unit`, `money unit`, `moneyUnit` are `money_unit`) or by a known alias (`amount` is
 * `money`), and a required column that is missing or misspelt named before any row is computed.
 */

/** A problem with the header that stops the run (a usage error naming the column). */
export class HeaderError extends Error {
  override readonly name = 'HeaderError';
}

/**
 * A column name in the form names are compared in: lower case, words joined by `_` (case changes, spaces, `-`, `.`
 * and `/` separate words).
 *
 * @example
 * ```ts
 * normaliseColumn('Money Unit'); // 'money_unit'
 * normaliseColumn('classificationCode'); // 'classification_code'
 * ```
 */
export function normaliseColumn(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s\-_./]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export interface HeaderReading {
  /** Header name → the name the adapter reads, for the names that differ. */
  rename: Record<string, string>;
  /** What the end report says about the header: names read another way, near misses passing through. */
  notes: string[];
}

/** The header name nearest to `wanted` among `candidates`, when it is near enough to be a misspelling. */
function nearest(wanted: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(wanted, normaliseColumn(candidate));
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(wanted.length / 4)) ? best : undefined;
}

/** Shortens a header name for a message (a header cell may be long). */
const shown = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * Matches `header` to the adapter's columns.
 *
 * @throws {@link HeaderError} when a required column is missing (naming it and the header's nearest name), or when two
 *   header names stand for the same column.
 *
 * @example
 * ```ts
 * checkHeader(['Invoice', 'Classification_Type', 'classification_code', 'year', 'country', 'Amount', 'Currency'], spendColumns);
 * // { rename: { Classification_Type: 'classification_type', year: 'spend_year', … }, notes: [ … ] }
 * ```
 */
export function checkHeader(header: readonly string[], spec: ColumnSpec): HeaderReading {
  const known = new Map(spec.known.map((name) => [normaliseColumn(name), name]));
  const normalised = header.map(normaliseColumn);
  const byColumn = new Map<string, string>(); // adapter column → header name
  const rename: Record<string, string> = {};
  const renamed: string[] = [];
  const aliased: string[] = [];
  // Exact and normalised names first, so an alias never takes a column the header also names outright.
  header.forEach((name, index) => {
    const column = known.get(normalised[index] as string);
    if (column === undefined) return;
    const earlier = byColumn.get(column);
    if (earlier !== undefined)
      throw new HeaderError(
        `the header names the column '${column}' twice ('${shown(earlier)}' and '${shown(name)}')`,
      );
    byColumn.set(column, name);
    if (name !== column) {
      rename[name] = column;
      renamed.push(`'${shown(name)}' as ${column}`);
    }
  });
  header.forEach((name, index) => {
    const alias = spec.aliases[normalised[index] as string];
    if (alias === undefined || !Object.hasOwn(spec.aliases, normalised[index] as string)) return;
    if (byColumn.has(alias)) return; // the column is there under its own name; the alias passes through
    byColumn.set(alias, name);
    rename[name] = alias;
    aliased.push(`'${shown(name)}' as ${alias}`);
  });
  const used = new Set(byColumn.values());
  const unmatched = header.filter((name) => !used.has(name));
  const missing: string[] = [];
  for (const alternatives of spec.required) {
    if (alternatives.some((group) => group.every((column) => byColumn.has(column)))) continue;
    // Name what is missing from the group the header comes closest to (classification_type and _code, or activity_id).
    const closest = [...alternatives].sort(
      (a, b) => a.filter((c) => !byColumn.has(c)).length - b.filter((c) => !byColumn.has(c)).length,
    )[0] as readonly string[];
    for (const column of closest) if (!byColumn.has(column)) missing.push(column);
  }
  if (missing.length > 0) {
    const parts = missing.slice(0, 3).map((column) => {
      const near = nearest(column, unmatched);
      return near === undefined ? `'${column}'` : `'${column}' (did you mean '${shown(near)}'?)`;
    });
    const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
    throw new HeaderError(
      `the header has no ${missing.length === 1 ? 'column' : 'columns'} ${parts.join(', ')}${more}`,
    );
  }
  const notes: string[] = [];
  if (renamed.length > 0) notes.push(`columns read as: ${renamed.join(', ')}`);
  if (aliased.length > 0) notes.push(`columns read by alias: ${aliased.join(', ')}`);
  const nearMisses = unmatched.flatMap((name) => {
    const near = nearest(
      normaliseColumn(name),
      spec.known.filter((column) => !byColumn.has(column)),
    );
    return near === undefined ? [] : [`'${shown(name)}' (did you mean ${near}?)`];
  });
  if (nearMisses.length > 0) notes.push(`columns passed through unread: ${nearMisses.join(', ')}`);
  return { rename, notes };
}
