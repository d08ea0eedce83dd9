import { EmissionsError } from '../core/errors';
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

/** The request's media type is JSON, or `unsupported_media_type` (415). */
export function checkContentType(request: Request): void {
  const contentType = request.headers.get('content-type');
  if (contentType === null || !isJsonContentType(contentType)) {
    throw new EmissionsError('unsupported_media_type', httpMessages.unsupportedMediaType(contentType), {
      status: 415,
    });
  }
}

const tooLarge = (maxBytes: number) =>
  new EmissionsError('payload_too_large', httpMessages.payloadTooLarge(maxBytes), { status: 413 });

/**
 * Reads the body counting bytes as they arrive, and stops at `maxBytes + 1`: a missing or false
 * `Content-Length` (chunked uploads) cannot make the server buffer more than the limit.
 */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes)
    throw tooLarge(maxBytes);
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
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The JSON value of the request body.
 *
 * @throws {EmissionsError} `unsupported_media_type` (415), `payload_too_large` (413), `invalid_json` (400).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  checkContentType(request);
  const bytes = await readBytes(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new EmissionsError('invalid_json', httpMessages.notUtf8());
  }
  if (text.trim() === '') throw new EmissionsError('invalid_json', httpMessages.emptyBody());
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EmissionsError('invalid_json', httpMessages.invalidJson((error as Error).message));
  }
}
