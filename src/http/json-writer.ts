import { isErrorBody } from '../core/batch';
import { pythonListRepr } from './python-repr';
import { concatBytes } from './read-json-body';

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

/** Whether `__proto__` reads an object's prototype here (Deno removes it, `node --disable-proto` too). */
const protoReadable = (() => {
  try {
    return ({} as { __proto__?: unknown }).__proto__ === Object.prototype;
  } catch {
    return false; // --disable-proto=throw
  }
})();

const isPlain = (value: object): boolean => {
  // `__proto__`, inlined by the compiler, first: Object.getPrototypeOf is a call into the runtime (8 ns, twice per
  // estimate). It can only mislead when an own member `__proto__` holds Object.prototype itself.
  if (protoReadable && (value as { __proto__?: unknown }).__proto__ === Object.prototype) return true;
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

/** Options of {@link batchWriter}. */
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
 * A batch answer written as its results come, a slice at a time: `add` writes a slice (false once the text has
 * passed `maxLength` characters: the answer is refused, and nothing more should be added), `end` closes the
 * array and gives the body (one string, or UTF-8 bytes in pieces).
 */
export interface BatchWriter {
  add(results: readonly unknown[]): boolean;
  end(): string | Uint8Array<ArrayBuffer>[];
  /**
   * Says the answer's bytes are no longer read (written to the socket, or never to be sent), so its memory may hold
   * later answers. Optional for a caller; once is enough, later calls do nothing.
   */
  release(): void;
}

/**
 * A writer of one batch answer: exactly `JSON.stringify(results)` (each element as {@link jsonText} writes it),
 * inside `prefix` and `suffix` (the v1 envelope `{"results":` … `}`), written as the results are computed. The
 * wire form is written straight to UTF-8 bytes (one piece for an answer up to 262,144 bytes); any other long
 * answer is encoded a piece at a time as it is written. Writing stops as soon as the text passes `maxLength`
 * characters, so a refused answer is never held whole.
 *
 * @example
 * ```ts
 * const writer = batchWriter({ wire: true, maxLength: 1e6 });
 * if (writer.add(results)) Buffer.concat(writer.end()).toString(); // JSON.stringify(results.map(toWireEstimate))
 * ```
 */
export function batchWriter(options: BatchOptions): BatchWriter {
  return options.wire ? new ByteBatch(options) : new TextBatch(options);
}

/** A batch answer as text, encoded to bytes a piece at a time once long. */
class TextBatch implements BatchWriter {
  private readonly pieces: Uint8Array<ArrayBuffer>[] = [];
  private readonly suffix: string;
  private text: string;
  private length: number;
  private first = true;

  constructor(private readonly options: BatchOptions) {
    this.suffix = `]${options.suffix ?? ''}`;
    this.text = `${options.prefix ?? ''}[`;
    this.length = this.text.length + this.suffix.length;
  }

  add(results: readonly unknown[]): boolean {
    for (const result of results) {
      const element = (this.first ? '' : ',') + jsonText(result, this.options);
      this.first = false;
      this.length += element.length;
      if (this.length > this.options.maxLength) return false;
      this.text += element;
    }
    if (this.text.length >= PIECE_CHARACTERS) {
      this.pieces.push(utf8.encode(this.text));
      this.text = '';
    }
    return true;
  }

  end(): string | Uint8Array<ArrayBuffer>[] {
    if (this.pieces.length === 0) return this.text + this.suffix;
    this.pieces.push(utf8.encode(this.text + this.suffix));
    return this.pieces;
  }

  release(): void {
    // Its text and pieces are the collector's.
  }
}

/*
 * The byte writer. A text built of a thousand small strings cost more to turn into bytes (node walks it to
 * measure it, then again to encode it) than to write: a batch of 100 cpu estimates spent more time there than in
 * the engine. The wire form of a batch is written as UTF-8 bytes instead. Results of a calculator come in a few
 * layouts (the same member names in the same order), and most members hold the same value from one result to the
 * next (units, the shared factor and gases objects): per layout, each member keeps the bytes of the last value
 * written there that cannot change, and a stretch of such members is copied as one piece, so writing a result is
 * mostly comparing references and copying bytes; only numbers and fresh objects are written anew. An estimate of the
 * engine's own layout skips even that: it is written from its factor's text, cut at its two numbers
 * ({@link EstimateText}), once its members are seen to hold what that text was written from.
 */

/** A text's UTF-8 bytes and its length in characters (the answer's cap counts characters). */
class Piece {
  /** Times this piece was written: a piece met once (a fresh text) is not worth joining with its followers. */
  uses = 0;
  /** Pieces met right after this one, each followed by the two joined; at most {@link FOLLOWERS_KEPT}. */
  followers: Piece[] | undefined = undefined;
  /** This piece with its leading comma turned into an opening brace (an object's first member). */
  braced: Piece | undefined = undefined;

  constructor(
    readonly bytes: Uint8Array,
    readonly characters: number,
  ) {}

  /** Several pieces as one. */
  static joined(pieces: readonly Piece[]): Piece {
    let length = 0;
    let characters = 0;
    for (const piece of pieces) {
      length += piece.bytes.length;
      characters += piece.characters;
    }
    return new Piece(
      concatBytes(
        pieces.map((piece) => piece.bytes),
        length,
      ),
      characters,
    );
  }
}

const pieceOf = (text: string): Piece => new Piece(utf8.encode(text), text.length);

/** Followers kept per piece (the first met stay), and the longest joined piece made. */
const FOLLOWERS_KEPT = 8;
const JOINED_MOST = 1 << 10;
/**
 * Joined pieces made in all, for the life of the process (as {@link CACHE_ENTRIES} counts texts): each is kept by
 * the piece it follows, and joined pieces are joined again, so without a cap the pieces that answers of varied
 * requests repeat would grow a server's heap for as long as it runs. Past it, answers are written without new joins.
 *
 * @internal
 */
export const JOINED_KEPT = 4_096;
let joinedMade = 0;

/**
 * Joined pieces made so far (at most {@link JOINED_KEPT}).
 *
 * @internal
 * @example
 * ```ts
 * joinedPiecesMade(); // 0 in a fresh process
 * ```
 */
export const joinedPiecesMade = (): number => joinedMade;

/**
 * `first` and `next` as one piece, kept with `first` for the next time `next` follows it; undefined when not worth
 * it (either met only once, the joined piece too long, or `first` has its share of followers already).
 */
function joinedOf(first: Piece, next: Piece): Piece | undefined {
  const followers = first.followers;
  if (followers !== undefined)
    for (let index = 0; index < followers.length; index += 2)
      if (followers[index] === next) {
        const joined = followers[index + 1] as Piece;
        joined.uses++;
        return joined;
      }
  if (first.uses < 2 || next.uses < 2 || first.bytes.length + next.bytes.length > JOINED_MOST)
    return undefined;
  if (followers !== undefined && followers.length >= 2 * FOLLOWERS_KEPT) return undefined;
  if (joinedMade >= JOINED_KEPT) return undefined;
  joinedMade++;
  const joined = Piece.joined([first, next]);
  joined.uses = 1;
  (first.followers ??= []).push(next, joined);
  return joined;
}

/** `piece` with its first byte (a comma) an opening brace. */
function bracedOf(piece: Piece): Piece {
  const bytes = piece.bytes.slice();
  bytes[0] = 0x7b; // {
  return new Piece(bytes, piece.characters);
}

const COMMA = pieceOf(',');
const CLOSE = pieceOf('}');
const EMPTY_OBJECT = pieceOf('{}');

/** `,"name":` as bytes, per property name seen. */
const keyPieces = new Map<string, Piece>();
/** `,"name":"value"` as bytes, per property name and short string value seen. */
const stringMemberPieces = new Map<string, Map<string, Piece>>();
/** Deeply frozen objects' text as bytes. */
const frozenPieces = new WeakMap<object, Piece>();
/** `,"name":text` of deeply frozen objects, with the name it was met under. */
const frozenMembers = new WeakMap<object, { readonly name: string; readonly piece: Piece }>();
/** `,"emission_factor":text` of deeply frozen factors in the wire form. */
const wireFactorMembers = new WeakMap<object, Piece>();

function keyPiece(name: string): Piece {
  return keyPieces.get(name) ?? remember(keyPieces, name, pieceOf(commaKey(name)));
}

function stringMemberPiece(name: string, value: string): Piece {
  if (value.length > SHORT_STRING) return pieceOf(stringMember(name, value));
  let byValue = stringMemberPieces.get(name);
  if (byValue === undefined) byValue = remember(stringMemberPieces, name, new Map<string, Piece>());
  return byValue.get(value) ?? remember(byValue, value, pieceOf(stringMember(name, value)));
}

/** Marks a member that keeps no value. */
const NOTHING_KEPT = Symbol('nothing kept');
const NO_PIECE = new Piece(new Uint8Array(0), 0);

/**
 * One layout of plain object as the byte writer has met it: its member names in order, each name's `,"name":`,
 * per member the last value written there that cannot change (a short string, a deeply frozen object) with the
 * member's bytes, and per member the layout of the last fresh object written there. With `wire`, a member
 * `emission_factor` is written in the wire form. (Stretches of kept members are joined by the writer's pieces
 * themselves, see {@link joinedOf}.)
 */
class Layout {
  readonly keys: readonly Piece[];
  readonly kept: unknown[];
  readonly members: Piece[];
  readonly inner: (Layout | undefined)[];

  constructor(
    readonly names: readonly string[],
    readonly wire: boolean,
  ) {
    this.keys = names.map(keyPiece);
    this.kept = names.map(() => NOTHING_KEPT);
    this.members = names.map(() => NO_PIECE);
    this.inner = names.map(() => undefined);
  }

  /** Keeps a member's value and its bytes for the next objects. */
  keep(index: number, value: unknown, member: Piece): void {
    this.kept[index] = value;
    this.members[index] = member;
  }
}

/** Layouts by their form and names, at most {@link LAYOUTS_KEPT} (past it, a layout serves one object). */
const layouts = new Map<string, Layout>();
const LAYOUTS_KEPT = 1_000;

/** The layout of an object with these names. */
function layoutOf(names: string[], wire: boolean): Layout {
  const id = (wire ? 'w' : 'p') + JSON.stringify(names);
  const known = layouts.get(id);
  if (known !== undefined) return known;
  const layout = new Layout(names, wire);
  if (layouts.size < LAYOUTS_KEPT) layouts.set(id, layout);
  return layout;
}

/** Bytes copied one by one rather than by `set`, whose call costs more than a short copy. */
const SHORT_COPY = 8;
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

/**
 * Bytes of a slab the answers' buffers are cut from, one after the other: a buffer of its own per answer (77 KB for
 * a batch of 100) cost an allocation outside the heap, its release by the collector, and a copy when it grew.
 * A buffer at the slab's end grows in place, and gives back what it did not use when taken. Buffers larger than a
 * quarter of a slab are allocated alone.
 */
const SLAB_BYTES = 1 << 20;

/**
 * A slab, and how many answers cut from it are still held. An edge gives an answer back once its bytes are written
 * ({@link BatchWriter.release}); a slab that no answer holds any more is reused instead of being left to the
 * collector (see {@link giveBack}): a fresh slab every 13 batches of 100 cost page faults and missed the caches
 * (bench/http.md). An answer never given back (the Web edge cannot tell when its bytes are read) only keeps its
 * slab from being reused, which then lives as long as any answer cut from it.
 */
class Slab {
  holders = 0;
  constructor(readonly bytes: Uint8Array<ArrayBuffer>) {}
}

/** Full slabs no answer holds, kept to be cut again (any more are left to the collector). */
const SPARE_SLABS = 2;
const spareSlabs: Slab[] = [];
let slab = new Slab(uninitialised(0));
let slabUsed = 0;

/**
 * Room for `length` bytes from the current slab (the next when it has no room), or alone when large. The slab left
 * behind is still held: one no answer holds is at its start again (see {@link giveBack}), where every region fits.
 */
function region(length: number): Uint8Array<ArrayBuffer> {
  if (length > SLAB_BYTES >> 2) return uninitialised(length);
  if (slabUsed + length > slab.bytes.length) {
    slab = spareSlabs.pop() ?? new Slab(uninitialised(SLAB_BYTES));
    slabUsed = 0;
  }
  const bytes = slab.bytes.subarray(slabUsed, slabUsed + length);
  slabUsed += length;
  return bytes;
}

/**
 * An answer given back. A slab no answer holds any more is kept when full, and cut again from its start when it is
 * the current one: the next answer is then written where the last one was, memory the caches still hold.
 */
function giveBack(used: Slab): void {
  used.holders--;
  if (used.holders !== 0) return;
  if (used === slab) slabUsed = 0;
  else if (spareSlabs.length < SPARE_SLABS) spareSlabs.push(used);
}

/** Whether `bytes` ends where the current slab's free room begins (nothing was cut from the slab after it). */
const atSlabEnd = (bytes: Uint8Array): boolean =>
  bytes.buffer === slab.bytes.buffer && bytes.byteOffset + bytes.length === slabUsed;

const EMPTY = new Uint8Array(0);

/** An answer's UTF-8 bytes as they are written, and its length in characters. */
class ByteText {
  /** The slabs this answer's buffers were cut from, each counted as held once (see {@link Slab}). */
  private readonly slabs: Slab[] = [];
  private buffer = this.cut(FIRST_CAPACITY);
  offset = 0;
  characters = 0;

  /** {@link region}, the slab it comes from counted as held by this answer. */
  private cut(length: number): Uint8Array<ArrayBuffer> {
    const bytes = region(length);
    if (bytes.buffer === slab.bytes.buffer && this.slabs[this.slabs.length - 1] !== slab) {
      slab.holders++;
      this.slabs.push(slab);
    }
    return bytes;
  }

  /** Gives the slabs back: the answer's bytes are no longer read (at most once; later calls do nothing). */
  release(): void {
    for (const used of this.slabs.splice(0)) giveBack(used);
  }

  private room(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const length = Math.max(this.buffer.length * 2, this.offset + bytes);
    const start = this.buffer.byteOffset;
    if (atSlabEnd(this.buffer) && start + length <= slab.bytes.length) {
      this.buffer = slab.bytes.subarray(start, start + length); // grown in place: nothing was cut after it
      slabUsed = start + length;
      return;
    }
    const larger = this.cut(length);
    larger.set(this.buffer.subarray(0, this.offset));
    this.buffer = larger;
  }

  /** Makes room for this many bytes in all, at once. */
  reserve(bytes: number): void {
    this.flush();
    this.room(bytes - this.offset);
  }

  /**
   * The pieces written last, joined, not yet copied: a stretch of pieces that follow one another in every element
   * (a member's bytes, the next name, a closing brace, the next element's opening) is copied as one.
   */
  private pending: Piece | undefined = undefined;
  /** The next piece opens an object: its leading comma is written as `{`. */
  private opening = false;

  /** Bytes written so far, pieces not yet copied included. */
  length(): number {
    return this.offset + (this.pending === undefined ? 0 : this.pending.bytes.length);
  }

  /** Copies the pending piece. */
  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    const { bytes } = pending;
    const length = bytes.length;
    this.room(length);
    if (length <= SHORT_COPY) {
      const buffer = this.buffer;
      let offset = this.offset;
      for (let index = 0; index < length; index++) buffer[offset++] = bytes[index] as number;
    } else this.buffer.set(bytes, this.offset);
    this.offset += length;
  }

  /** An object begins: its first member's leading comma becomes its brace (see {@link close}). */
  open(): void {
    this.opening = true;
  }

  /** An object ends: `}`, or `{}` when no member was written. */
  close(): void {
    if (this.opening) {
      this.opening = false;
      this.piece(EMPTY_OBJECT);
    } else this.piece(CLOSE);
  }

  /** One ASCII character by its code. */
  code(code: number): void {
    this.flush();
    this.room(1);
    this.buffer[this.offset++] = code;
    this.characters++;
  }

  /** A reused piece (each member's begins with its comma). */
  piece(piece: Piece): void {
    if (piece.bytes.length === 0) return;
    if (this.opening) {
      this.opening = false;
      piece = piece.braced ??= bracedOf(piece);
    }
    piece.uses++;
    this.characters += piece.characters;
    const pending = this.pending;
    if (pending !== undefined) {
      const joined = joinedOf(pending, piece);
      if (joined !== undefined) {
        this.pending = joined;
        return;
      }
      this.flush();
    }
    this.pending = piece;
  }

  /** Text known to be ASCII (a number's, `true`, `null`). */
  ascii(text: string): void {
    this.flush();
    this.room(text.length);
    const buffer = this.buffer;
    let offset = this.offset;
    for (let index = 0; index < text.length; index++) buffer[offset++] = text.charCodeAt(index);
    this.offset = offset;
    this.characters += text.length;
  }

  /** Any text. */
  text(text: string): void {
    this.flush();
    this.room(text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.offset += utf8.encodeInto(text, this.buffer.subarray(this.offset)).written;
    this.characters += text.length;
  }

  /** The bytes written so far; with `more`, a fresh start for the next piece. */
  take(more: boolean): Uint8Array<ArrayBuffer> {
    this.flush();
    const bytes = this.buffer.subarray(0, this.offset);
    // The room not written is given back, to the next multiple of 8 bytes (what follows stays aligned).
    if (atSlabEnd(this.buffer)) slabUsed = (this.buffer.byteOffset + this.offset + 7) & ~7;
    this.buffer = more ? this.cut(this.buffer.length) : EMPTY;
    this.offset = 0;
    return bytes;
  }
}

/** What `JSON.stringify` writes for `value` at `key` (a name, or an index): its `toJSON(key)` where it has one. */
function jsonValue(value: unknown, key: string | number): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return (toJson as (key: string) => unknown).call(value, String(key));
  }
  return value;
}

