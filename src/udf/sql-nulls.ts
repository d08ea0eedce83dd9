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
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (value === null) continue;
    copy[key] = isPlainRecord(value) ? dropNullFields(value) : value;
  }
  return copy;
}

function dropNullFields(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== null) copy[key] = value;
  return copy;
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
