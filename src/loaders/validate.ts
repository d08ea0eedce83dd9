import type * as z from 'zod/mini';
import type { FilePosition } from '../datasets/errors';
import { DatasetError } from '../datasets/errors';
import { safeParseTable } from '../datasets/tables';
import type { Problems } from './problems';
import { META_SCHEMAS, TABLE_SCHEMAS, type TableKind, type TableMeta, type TableOf } from './table-kinds';

/** Plainer words for the schemas' code patterns. */
const PATTERN_HINTS: Readonly<Record<string, string>> = {
  '/^[A-Z]{2}$/': 'two capital letters (an ISO 3166-1 alpha-2 or EXIOBASE region code, e.g. DE)',
  '/^[a-z]{3}$/': 'three lowercase letters (an ISO 4217 currency code, e.g. eur)',
  '/^\\d{4}$/': 'a four-digit year',
};

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_format' && 'pattern' in issue && typeof issue.pattern === 'string') {
    const hint = PATTERN_HINTS[issue.pattern];
    if (hint !== undefined) return `must be ${hint}`;
  }
  if (issue.code === 'invalid_key') {
    const nested = issue.issues.map((inner) => issueMessage(inner)).join('; ');
    return `${JSON.stringify(String(issue.path[issue.path.length - 1]))} is not a valid key: ${nested}`;
  }
  return issue.message;
}

/** What is wrong, with the field's name and the value found: `kgco2e: Too small: expected number to be >=0 (got -1)`. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  position: FilePosition | undefined,
): string {
  const field =
    position?.columnName ?? (issue.path.length === 0 ? 'table' : issue.path.map(String).join('.'));
  const value = issue.code === 'invalid_key' ? undefined : valueAt(input, issue.path);
  const got =
    value === undefined || (typeof value === 'object' && value !== null)
      ? ''
      : ` (got ${JSON.stringify(value)})`;
  return `${field}: ${issueMessage(issue)}${got}`;
}

/**
 * Validates a candidate table against its kind's schema, recording every issue at the position `locate` maps
 * its path to. Returns the parsed table, or undefined when there were issues.
 */
export function validateTable<K extends TableKind>(
  kind: K,
  candidate: unknown,
  problems: Problems,
  locate: (path: readonly PropertyKey[]) => FilePosition,
): TableOf<K> | undefined {
  const result = safeParseTable(TABLE_SCHEMAS[kind] as unknown as z.ZodMiniType<TableOf<K>>, candidate);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const position = locate(issue.path);
    problems.add(position, describeIssue(issue, candidate, position));
  }
  return undefined;
}

/**
 * Validates a table built from a file ({@link validateTable}) and gives it, once neither validation nor anything
 * before it found a problem.
 *
 * @example
 * ```ts
 * const margins = checkedTable('margins', { dataset, margins: rows }, problems, () => ({ line: 1 }));
 * ```
 * @throws {@link DatasetError} for the file's first problem in file order.
 */
export function checkedTable<K extends TableKind>(
  kind: K,
  candidate: unknown,
  problems: Problems,
  locate: (path: readonly PropertyKey[]) => FilePosition,
): TableOf<K> {
  const table = validateTable(kind, candidate, problems, locate);
  problems.throwIfAny();
  // validateTable gives no table only with a problem recorded, which throwIfAny has thrown.
  if (table === undefined) throw new Error(`checkedTable: ${kind} invalid without a problem recorded`);
  return table;
}

/**
 * `options`, checked to be an object: a loader's required options argument left out (or `null`) fails saying what to
 * give (`give`), where reading its first field would throw a TypeError.
 *
 * @example
 * ```ts
 * requireOptions(undefined, 'fx.csv', '{ meta } with the table-wide fields (dataset, …)');
 * // throws DatasetError: fx.csv: the options argument is missing: give { meta } with the table-wide fields (dataset, …)
 * ```
 * @throws {@link DatasetError} naming `file`, when `options` is not an object.
 */
export function requireOptions<T>(options: T | undefined | null, file: string, give: string): T {
  if (typeof options !== 'object' || options === null)
    throw new DatasetError(file, '', `the options argument is missing: give ${give}`);
  return options;
}

/**
 * Validates the table-wide fields of a kind (see `META_SCHEMAS`).
 *
 * @throws {@link DatasetError} naming `label`, the path of the first issue and what is wrong.
 */
export function parseMeta<K extends TableKind>(kind: K, meta: unknown, label: string): TableMeta<K> {
  const result = safeParseTable(META_SCHEMAS[kind], meta);
  if (result.success) return result.data as TableMeta<K>;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  throw new DatasetError(label, issue.path.map(String).join('.'), describeIssue(issue, meta, undefined));
}