/** Whether `JSON.stringify` leaves a member with this value out. */
const leftOut = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * Writes a value that `JSON.stringify` writes (see {@link leftOut}), `toJSON` already applied; gives the layout
 * an object was written with, the hint for the next object met at the same place.
 */
function writeValue(out: ByteText, value: unknown, hint?: Layout): Layout | undefined {
  switch (typeof value) {
    case 'number':
      out.ascii(Number.isFinite(value) ? numberText(value) : 'null');
      return hint;
    case 'boolean':
      out.ascii(value ? 'true' : 'false');
      return hint;
    case 'string':
      out.text(JSON.stringify(value));
      return hint;
    case 'object':
      if (value === null) out.ascii('null');
      else return writeObject(out, value, hint);
      return hint;
    default:
      out.text(JSON.stringify(value)); // a bigint: throws, as JSON.stringify does
      return hint;
  }
}

/** Writes an object (its `toJSON` already applied); gives the layout it was written with, if any. */
function writeObject(out: ByteText, value: object, hint: Layout | undefined): Layout | undefined {
  if (Object.isFrozen(value)) {
    let piece = frozenPieces.get(value);
    if (piece === undefined && isDeepFrozen(value)) {
      piece = pieceOf(objectText(value));
      frozenPieces.set(value, piece);
    }
    if (piece !== undefined) {
      out.piece(piece);
      return hint;
    }
  }
  if (Array.isArray(value)) {
    out.code(0x5b); // [
    let inner: Layout | undefined;
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out.code(0x2c); // ,
      const element = jsonValue(value[index], index);
      if (leftOut(element)) out.ascii('null');
      else inner = writeValue(out, element, inner);
    }
    out.code(0x5d); // ]
    return hint;
  }
  // Anything but a plain object (a Map, a class's instance) is left to JSON.stringify itself.
  if (!isPlain(value)) {
    out.text(JSON.stringify(value));
    return hint;
  }
  return writePlain(out, value, false, hint);
}

