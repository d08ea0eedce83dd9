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

/**
 * Texts worked out once and reused, at most this many in all (the names and values are the schema's and the
 * data's: few; a client's own strings, echoed in an answer, could be many). Reusing whole members also keeps an
 * answer's text made of few pieces: turning a string built of thousands of small pieces into bytes cost more than
 * writing it.
 */
const CACHE_ENTRIES = 10_000;
let cachedEntries = 0;
/** Strings up to this many characters have their JSON text (and their member text) reused. */
const SHORT_STRING = 64;

/** `,"name":` per property name seen. */
const keyText = new Map<string, string>();
/** `,"name":"value"` per property name and short string value seen. */
const stringMemberText = new Map<string, Map<string, string>>();

const remember = <K, V>(cache: Map<K, V>, key: K, value: V): V => {
  if (cachedEntries < CACHE_ENTRIES) {
    cache.set(key, value);
    cachedEntries++;
  }
  return value;
};

/** `,"name":` (the comma is dropped for an object's first member). */
function commaKey(name: string): string {
  return keyText.get(name) ?? remember(keyText, name, `,${JSON.stringify(name)}:`);
}

/** `,"name":"value"`. */
function stringMember(name: string, value: string): string {
  if (value.length > SHORT_STRING) return commaKey(name) + JSON.stringify(value);
  let byValue = stringMemberText.get(name);
  if (byValue === undefined) byValue = remember(stringMemberText, name, new Map<string, string>());
  return byValue.get(value) ?? remember(byValue, value, commaKey(name) + JSON.stringify(value));
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

/** `,"name":value`, or undefined where `JSON.stringify` leaves the member out. */
function memberText(name: string, value: unknown): string | undefined {
  if (typeof value === 'string') return stringMember(name, value);
  const inner = valueText(value);
  return inner === undefined ? undefined : commaKey(name) + inner;
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

/** `{` and the members' text, each member given by `member` (its text with a leading comma), and `}`. */
function membersText(
  value: Record<string, unknown>,
  member: (name: string, value: unknown) => string | undefined,
): string {
  let text = '';
  for (const name of Object.keys(value)) {
    const inner = member(name, value[name]);
    if (inner === undefined) continue;
    // The first member drops its comma: a slice of a flat text is one piece, no copy.
    text = text === '' ? `{${inner.slice(1)}` : text + inner;
  }
  return text === '' ? '{}' : `${text}}`;
}

function propertiesText(value: Record<string, unknown>): string {
  return membersText(value, memberText);
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

/** An estimate's member as the per-resource routes send it: the factor's flags as the list's Python text. */
function wireMemberText(name: string, value: unknown): string | undefined {
  if (name === 'emission_factor' && typeof value === 'object' && value !== null)
    return commaKey(name) + wireFactor(value);
  return memberText(name, value);
}

/** An estimate as the per-resource routes send it: `JSON.stringify(toWireEstimate(estimate))`, without the copy. */
function wireEstimateText(estimate: Record<string, unknown>): string {
  return membersText(estimate, wireMemberText);
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
 * 27 MB of strings outliving the answer's whole computation. The byte writer cuts its pieces at the same size in
 * bytes.
 */
const PIECE_CHARACTERS = 1 << 18;

const utf8 = new TextEncoder();

/**
 * What {@link batchText} writes: the answer's text (`body`: one string, or its UTF-8 bytes in pieces), or `over`
 * once the text passed `maxLength` characters.
 */
export type BatchText =
  { body: string | Uint8Array<ArrayBuffer>[]; over?: undefined } | { body?: undefined; over: true };

/** Options of {@link batchText}. */
export interface BatchOptions {
  /** The per-resource routes' form: `data_quality_flags` as the list's Python text. */
  wire: boolean;
  /** Most characters the text may have. */
  maxLength: number;
  /** Text before and after the array (the v1 envelope). */
  prefix?: string | undefined;
  suffix?: string | undefined;
  /** Elements the batch has, if known: the bytes' buffer is sized for them once the first is written. */
  count?: number | undefined;
}

/**
 * A batch answer's JSON text from its results, a few at a time as they are computed: exactly
 * `JSON.stringify(results)` (each element as {@link jsonText} writes it), inside `prefix` and `suffix` (the v1
 * envelope `{"results":` … `}`). The wire form is written straight to UTF-8 bytes (one piece for an answer up to
 * 262,144 bytes); any other long answer is encoded a piece at a time as it is written. Writing stops as soon as
 * the text passes `maxLength` characters, so a refused answer is never held whole.
 *
 * @example
 * ```ts
 * const { body } = await batchText([results], { wire: true, maxLength: 1e6 });
 * Buffer.concat(body).toString() === JSON.stringify(results.map(toWireEstimate)); // true (estimates only)
 * ```
 */
export async function batchText(
  results: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  options: BatchOptions,
): Promise<BatchText> {
  if (options.wire) return batchBytes(results, options);
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

/*
 * The byte writer. A text built of a thousand small strings cost more to turn into bytes (node walks it to
 * measure it, then again to encode it) than to write: a batch of 100 cpu estimates spent more time there than in
 * the engine. The wire form of a batch is written as UTF-8 bytes instead: the reused texts (member names with
 * their short string values, frozen factors) are kept as bytes, and only numbers and fresh objects are written
 * per element.
 */

/** A text with its UTF-8 bytes and its length in characters (the answer's cap counts characters). */
interface Piece {
  readonly bytes: Uint8Array;
  readonly characters: number;
}

const pieceOf = (text: string): Piece => ({ bytes: utf8.encode(text), characters: text.length });

/** `,"name":` as bytes, per property name seen. */
const keyPieces = new Map<string, Piece>();
/** `,"name":"value"` as bytes, per property name and short string value seen. */
const stringMemberPieces = new Map<string, Map<string, Piece>>();
/** Deeply frozen objects' text, and factors' wire text, as bytes. */
const frozenPieces = new WeakMap<object, Piece>();
const wireFactorPieces = new WeakMap<object, Piece>();

function keyPiece(name: string): Piece {
  return keyPieces.get(name) ?? remember(keyPieces, name, pieceOf(commaKey(name)));
}

function stringMemberPiece(name: string, value: string): Piece {
  if (value.length > SHORT_STRING) return pieceOf(stringMember(name, value));
  let byValue = stringMemberPieces.get(name);
  if (byValue === undefined) byValue = remember(stringMemberPieces, name, new Map<string, Piece>());
  return byValue.get(value) ?? remember(byValue, value, pieceOf(stringMember(name, value)));
}

/** Bytes copied one by one rather than by `set`, whose call costs more than a short copy. */
const SHORT_COPY = 32;
/**
 * Bytes of an answer's first buffer: small, so that many small answers at once hold little. Once the first element
 * is written, the buffer is made room for all (see `count`), up to a piece and a margin; past that it doubles.
 */
const FIRST_CAPACITY = 1 << 12;
const MOST_RESERVED = PIECE_CHARACTERS + (1 << 16);

/**
 * Room for bytes about to be written over: in Node, not zeroed first (zeroing and growing the answer's buffer
 * took a fifth of the writer's time); elsewhere a plain array.
 */
const uninitialised: (length: number) => Uint8Array<ArrayBuffer> =
  (globalThis as { Buffer?: { allocUnsafeSlow(length: number): Uint8Array<ArrayBuffer> } }).Buffer
    ?.allocUnsafeSlow ?? ((length) => new Uint8Array(length));

/** An answer's UTF-8 bytes as they are written, and its length in characters. */
class ByteText {
  private buffer = uninitialised(FIRST_CAPACITY);
  offset = 0;
  characters = 0;

  private room(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const larger = uninitialised(Math.max(this.buffer.length * 2, this.offset + bytes));
    larger.set(this.buffer.subarray(0, this.offset));
    this.buffer = larger;
  }

  /** Makes room for this many bytes in all, at once. */
  reserve(bytes: number): void {
    this.room(bytes - this.offset);
  }

  /** One ASCII character by its code. */
  code(code: number): void {
    this.room(1);
    this.buffer[this.offset++] = code;
    this.characters++;
  }

  /** A reused piece, from its byte `from` on (1: without its leading comma). */
  piece(piece: Piece, from = 0): void {
    const { bytes } = piece;
    const length = bytes.length - from;
    this.room(length);
    const buffer = this.buffer;
    if (length <= SHORT_COPY) {
      let offset = this.offset;
      for (let index = from; index < bytes.length; index++) buffer[offset++] = bytes[index] as number;
    } else buffer.set(from === 0 ? bytes : bytes.subarray(from), this.offset);
    this.offset += length;
    this.characters += piece.characters - from;
  }

  /** Text known to be ASCII (a number's, `true`, `null`). */
  ascii(text: string): void {
    this.room(text.length);
    const buffer = this.buffer;
    let offset = this.offset;
    for (let index = 0; index < text.length; index++) buffer[offset++] = text.charCodeAt(index);
    this.offset = offset;
    this.characters += text.length;
  }

  /** Any text. */
  text(text: string): void {
    this.room(text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.offset += utf8.encodeInto(text, this.buffer.subarray(this.offset)).written;
    this.characters += text.length;
  }

  /** The bytes written so far; with `more`, a fresh start for the next piece. */
  take(more: boolean): Uint8Array<ArrayBuffer> {
    const bytes = this.buffer.subarray(0, this.offset);
    if (more) this.buffer = uninitialised(this.buffer.length);
    this.offset = 0;
    return bytes;
  }
}

/** Writes a value's JSON text; false (nothing written) where `JSON.stringify` leaves it out. */
function writeValue(out: ByteText, value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      out.ascii(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      out.ascii(value ? 'true' : 'false');
      return true;
    case 'object':
      if (value === null) out.ascii('null');
      else writeObject(out, value);
      return true;
    case 'string':
    case 'bigint': {
      const text = valueText(value);
      if (text === undefined) return false;
      out.text(text); // a bigint throws, as JSON.stringify does
      return true;
    }
    default:
      return false;
  }
}

function writeObject(out: ByteText, value: object): void {
  if (Object.isFrozen(value)) {
    let piece = frozenPieces.get(value);
    if (piece === undefined && isDeepFrozen(value)) {
      piece = pieceOf(objectText(value));
      frozenPieces.set(value, piece);
    }
    if (piece !== undefined) return out.piece(piece);
  }
  if (Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    out.code(0x5b); // [
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out.code(0x2c); // ,
      if (!writeValue(out, value[index])) out.ascii('null');
    }
    return out.code(0x5d); // ]
  }
  if (Array.isArray(value) || !isPlain(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return out.text(JSON.stringify(value));
  writeMembers(out, value as Record<string, unknown>, false);
}

/** `{`, the members, `}`; with `wire`, an `emission_factor` member's flags as the list's Python text. */
function writeMembers(out: ByteText, value: Record<string, unknown>, wire: boolean): void {
  out.code(0x7b); // {
  let first = true;
  for (const name of Object.keys(value)) {
    const inner = value[name];
    const from = first ? 1 : 0; // the first member without its comma
    if (typeof inner === 'string') out.piece(stringMemberPiece(name, inner), from);
    else if (wire && name === 'emission_factor' && typeof inner === 'object' && inner !== null) {
      out.piece(keyPiece(name), from);
      out.piece(wireFactorPiece(inner));
    } else {
      if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
      out.piece(keyPiece(name), from);
      writeValue(out, inner);
    }
    first = false;
  }
  out.code(0x7d); // }
}

function wireFactorPiece(factor: object): Piece {
  const known = wireFactorPieces.get(factor);
  if (known !== undefined) return known;
  const text = wireFactor(factor);
  const piece = pieceOf(text);
  if (wireFactorText.get(factor) === text) wireFactorPieces.set(factor, piece); // deeply frozen: kept
  return piece;
}

/** {@link batchText} in the wire form, written as UTF-8 bytes. */
async function batchBytes(
  results: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  options: BatchOptions,
): Promise<BatchText> {
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  const out = new ByteText();
  const suffix = `]${options.suffix ?? ''}`;
  out.text(`${options.prefix ?? ''}[`);
  let characters = suffix.length; // of the pieces already taken, and the suffix to come
  let first = true;
  let sized = options.count === undefined;
  for await (const slice of results) {
    for (const result of slice) {
      if (!first) out.code(0x2c); // ,
      first = false;
      if (typeof result === 'object' && result !== null && isPlain(result) && !isErrorBody(result))
        writeMembers(out, result as Record<string, unknown>, true);
      else out.text(jsonText(result, options));
      if (characters + out.characters > options.maxLength) return { over: true };
      // Growing the buffer as the answer is written cost a fifth of writing a batch of 100.
      if (!sized) {
        sized = true;
        out.reserve(Math.min(MOST_RESERVED, Math.ceil(out.offset * 1.125) * (options.count ?? 1)));
      }
    }
    if (out.offset >= PIECE_CHARACTERS) {
      characters += out.characters;
      out.characters = 0;
      pieces.push(out.take(true));
    }
  }
  out.text(suffix);
  pieces.push(out.take(false));
  return { body: pieces };
}
