/**
 * The bench's check that the float reference computes what the engine computes: every result deep-equal, numbers
 * within a relative 1e-12 (the reference rounds in binary at each step; the engine is exact), everything else
 * (strings, nulls, array lengths, key sets) identical, except the wording of spend notices (`notices[].message`),
 * where only their codes, severities and order are compared. An engine error body must meet a reference error of
 * the same code.
 */

export const TOLERANCE = 1e-12;

export interface Mismatch {
  index: number;
  path: string;
  engine: unknown;
  reference: unknown;
}

const isErrorLike = (value: unknown): value is { error_code: string } =>
  typeof value === 'object' && value !== null && 'error_code' in value;

/** The first difference between two values, as a path, or undefined when they agree. */
export function difference(engine: unknown, reference: unknown, path = ''): string | undefined {
  // Notice texts are written per request by both sides but worded differently; their codes, severities and order
  // are compared.
  if (path.endsWith('.message') && path.includes('.notices.')) return undefined;
  if (typeof engine === 'number' && typeof reference === 'number') {
    if (engine === reference) return undefined;
    const scale = Math.max(Math.abs(engine), Math.abs(reference));
    return Math.abs(engine - reference) <= TOLERANCE * scale ? undefined : path || '(value)';
  }
  if (typeof engine !== 'object' || engine === null || typeof reference !== 'object' || reference === null) {
    return Object.is(engine, reference) ? undefined : path || '(value)';
  }
  if (Array.isArray(engine) !== Array.isArray(reference)) return path || '(value)';
  const engineKeys = Object.keys(engine);
  const referenceKeys = Object.keys(reference);
  if (engineKeys.length !== referenceKeys.length) return `${path}{keys: ${engineKeys} vs ${referenceKeys}}`;
  for (const key of engineKeys) {
    if (!Object.hasOwn(reference, key)) return `${path}.${key} (missing in the reference)`;
    const found = difference(
      (engine as Record<string, unknown>)[key],
      (reference as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Compares two batches' results element by element; returns the count of mismatches and the first few. */
export function compareBatches(
  engine: readonly unknown[],
  reference: readonly unknown[],
  keep = 5,
): { compared: number; errors: number; mismatches: number; first: Mismatch[] } {
  const first: Mismatch[] = [];
  let mismatches = 0;
  let errors = 0;
  const at = (value: unknown, path: string) =>
    path
      .split('.')
      .filter(Boolean)
      .reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], value);
  for (let index = 0; index < Math.max(engine.length, reference.length); index++) {
    const e = engine[index];
    const r = reference[index];
    let path: string | undefined;
    const engineError = isErrorLike(e) || (typeof e === 'object' && e !== null && 'error' in e);
    if (engineError || isErrorLike(r)) {
      errors++;
      const code = (e as { error_code?: string } | undefined)?.error_code;
      path = engineError && isErrorLike(r) && code === r.error_code ? undefined : '.error_code';
    } else path = difference(e, r);
    if (path === undefined) continue;
    mismatches++;
    if (first.length < keep) first.push({ index, path, engine: at(e, path), reference: at(r, path) });
  }
  return { compared: Math.max(engine.length, reference.length), errors, mismatches, first };
}