/**
 * Whether `Object.prototype` has an enumerable property (someone added one): then `for … in` over a plain object
 * also yields it, and objects are walked by `Object.keys` instead. Looked at once per slice of results.
 */
let inheritedNames = false;

function hasEnumerable(value: object): boolean {
  for (const name in value) if (name !== undefined) return true;
  return false;
}

/**
 * Writes a plain object through its layout, and gives the layout. The names are met once (`for … in`: no array
 * made) and checked against `hint`'s as they come: members written before a name differs are right for this object
 * too (same names, in order), so on a difference the writing goes on from there through the object's own layout;
 * each member's value is read once, as `JSON.stringify` reads it.
 */
function writePlain(out: ByteText, value: object, wire: boolean, hint: Layout | undefined): Layout {
  out.open();
  let layout = hint !== undefined && hint.wire === wire && !inheritedNames ? hint : undefined;
  let index = 0;
  let fits = false;
  if (layout !== undefined) {
    const { names } = layout;
    fits = true;
    for (const name in value) {
      if (name !== names[index]) {
        fits = false;
        break;
      }
      writeStep(out, layout, index, (value as Record<string, unknown>)[name]);
      index++;
    }
  }
  if (layout === undefined || !fits || index < layout.names.length) {
    // Not the hint's names: the members from `index` on are written through the object's own layout.
    const names = Object.keys(value);
    layout = layoutOf(names, wire);
    for (; index < names.length; index++)
      writeStep(out, layout, index, (value as Record<string, unknown>)[names[index] as string]);
  }
  out.close();
  return layout;
}

