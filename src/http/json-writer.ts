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
 * Characters of a large answer's text encoded to bytes at a time: each piece is encoded as soon as it is written,
 * so the text (and the results it was written from) die young, in the collector's cheap generation, instead of
 * 27 MB of strings outliving the answer's whole computation.
 */
const PIECE_CHARACTERS = 1 << 18;

const utf8 = new TextEncoder();

/**
 * What {@link batchText} writes: the answer's text (`body`: one string, or, for an answer longer than 262,144
 * characters, its UTF-8 bytes in pieces), or `over` once the text passed `maxLength` characters.
 */
export type BatchText =
  { body: string | Uint8Array<ArrayBuffer>[]; over?: undefined } | { body?: undefined; over: true };

/**
 * A batch answer's JSON text from its results, a few at a time as they are computed: exactly
 * `JSON.stringify(results)` (each element as {@link jsonText} writes it), inside `prefix` and `suffix` (the v1
 * envelope `{"results":` … `}`). A long answer is encoded to UTF-8 a piece at a time as it is written; writing
 * stops as soon as the text passes `maxLength` characters, so a refused answer is never held whole.
 *
 * @example
 * ```ts
 * const { body } = await batchText([results], { wire: true, maxLength: 1e6 });
 * body === JSON.stringify(results.map(toWireEstimate)); // true (estimates only; a short answer is one string)
 * ```
 */
export async function batchText(
  results: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  options: { wire: boolean; maxLength: number; prefix?: string; suffix?: string },
): Promise<BatchText> {
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  const suffix = `]${options.suffix ?? ''}`;
  let text = `${options.prefix ?? ''}[`;
  let length = text.length + suffix.length;
  let first = true;
  for await (const slice of results) {
    for (const result of slice) {
      const element = (first ? '' : ',') + jsonText(result, options);
      first = false;
      length += element.length;
      if (length > options.maxLength) return { over: true };
      text += element;
    }
    if (text.length >= PIECE_CHARACTERS) {
      pieces.push(utf8.encode(text));
      text = '';
    }
  }
  if (pieces.length === 0) return { body: text + suffix };
  pieces.push(utf8.encode(text + suffix));
  return { body: pieces };
}
