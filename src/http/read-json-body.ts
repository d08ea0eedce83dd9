import { EmissionsError } from '../core/errors';
import { parseArrayInGroups } from './json-array-reader';
import { httpMessages } from './messages';

/**
 * Content-type check, byte-counted body read and JSON parse: the request's JSON value, or the HTTP error
 * (415, 413, 400 `invalid_json`) as an {@link EmissionsError}.
 */

/** `application/json` or any `application/*+json`, in UTF-8 (RFC 8259 allows no other charset). */
function isJsonContentType(contentType: string): boolean {
  const [mediaType = '', ...parameters] = contentType.split(';');
  const type = mediaType.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type)) return false;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}

/** Content-Type values seen to be JSON (clients send the same few), up to a cap: the client chooses them. */
const jsonContentTypes = new Set<string>();
const JSON_CONTENT_TYPES_KEPT = 100;

/**
 * The request's media type is JSON or absent (the hosted API's clients may send a JSON body without one; the
 * body is then read as JSON), or `unsupported_media_type` (415).
 */
export function checkContentType(contentType: string | undefined): void {
  if (contentType === undefined || jsonContentTypes.has(contentType)) return;
  if (isJsonContentType(contentType)) {
    if (jsonContentTypes.size < JSON_CONTENT_TYPES_KEPT) jsonContentTypes.add(contentType);
    return;
  }
  throw new EmissionsError('unsupported_media_type', httpMessages.unsupportedMediaType(contentType), {
    status: 415,
  });
}

/** The codings of a Content-Encoding or Transfer-Encoding value, lower case (`'gzip, chunked'` → gzip, chunked). */
const codingsOf = (value: string) =>
  value
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim());

/**
 * The body is sent without a content coding, or `unsupported_media_type` (415, RFC 9110 §8.4): the server decodes
 * none, and read as JSON a gzip body was a misleading "not valid UTF-8" while a plain one labelled gzip passed.
 * `identity` is no coding; a Transfer-Encoding may only chunk (node refuses one that does not end with chunked).
 *
 * @example
 * ```ts
 * checkContentCoding('identity', 'chunked'); // passes
 * checkContentCoding('gzip', undefined); // throws unsupported_media_type (415)
 * ```
 */
export function checkContentCoding(
  contentEncoding: string | undefined,
  transferEncoding: string | undefined,
): void {
  const unsupported = [
    ...(contentEncoding === undefined ? [] : codingsOf(contentEncoding)),
    ...(transferEncoding === undefined || transferEncoding === 'chunked' ? [] : codingsOf(transferEncoding)),
  ].find((coding) => coding !== '' && coding !== 'identity' && coding !== 'chunked');
  if (unsupported === undefined) return;
  throw new EmissionsError('unsupported_media_type', httpMessages.unsupportedContentCoding(unsupported), {
    status: 415,
  });
}

/** `payload_too_large` (413). */
export const tooLarge = (maxBytes: number) =>
  new EmissionsError('payload_too_large', httpMessages.payloadTooLarge(maxBytes), { status: 413 });

/**
 * Reads a Web request's body counting bytes as they arrive, and stops at `maxBytes + 1`: a missing or false
 * `Content-Length` (chunked uploads) cannot make the server buffer more than the limit.
 */
export async function readRequestBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined); // the client may already be gone; nothing to do then
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof EmissionsError) throw error;
    throw new EmissionsError('invalid_json', httpMessages.unreadableBody());
  }
  return concatBytes(chunks, total);
}

/** The chunks as one array (the only chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a body's bytes. @throws {@link EmissionsError} `invalid_json` (400) when they are not UTF-8. */
function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new EmissionsError('invalid_json', httpMessages.notUtf8());
  }
}

/** The JSON value of a body's text, or the `invalid_json` error `JSON.parse` gives. */
function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw new EmissionsError('invalid_json', httpMessages.emptyBody());
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EmissionsError('invalid_json', httpMessages.invalidJson((error as Error).message));
  }
}

/**
 * The JSON value of a body's bytes.
 *
 * @throws {@link EmissionsError} `invalid_json` (400) for bytes that are not UTF-8, empty, or not JSON.
 */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  return parseJsonText(decode(bytes));
}

/** Bytes decoded at a time by {@link parseJsonBytesInSlices}. */
const DECODE_BYTES = 1 << 20;

/**
 * {@link parseJsonBytes} for a large body, letting other requests in while it works: the bytes are decoded a
 * megabyte at a time and an array is parsed a group of elements at a time (`pause()`, when it returns a promise,
 * is awaited between steps). The value and every error are exactly {@link parseJsonBytes}'s: whatever the sliced
 * reader is not sure of is parsed whole.
 *
 * @example
 * ```ts
 * await parseJsonBytesInSlices(new TextEncoder().encode('[1, 2]'), () => undefined); // [1, 2]
 * ```
 * @throws {@link EmissionsError} `invalid_json` (400) for bytes that are not UTF-8, empty, or not JSON.
 */
export async function parseJsonBytesInSlices(
  bytes: Uint8Array,
  pause: () => Promise<void> | undefined,
): Promise<unknown> {
  let text = '';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += DECODE_BYTES) {
      const end = Math.min(bytes.byteLength, offset + DECODE_BYTES);
      text += decoder.decode(bytes.subarray(offset, end), { stream: end < bytes.byteLength });
      const waiting = pause();
      if (waiting !== undefined) await waiting;
    }
  } catch {
    throw new EmissionsError('invalid_json', httpMessages.notUtf8());
  }
  return (await parseArrayInGroups(text, pause)) ?? parseJsonText(text);
}