/** One member of an object being written (its leading comma included), unless `JSON.stringify` leaves it out. */
function writeStep(out: ByteText, layout: Layout, index: number, value: unknown): void {
  if (value === layout.kept[index]) return out.piece(layout.members[index] as Piece);
  if (typeof value === 'number') {
    out.piece(layout.keys[index] as Piece);
    out.ascii(Number.isFinite(value) ? numberText(value) : 'null');
    return;
  }
  // A fresh object where the last object of this layout had one (an estimate's activity_data) is walked at once.
  const inner = layout.inner[index];
  if (inner !== undefined && isFreshPlain(value)) {
    out.piece(layout.keys[index] as Piece);
    layout.inner[index] = writePlain(out, value, false, inner);
    return;
  }
  writeMember(out, layout, index, value);
}

/**
 * A plain object `JSON.stringify` writes member by member (no `toJSON`, not an array). One that is deeply frozen
 * is also walked: the same text, only not kept.
 */
function isFreshPlain(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    isPlain(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** Texts of numbers written lately, by a hash of the number's bits (see {@link numberText}). */
const NUMBER_SLOTS = 1 << 12;
const numberKeys = new Float64Array(NUMBER_SLOTS);
const numberTexts: (string | undefined)[] = new Array<string | undefined>(NUMBER_SLOTS).fill(undefined);
const numberBits = new Float64Array(1);
const numberHalves = new Uint32Array(numberBits.buffer);

/**
 * `String(value)` of a finite number, from a table of the texts written lately. V8 keeps such a table too, but
 * indexed by the low bits of the number's halves, so numbers that differ only in their exponent share a place:
 * the co2e of 1, 2, 4 and 8 CPUs evicted one another and each was formatted anew. Here the place mixes all bits.
 */
function numberText(value: number): string {
  numberBits[0] = value;
  const slot = Math.imul((numberHalves[0] as number) ^ (numberHalves[1] as number), 0x9e3779b1) >>> 20;
  if (numberKeys[slot] === value) {
    const known = numberTexts[slot];
    if (known !== undefined) return known;
  }
  const text = String(value);
  numberKeys[slot] = value;
  numberTexts[slot] = text;
  return text;
}

/** Writes the member `index` of a layout (its leading comma included), unless `JSON.stringify` leaves it out. */
function writeMember(out: ByteText, layout: Layout, index: number, value: unknown): void {
  const name = layout.names[index] as string;
  switch (typeof value) {
    case 'string': {
      const member = stringMemberPiece(name, value);
      if (value.length <= SHORT_STRING) layout.keep(index, value, member);
      out.piece(member);
      return;
    }
    case 'object': {
      if (value === null) break;
      const json = jsonValue(value, name);
      if (json !== value) {
        if (leftOut(json)) return;
        out.piece(layout.keys[index] as Piece);
        writeValue(out, json);
        return;
      }
      const isFactor = layout.wire && name === 'emission_factor';
      const member = isFactor ? wireFactorMember(value) : frozenMember(name, value);
      if (member !== undefined) {
        layout.keep(index, value, member);
        out.piece(member);
        return;
      }
      if (isFactor) return out.piece(pieceOf(commaKey(name) + wireFactor(value)));
      out.piece(layout.keys[index] as Piece);
      if (!Array.isArray(value) && isPlain(value))
        layout.inner[index] = writePlain(out, value, false, layout.inner[index]);
      else writeObject(out, value, undefined);
      return;
    }
    default:
      if (leftOut(value)) return;
  }
  out.piece(layout.keys[index] as Piece);
  writeValue(out, value); // a boolean, null or a bigint
}

/** `,"name":text` of a deeply frozen object (kept), or undefined for any other. */
function frozenMember(name: string, value: object): Piece | undefined {
  const known = frozenMembers.get(value);
  if (known !== undefined && known.name === name) return known.piece;
  if (!isDeepFrozen(value)) return undefined;
  const piece = pieceOf(commaKey(name) + objectText(value));
  frozenMembers.set(value, { name, piece });
  return piece;
}

/** `,"emission_factor":text` of a deeply frozen factor in the wire form (kept), or undefined for any other. */
function wireFactorMember(factor: object): Piece | undefined {
  const known = wireFactorMembers.get(factor);
  if (known !== undefined) return known;
  if (!isDeepFrozen(factor)) return undefined;
  const member = pieceOf(commaKey('emission_factor') + wireFactor(factor));
  wireFactorMembers.set(factor, member);
  return member;
}

/**
 * An estimate's text cut at its two numbers, `{"co2e":` N `,"co2e_unit":…"activity_value":` N `,…}`, with the
 * member values it was written from: a batch's estimates of one factor differ only in those two numbers (the
 * engine's estimate literal), so each is written as three copies and two numbers once its members are seen to hold
 * these values, in these names, and nothing else.
 */
interface EstimateText {
  readonly unit: unknown;
  readonly method: unknown;
  readonly origin: unknown;
  readonly constituentGases: unknown;
  readonly activityUnit: unknown;
  readonly auditTrail: unknown;
  readonly middle: Piece;
  readonly tail: Piece;
}

/** An estimate's member names in the engine's order, and its activity's. */
const ESTIMATE_NAMES = [
  'co2e',
  'co2e_unit',
  'co2e_calculation_method',
  'co2e_calculation_origin',
  'emission_factor',
  'constituent_gases',
  'activity_data',
  'audit_trail',
] as const;
const ACTIVITY_NAMES = ['activity_value', 'activity_unit'] as const;
const ESTIMATE_HEAD = pieceOf('{"co2e":');
const ACTIVITY_KEY = '"activity_data":{"activity_value":';

/** Texts of estimates in the wire form, per deeply frozen factor (the first estimate of each sets it). */
const estimateTexts = new WeakMap<object, EstimateText | null>();

/** Whether an object's own enumerable names are exactly `names`, in order (`for … in`: no array made). */
function hasNames(value: object, names: readonly string[]): boolean {
  let index = 0;
  for (const name in value) {
    if (name !== names[index]) return false;
    index++;
  }
  return index === names.length;
}

const numberOrNull = (value: number): string => (Number.isFinite(value) ? numberText(value) : 'null');

/**
 * The {@link EstimateText} of `estimate`'s factor, made from `estimate` itself when it has none: its wire text
 * ({@link jsonText}) cut where its two numbers are. Null when it cannot serve (a factor or gases object that is not
 * deeply frozen, whose text could change; a text that does not cut as expected).
 */
function estimateTextOf(estimate: Record<string, unknown>, factor: object): EstimateText | null {
  const gases = estimate.constituent_gases;
  const activity = estimate.activity_data as Record<string, unknown>;
  if (!isDeepFrozen(factor) || (typeof gases === 'object' && gases !== null && !isDeepFrozen(gases)))
    return null;
  const text = jsonText(estimate, { wire: true });
  const co2e = numberOrNull(estimate.co2e as number);
  const value = numberOrNull(activity.activity_value as number);
  const start = `{"co2e":${co2e}`.length;
  const at = text.lastIndexOf(`${ACTIVITY_KEY}${value},`);
  if (!text.startsWith(`{"co2e":${co2e},`) || at < start) return null;
  const middle = text.slice(start, at + ACTIVITY_KEY.length);
  const tail = text.slice(at + ACTIVITY_KEY.length + value.length);
  return {
    unit: estimate.co2e_unit,
    method: estimate.co2e_calculation_method,
    origin: estimate.co2e_calculation_origin,
    constituentGases: gases,
    activityUnit: activity.activity_unit,
    auditTrail: estimate.audit_trail,
    middle: pieceOf(middle),
    tail: pieceOf(tail),
  };
}

/**
 * Writes `value` from its factor's {@link EstimateText} when it is an estimate of the engine's layout whose members
 * hold that text's values; false (nothing written) for anything else, which is then written member by member.
 * `for … in` also meets names every object inherits, so those decline it too. The writer is fed only the
 * calculators' results, plain objects with plain members, so reading a member here and again there cannot tell.
 */
function writeEstimate(out: ByteText, value: object): boolean {
  if (!hasNames(value, ESTIMATE_NAMES)) return false;
  const estimate = value as Record<string, unknown>;
  const co2e = estimate.co2e;
  const factor = estimate.emission_factor;
  const activity = estimate.activity_data;
  if (
    typeof co2e !== 'number' ||
    typeof factor !== 'object' ||
    factor === null ||
    typeof activity !== 'object' ||
    activity === null ||
    // Its own or one every object inherits (which would change every member): either declines.
    typeof (activity as { toJSON?: unknown }).toJSON === 'function' ||
    !hasNames(activity, ACTIVITY_NAMES)
  )
    return false;
  const { activity_value: activityValue, activity_unit: activityUnit } = activity as Record<string, unknown>;
  if (typeof activityValue !== 'number') return false;
  let text = estimateTexts.get(factor);
  if (text === undefined) {
    text = estimateTextOf(estimate, factor);
    estimateTexts.set(factor, text);
  }
  if (
    text === null ||
    estimate.co2e_unit !== text.unit ||
    estimate.co2e_calculation_method !== text.method ||
    estimate.co2e_calculation_origin !== text.origin ||
    estimate.constituent_gases !== text.constituentGases ||
    activityUnit !== text.activityUnit ||
    estimate.audit_trail !== text.auditTrail
  )
    return false;
  out.piece(ESTIMATE_HEAD);
  out.ascii(numberOrNull(co2e));
  out.piece(text.middle);
  out.ascii(numberOrNull(activityValue));
  out.piece(text.tail);
  return true;
}

/** The layouts of the last estimate and the last other element written, in any batch: the next one's hints. */
let lastEstimate: Layout | undefined;
let lastOther: Layout | undefined;

/** {@link batchWriter} in the wire form, written as UTF-8 bytes. */
class ByteBatch implements BatchWriter {
  private readonly pieces: Uint8Array<ArrayBuffer>[] = [];
  private readonly out = new ByteText();
  private readonly suffix: string;
  /** Characters of the pieces already taken, and of the suffix to come. */
  private characters: number;
  /** Elements written so far (an element's index, for its `toJSON`). */
  private written = 0;
  private sized: boolean;

  constructor(private readonly options: BatchOptions) {
    this.suffix = `]${options.suffix ?? ''}`;
    this.out.text(`${options.prefix ?? ''}[`);
    this.characters = this.suffix.length;
    this.sized = options.count === undefined;
  }

  add(results: readonly unknown[]): boolean {
    const { out, options } = this;
    inheritedNames = hasEnumerable(Object.prototype);
    for (const element of results) {
      if (this.written > 0) out.piece(COMMA);
      const result = jsonValue(element, this.written++);
      if (typeof result === 'object' && result !== null && !Array.isArray(result) && isPlain(result)) {
        if (writeEstimate(out, result)) {
          // Written from its factor's text.
        } else if (isErrorBody(result)) lastOther = writeObject(out, result, lastOther);
        else lastEstimate = writePlain(out, result, true, lastEstimate);
      } else if (leftOut(result)) out.ascii('null');
      else lastOther = writeValue(out, result, lastOther);
      if (this.characters + out.characters > options.maxLength) return false;
      // Growing the buffer as the answer is written cost a fifth of writing a batch of 100.
      if (!this.sized) {
        this.sized = true;
        out.reserve(Math.min(MOST_RESERVED, Math.ceil(out.length() * 1.125) * (options.count ?? 1)));
      }
    }
    if (out.length() >= PIECE_CHARACTERS) {
      this.characters += out.characters;
      out.characters = 0;
      this.pieces.push(out.take(true));
    }
    return true;
  }

  end(): Uint8Array<ArrayBuffer>[] {
    this.out.text(this.suffix);
    this.pieces.push(this.out.take(false));
    return this.pieces;
  }

  release(): void {
    this.out.release();
  }
}
