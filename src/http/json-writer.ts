import { isErrorBody } from '../core/batch';
import { pythonListRepr } from './python-repr';

/**
 * The one JSON writer of the HTTP answers: exactly `JSON.stringify`'s text. For the per-resource cloud routes it
 * also applies their quirk (`data_quality_flags` as the list's Python text, SPEC.md) as the factor is written, with
 * no copy of the estimate per element; and since a result's factor metadata (`emission_factor`,
 * `constituent_gases`) is one frozen object per factor, shared by every result of that factor, its text is worked
 * out once and reused, so a batch of 100 writes the few fields that differ per result.
 */

/** Text of deeply frozen objects: they cannot change, so their text cannot either. */
const frozenText = new WeakMap<object, string>();
/** Wire text of deeply frozen factors (flags as the list's Python text). */
const wireFactorText = new WeakMap<object, string>();
/** `"name":` per property name seen. */
const keyText = new Map<string, string>();

function propertyName(name: string): string {
  let text = keyText.get(name);
  if (text === undefined) {
    text = `${JSON.stringify(name)}:`;
    if (keyText.size < 10_000) keyText.set(name, text); // property names are the schema's: few
  }
  return text;
}

function isDeepFrozen(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const inner of Object.values(value) as unknown[])
    if (typeof inner === 'object' && inner !== null && !isDeepFrozen(inner)) return false;
  return true;
}

const isPlain = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/** A value's JSON text, or undefined where `JSON.stringify` leaves it out (undefined, functions, symbols). */
function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : objectText(value);
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does
    default:
      return undefined;
  }
}

function objectText(value: object): string {
  if (Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(value);
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const known = frozenText.get(value);
    if (known !== undefined) return known;
  }
  const text = freshObjectText(value);
  if (frozen && isDeepFrozen(value)) frozenText.set(value, text);
  return text;
}

function freshObjectText(value: object): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++)
      text += (index === 0 ? '' : ',') + (valueText(value[index]) ?? 'null');
    return `${text}]`;
  }
  // Anything but a plain object (a Date, a Map, anything with toJSON) is left to JSON.stringify itself.
  if (!isPlain(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(value);
  return propertiesText(value as Record<string, unknown>);
}

function propertiesText(value: Record<string, unknown>): string {
  let text = '{';
  let first = true;
  for (const name of Object.keys(value)) {
    const inner = valueText(value[name]);
    if (inner === undefined) continue;
    text += (first ? '' : ',') + propertyName(name) + inner;
    first = false;
  }
  return `${text}}`;
}

/** A factor as the per-resource routes send it: `data_quality_flags` as the list's Python text. */
function wireFactor(factor: object): string {
  const known = wireFactorText.get(factor);
  if (known !== undefined) return known;
  const flags = (factor as { data_quality_flags: readonly string[] }).data_quality_flags;
  const text = propertiesText({ ...factor, data_quality_flags: pythonListRepr(flags) });
  if (isDeepFrozen(factor)) wireFactorText.set(factor, text);
  return text;
}

/** An estimate as the per-resource routes send it: `JSON.stringify(toWireEstimate(estimate))`, without the copy. */
function wireEstimateText(estimate: Record<string, unknown>): string {
  let text = '{';
  let first = true;
  for (const name of Object.keys(estimate)) {
    const value = estimate[name];
    const inner =
      name === 'emission_factor' && typeof value === 'object' && value !== null
        ? wireFactor(value)
        : valueText(value);
    if (inner === undefined) continue;
    text += (first ? '' : ',') + propertyName(name) + inner;
    first = false;
  }
  return `${text}}`;
}

/**
 * One answer's JSON text, exactly `JSON.stringify(value)` (with `wire`: `JSON.stringify(toWireEstimate(value))`
 * for an estimate, an error body unchanged).
 *
 * @example
 * ```ts
 * jsonText(calculateCpu('aws', request, defaultDatasets), { wire: true }); // flags as "['…']"
 * ```
 */
export function jsonText(value: unknown, options: { wire: boolean }): string {
  if (options.wire && typeof value === 'object' && value !== null && isPlain(value) && !isErrorBody(value))
    return wireEstimateText(value as Record<string, unknown>);
  // Without the wire form, V8's own JSON.stringify is the fastest writer of a whole result (instance answers nest
  // fresh estimates, where reusing the factors' text saves less than walking the rest in JavaScript costs).
  return JSON.stringify(value) ?? 'null';
}

/**
 * Most characters in one slice (plus one element): a slice is flattened and encoded in one piece when it is
 * written, so a small one keeps that step short.
 */
const SLICE_CHARACTERS = 1 << 18;

/** What {@link batchText} writes: the answer's text in slices, or `over` once it passed `maxLength` characters. */
export type BatchText = { slices: string[]; over?: undefined } | { slices?: undefined; over: true };

/**
 * A batch answer's JSON text in slices: their concatenation is exactly `JSON.stringify(results)` (each element as
 * {@link jsonText} writes it), inside `prefix` and `suffix` (the v1 envelope `{"results":` … `}`). `pause` is
 * called after each element and, when it returns a promise, awaited before the next, letting other requests in
 * while a large answer is written; a slice ends there, or past 262,144 characters. Writing stops as soon as the text passes `maxLength` characters.
 *
 * @example
 * ```ts
 * const { slices } = await batchText(results, { wire: true, maxLength: 1e6 }, () => undefined);
 * slices?.join("") === JSON.stringify(results.map(toWireEstimate)); // true (estimates only)
 * ```
 */
export async function batchText(
  results: readonly unknown[],
  options: { wire: boolean; maxLength: number; prefix?: string; suffix?: string },
  pause: () => Promise<void> | undefined,
): Promise<BatchText> {
  const slices: string[] = [];
  const suffix = `]${options.suffix ?? ''}`;
  let text = `${options.prefix ?? ''}[`;
  let length = text.length + suffix.length;
  for (let index = 0; index < results.length; index++) {
    const element = (index === 0 ? '' : ',') + jsonText(results[index], options);
    length += element.length;
    if (length > options.maxLength) return { over: true };
    text += element;
    const waiting = pause();
    if (waiting !== undefined || text.length >= SLICE_CHARACTERS) {
      slices.push(text);
      text = '';
    }
    if (waiting !== undefined) await waiting;
  }
  slices.push(text + suffix);
  return { slices };
}
