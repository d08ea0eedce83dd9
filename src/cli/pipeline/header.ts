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

/** How messages name the names checked: a CSV header's columns, or a JSON Lines record's keys. */
export interface HeaderWords {
  /** What holds the names (`the header`, `the first record`). */
  subject: string;
  /** One name's kind (`column`, `key`); plural with an `s`. */
  noun: string;
}

/** A CSV header's (or a Parquet file's) columns. */
export const HEADER_WORDS: HeaderWords = { subject: 'the header', noun: 'column' };
/** The keys of a JSON Lines input's first object, checked before any row as a header is. */
export const FIRST_RECORD_WORDS: HeaderWords = { subject: 'the first record', noun: 'key' };
/** The keys of a later JSON Lines record whose keys differ from the first's. */
const RECORD_WORDS: HeaderWords = { subject: 'the record', noun: 'key' };

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
export function checkHeader(
  header: readonly string[],
  spec: ColumnSpec,
  { subject, noun }: HeaderWords = HEADER_WORDS,
): HeaderReading {
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
        `${subject} names the ${noun} '${column}' twice ('${shown(earlier)}' and '${shown(name)}')`,
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
      `${subject} has no ${missing.length === 1 ? noun : `${noun}s`} ${parts.join(', ')}${more}`,
    );
  }
  const notes: string[] = [];
  if (renamed.length > 0) notes.push(`${noun}s read as: ${renamed.join(', ')}`);
  if (aliased.length > 0) notes.push(`${noun}s read by alias: ${aliased.join(', ')}`);
  const nearMisses = unmatched.flatMap((name) => {
    const near = nearest(
      normaliseColumn(name),
      spec.known.filter((column) => !byColumn.has(column)),
    );
    return near === undefined ? [] : [`'${shown(name)}' (did you mean ${near}?)`];
  });
  if (nearMisses.length > 0) notes.push(`${noun}s passed through unread: ${nearMisses.join(', ')}`);
  return { rename, notes };
}

/**
 * The names a JSON Lines record gives for the check: its keys, and the keys of its objects that hold columns
 * ({@link ColumnSpec.objects}: spend's nested `activity`).
 *
 * @example
 * ```ts
 * recordKeys({ activity: { classification_type: 'isic4' }, money: 1 }, SPEND_COLUMNS); // ['activity', 'money', 'classification_type']
 * ```
 */
export function recordKeys(values: Readonly<Record<string, unknown>>, spec: ColumnSpec): string[] {
  const keys = Object.keys(values);
  for (const name of spec.objects ?? []) {
    const inner = Object.hasOwn(values, name) ? values[name] : undefined;
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) continue;
    // A key both inside and beside the object is the calculator's to refuse ("either 'activity' or …").
    for (const key of Object.keys(inner)) if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** A record's keys read: the names to read differently, or why the record cannot be read (a required key missing). */
export type KeyReading = { rename: Readonly<Record<string, string>> | undefined } | { error: string };

/** Key sets a {@link keyReader} remembers: far more than a file's shapes of record; cleared when full. */
const MAX_KEY_SETS = 1_000;

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((key, index) => key === b[index]);

/**
 * Reads each JSON Lines record's keys as the first record's were (`first`, with its `rename`), and a record with
 * other keys by its own: checked as a header is, once per set of keys. A required key missing or misspelt fails that
 * record alone, naming the key and the nearest one.
 *
 * @example
 * ```ts
 * const read = keyReader(SPEND_COLUMNS, ['Amount', …], { Amount: 'money' });
 * read({ mony: 12, … }); // { error: "the record has no key 'money' (did you mean 'mony'?)" }
 * ```
 */
export function keyReader(
  spec: ColumnSpec,
  first: readonly string[],
  rename: Readonly<Record<string, string>> | undefined,
): (values: Readonly<Record<string, unknown>>) => KeyReading {
  const asFirst: KeyReading = { rename };
  const known = new Map<string, KeyReading>();
  return (values) => {
    const keys = recordKeys(values, spec);
    if (sameKeys(keys, first)) return asFirst;
    const signature = keys.join('\u0000');
    let reading = known.get(signature);
    if (reading === undefined) {
      try {
        const own = checkHeader(keys, spec, RECORD_WORDS).rename;
        reading = { rename: Object.keys(own).length > 0 ? own : undefined };
      } catch (error) {
        if (!(error instanceof HeaderError)) throw error;
        reading = { error: error.message };
      }
      if (known.size >= MAX_KEY_SETS) known.clear();
      known.set(signature, reading);
    }
    return reading;
  };
}
