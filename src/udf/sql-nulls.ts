/**
 * Warehouses build a request from columns, and a NULL column arrives as `null` (BigQuery's `TO_JSON`, DuckDB's
 * `json_object`). As in the CLI's JSON Lines input, `null` means "not supplied": those fields are dropped, at the
 * top level and one level down (the spend `activity` object). Anything that is not an object is left for the
 * calculator to reject.
 *
 * @example
 * ```ts
 * withoutNulls({ money: 10, tax_margin: null }); // { money: 10 }
 * ```
 */
export function withoutNulls(request: unknown): unknown {
  if (!isPlainRecord(request)) return request;
  return Object.fromEntries(
    Object.entries(request)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, isPlainRecord(value) ? dropNullFields(value) : value]),
  );
}

// Object.fromEntries makes each key the copy's own: `copy[key] = value` with a `__proto__` key would set the
// copy's prototype instead, and the calculator would read that object's fields as the request's.
const dropNullFields = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
