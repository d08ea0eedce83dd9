import { type DataUnit, type DurationUnit, parseDataUnit, parseDurationUnit } from './units';
import { MAX_QUANTITY } from './validate';

/**
 * Plain-request readers (issue 40 item 2): a request whose every field is plainly valid is read by hand into the
 * very object its zod schema would give, without the parser's intermediate objects; anything else, an unknown field,
 * an explicit `undefined`, a value at an edge, is left to the schema (the reader returns undefined), so every error
 * and every unusual case is zod's as before. The readers are conservative on purpose: declining costs only speed.
 * tests/cloud/plain-requests.test.ts checks each reader against its schema on random requests.
 */

/** A value a reader could not read plainly: the request then goes to its schema. */
export const NOT_PLAIN = Symbol('not plain');
export type Plain<T> = T | typeof NOT_PLAIN;

/**
 * Whether `request` is a JSON object whose own and inherited enumerable keys are all in `keys`, as a strict object
 * schema requires, none of them set to `undefined` (where the schema keeps such a key, the reader would not).
 *
 * @example
 * ```ts
 * plainObject({ region: 'us_east_1' }, new Set(['region', 'year'])); // true
 * ```
 */
export function plainObject(request: unknown, keys: ReadonlySet<string>): request is Record<string, unknown> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return false;
  for (const key in request) {
    if (!keys.has(key) || (request as Record<string, unknown>)[key] === undefined) return false;
  }
  return true;
}

/** A finite number from 0 to {@link MAX_QUANTITY} (`quantity()`). NaN and ±Infinity fail both comparisons. */
export const plainQuantity = (value: unknown): Plain<number> =>
  typeof value === 'number' && value >= 0 && value <= MAX_QUANTITY ? value : NOT_PLAIN;

/** A whole number from 0 to {@link MAX_QUANTITY} (`count()`). */
export const plainCount = (value: unknown): Plain<number> =>
  typeof value === 'number' && value >= 0 && value <= MAX_QUANTITY && Number.isInteger(value)
    ? value
    : NOT_PLAIN;

/**
 * A string of 2 to 200 UTF-16 units (`nonEmptyString()`); a one-unit string goes to the schema, which counts
 * lengths its own way at that edge.
 */
export const plainText = (value: unknown): Plain<string> =>
  typeof value === 'string' && value.length >= 2 && value.length <= 200 ? value : NOT_PLAIN;

/** An absent year, or a whole number from 1900 to 2200 (`year()`). */
export const plainYear = (value: unknown): Plain<number | undefined> =>
  value === undefined ||
  (typeof value === 'number' && Number.isInteger(value) && value >= 1900 && value <= 2200)
    ? value
    : NOT_PLAIN;

/** `average_vcpu_utilization`: 0 to 1, 0.5 when absent; `+ 0` as the schema's (−0 reads as 0). */
export const plainUtilization = (value: unknown): Plain<number> =>
  value === undefined ? 0.5 : typeof value === 'number' && value >= 0 && value <= 1 ? value + 0 : NOT_PLAIN;

/** `duration_unit`: a spelling of a duration unit, canonicalised; `hour` when absent. */
export const plainDurationUnit = (value: unknown): Plain<DurationUnit> =>
  value === undefined
    ? 'hour'
    : typeof value === 'string'
      ? (parseDurationUnit(value) ?? NOT_PLAIN)
      : NOT_PLAIN;

/** `data_unit`: a spelling of a data unit, canonicalised; `GB` when absent. */
export const plainDataUnit = (value: unknown): Plain<DataUnit> =>
  value === undefined ? 'GB' : typeof value === 'string' ? (parseDataUnit(value) ?? NOT_PLAIN) : NOT_PLAIN;

/** `audit_trail`: `enabled` (also when absent) or `disabled`. */
export const plainAuditTrail = (value: unknown): Plain<'enabled' | 'disabled'> =>
  value === undefined ? 'enabled' : value === 'enabled' || value === 'disabled' ? value : NOT_PLAIN;

/** An absent replication factor, or a number above 0 up to {@link MAX_QUANTITY} (`replicationFactor()`). */
export const plainReplication = (value: unknown): Plain<number | undefined> =>
  value === undefined || (typeof value === 'number' && value > 0 && value <= MAX_QUANTITY)
    ? value
    : NOT_PLAIN;
