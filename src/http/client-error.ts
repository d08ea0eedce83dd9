import type { Duplex } from 'node:stream';
import { EmissionsError } from '../core/errors';
import { httpMessages } from './messages';

/**
 * The answer to a request node's HTTP parser refused (malformed, headers too large) or timed out, before any
 * listener saw it: by default node writes a bare status line; these are the server's JSON error bodies. Type
 * imports only, so the module loads in any runtime.
 */

/** The error node gives, as far as it is read here: its code, e.g. `HPE_HEADER_OVERFLOW`. */
type ClientError = Error & { code?: string };

/** The error body of each code node's own answers distinguish (node's `socketOnError`); any other is a 400. */
function errorOf(code: string | undefined): EmissionsError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new EmissionsError('request_timeout', httpMessages.requestTimeout(), { status: 408 });
    case 'HPE_HEADER_OVERFLOW':
      return new EmissionsError('headers_too_large', httpMessages.headersTooLarge(), { status: 431 });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new EmissionsError('payload_too_large', httpMessages.chunkExtensionsTooLarge(), { status: 413 });
    default:
      return new EmissionsError('invalid_request', httpMessages.notHttp(), { status: 400 });
  }
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * The whole HTTP/1.1 response to a client error, as text: status line, the JSON headers every answer has,
 * `Connection: close`, and the error body.
 *
 * @example
 * ```ts
 * clientErrorResponse({ name: 'Error', message: '', code: 'HPE_HEADER_OVERFLOW' }); // 'HTTP/1.1 431 …'
 * ```
 */
export function clientErrorResponse(error: ClientError): string {
  const refusal = errorOf(error.code);
  const body = JSON.stringify(refusal.toJSON());
  return (
    `HTTP/1.1 ${refusal.status} ${REASONS[refusal.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n' +
    `Content-Length: ${new TextEncoder().encode(body).byteLength}\r\n\r\n${body}`
  );
}

/**
 * A `node:http` server's `'clientError'` listener: answers with {@link clientErrorResponse} when the connection can
 * still take it and no answer of it has begun (`answering`; by default, as node decides, when nothing was written
 * on it yet), then closes the connection once it is written. A connection the client reset is closed at once.
 * Node's rule does not see an answer still to be written to an earlier, pipelined request; a server that tracks
 * its responses passes `answering` (`serve` does).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { answerClientError, createNodeListener } from 'co2e-engine/http';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * createServer(createNodeListener({ datasets: defaultDatasets })).on('clientError', answerClientError);
 * ```
 */
export function answerClientError(
  error: ClientError,
  socket: Duplex & { bytesWritten?: number },
  answering: boolean = (socket.bytesWritten ?? 0) > 0,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error), () => socket.destroy());
}
