import { type DataUnit, type DurationUnit, parseDataUnit, parseDurationUnit } from './units';
import { MAX_QUANTITY } from './validate';

/**
 * Plain-request readers (issue 40 item 2): a request whose every field is plainly valid is read by hand into the
 * very object its zod schema would give, without the parser's intermediate objects; anything else, an unknown field,
 * an explicit `undefined`, a value at an edge, is left to the schema (the reader returns undefined), so every error
 * and every unusual case is zod's as before. The readers are conservative on purpose: declining costs only speed.
 * tests/cloud/plain-requests.test.ts checks each reader against its schema on random requests.
 */

/**
 * Thrown by the field readers below where a value is not plainly valid, and caught by {@link plainReader}, whose
 * reader then declines: one object made once, so declining makes no stack trace.
 */
const NOT_PLAIN = new Error('not a plain request');

/** Declines the request: the field's value is not plainly valid. */
function notPlain(): never {
  throw NOT_PLAIN;
}

/**
 * A schema's field names, grouped by length: a key is looked for among the few names of its length, each compared by
 * identity first (keys of object literals and of `JSON.parse` are internalised strings), which costs less than a
 * hashed set's lookup for the handful of keys a request has.
 */
export interface FieldNames {
  /** Whether `key` is one of the names. */
  has(key: string): boolean;
}

/**
 * The {@link FieldNames} of `names`.
 *
 * @example
 * ```ts
 * fieldNamesOf(['region', 'year']).has('year'); // true
 * ```
 */
export function fieldNamesOf(names: Iterable<string>): FieldNames {
  const byLength: string[][] = [];
  for (const name of names) (byLength[name.length] ??= []).push(name);
  return {
    has(key) {
      const candidates = byLength[key.length];
      if (candidates === undefined) return false;
      for (let index = 0; index < candidates.length; index++) if (candidates[index] === key) return true;
      return false;
    },
  };
}

/**
 * Whether `request` is a JSON object whose own and inherited enumerable keys are all in `keys`, as a strict object
 * schema requires, none of them set to `undefined` (where the schema keeps such a key, the reader would not).
 *
 * @example
 * ```ts
 * plainObject({ region: 'us_east_1' }, fieldNamesOf(['region', 'year'])); // true
 * ```
 */
export function plainObject(request: unknown, keys: FieldNames): request is Record<string, unknown> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return false;
  for (const key in request) {
    if (!keys.has(key) || (request as Record<string, unknown>)[key] === undefined) return false;
  }
  return true;
}

/**
 * A plain reader for a cloud request schema with the field names `fields`: `read` builds the schema's output from
 * the request, its `year` (undefined where absent, and then not a key of the output, as in the schema's) and
 * `audit_trail`, with the field readers below, which throw where a value is not plain. The reader gives undefined
 * for a request that is not plain, which its schema then parses.
 *
 * @example
 * ```ts
 * const readNetworkingRequest = plainReader(fieldNames(NetworkingRequest), (request, year, audit_trail) => {
 *   const [region, data, data_unit] = [plainText(request.region), plainQuantity(request.data), plainDataUnit(request.data_unit)];
 *   return year === undefined ? { region, data, data_unit, audit_trail } : { region, data, data_unit, year, audit_trail };
 * });
 * ```
 */
export function plainReader<T>(
  fields: FieldNames,
  read: (request: Record<string, unknown>, year: number | undefined, auditTrail: 'enabled' | 'disabled') => T,
): (request: unknown) => T | undefined {
  return (request) => {
    if (!plainObject(request, fields)) return undefined;
    try {
      return read(request, plainYear(request.year), plainAuditTrail(request.audit_trail));
    } catch (error) {
      if (error === NOT_PLAIN) return undefined;
      throw error;
    }
  };
}

/** A finite number from 0 to {@link MAX_QUANTITY} (`quantity()`). NaN and ±Infinity fail both comparisons. */
export const plainQuantity = (value: unknown): number =>
  typeof value === 'number' && value >= 0 && value <= MAX_QUANTITY ? value : notPlain();

/** A whole number from 0 to {@link MAX_QUANTITY} (`count()`). */
export const plainCount = (value: unknown): number =>
  typeof value === 'number' && value >= 0 && value <= MAX_QUANTITY && Number.isInteger(value)
    ? value
    : notPlain();

/**
 * A string of 2 to 200 UTF-16 units (`nonEmptyString()`); a one-unit string goes to the schema, which counts
 * lengths its own way at that edge.
 */
export const plainText = (value: unknown): string =>
  typeof value === 'string' && value.length >= 2 && value.length <= 200 ? value : notPlain();

/** An absent year, or a whole number from 1900 to 2200 (`year()`). */
export const plainYear = (value: unknown): number | undefined =>
  value === undefined ||
  (typeof value === 'number' && Number.isInteger(value) && value >= 1900 && value <= 2200)
    ? value
    : notPlain();

/** `average_vcpu_utilization`: 0 to 1, 0.5 when absent; `+ 0` as the schema's (−0 reads as 0). */
export const plainUtilization = (value: unknown): number =>
  value === undefined ? 0.5 : typeof value === 'number' && value >= 0 && value <= 1 ? value + 0 : notPlain();

/** `duration_unit`: a spelling of a duration unit, canonicalised; `hour` when absent. */
export const plainDurationUnit = (value: unknown): DurationUnit =>
  value === undefined
    ? 'hour'
    : ((typeof value === 'string' ? parseDurationUnit(value) : undefined) ?? notPlain());

/** `data_unit`: a spelling of a data unit, canonicalised; `GB` when absent. */
export const plainDataUnit = (value: unknown): DataUnit =>
  value === undefined ? 'GB' : ((typeof value === 'string' ? parseDataUnit(value) : undefined) ?? notPlain());

/** `audit_trail`: `enabled` (also when absent) or `disabled`. */
export const plainAuditTrail = (value: unknown): 'enabled' | 'disabled' =>
  value === undefined ? 'enabled' : value === 'enabled' || value === 'disabled' ? value : notPlain();

/** An absent replication factor, or a number above 0 up to {@link MAX_QUANTITY} (`replicationFactor()`). */
export const plainReplication = (value: unknown): number | undefined =>
  value === undefined || (typeof value === 'number' && value > 0 && value <= MAX_QUANTITY)
    ? value
    : notPlain();

/** `storage_type`: ssd or hdd in any case, lowercased. */
export const plainStorageType = (value: unknown): 'ssd' | 'hdd' => {
  const type = typeof value === 'string' ? value.toLowerCase() : undefined;
  return type === 'ssd' || type === 'hdd' ? type : notPlain();
};
