import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from './create-handler';
import { dropRest } from './drop-rest';
import { FETCH_FORBIDDEN_METHODS, NODE_METHOD, STAND_IN_METHOD } from './node-method';
import { INTERNAL_ERROR_BODY } from './responses';
import { targetUrl } from './routes';

/**
 * The `node:http` adapter. Type imports only: this module loads in any runtime, and uses no Node built-in at run
 * time (Node 20 and later have global `Request` and `Response`).
 */

/** A `node:http` request listener, also usable as Express or Connect middleware at a mount point. */
export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

interface BodyStream {
  stream: ReadableStream<Uint8Array> | null;
  /** True once the request body has been read to its end. */
  readonly ended: () => boolean;
  /** Reads and discards what is left of the body, so a large upload cannot sit in memory. */
  readonly discard: () => void;
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/** The request body as a Web stream that pulls from Node's stream only as fast as the handler reads. */
function bodyStream(request: IncomingMessage): BodyStream {
  let ended = request.readableEnded;
  let discarded = false;
  request.on('end', () => {
    ended = true;
  });
  const discard = () => {
    if (discarded) return;
    discarded = true;
    request.removeAllListeners('data');
    request.on('data', () => undefined);
    request.on('error', () => undefined);
    request.resume();
  };
  if (BODYLESS_METHODS.has(request.method ?? 'GET')) {
    discard(); // Fetch forbids a body on GET and HEAD; anything sent is dropped
    return { stream: null, ended: () => true, discard };
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk: Buffer) => {
          if (discarded) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.on('end', () => {
          if (!discarded) controller.close();
        });
        request.on('error', (error) => {
          if (!discarded) controller.error(error);
        });
        request.pause();
      },
      pull() {
        request.resume();
      },
      cancel() {
        discard();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { stream, ended: () => ended, discard };
}

function requestUrl(request: IncomingMessage): string {
  const url = targetUrl(request.url ?? '/');
  if (request.headers.host !== undefined) url.host = request.headers.host; // a malformed Host is ignored
  return url.href;
}

function toWebRequest(request: IncomingMessage, body: BodyStream, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = request.method ?? 'GET';
  const forbidden = FETCH_FORBIDDEN_METHODS.has(method.toUpperCase());
  const init: RequestInit & { duplex?: 'half' } = {
    method: forbidden ? STAND_IN_METHOD : method,
    headers,
    signal,
  };
  if (body.stream !== null) {
    init.body = body.stream;
    init.duplex = 'half'; // required by Node's fetch for a streamed body
  }
  const web = new Request(requestUrl(request), init);
  if (forbidden) Object.defineProperty(web, NODE_METHOD, { value: method });
  return web;
}

async function writeWebResponse(response: Response, target: ServerResponse): Promise<void> {
  target.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') target.setHeader(name, value);
  });
  if (cookies.length > 0) target.setHeader('set-cookie', cookies);
  if (response.body === null) {
    target.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (target.destroyed) {
      await reader.cancel();
      return;
    }
    if (!target.write(value))
      await new Promise<void>((resolve) => target.once('drain', resolve).once('close', resolve));
  }
  target.end();
}

/**
 * Adapts a Web-standard handler (from {@link createHandler}) to a `node:http` request listener. The request body
 * is streamed to the handler with backpressure, and whatever the handler leaves unread (a rejected or too-large
 * upload) is read and dropped before the response, up to 16 MB and 2 s; past that the connection is closed
 * after the response.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createHandler, toNodeListener } from 'co2e-engine/http';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * createServer(toNodeListener(createHandler({ datasets: defaultDatasets }))).listen(8080, '127.0.0.1');
 * ```
 */
export function toNodeListener(handler: Handler): NodeListener {
  return (request, response) => {
    const abort = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const body = bodyStream(request);
    void (async () => {
      try {
        const webResponse = await handler(toWebRequest(request, body, abort.signal));
        if (!body.ended()) {
          body.discard();
          if (!(await dropRest(request))) response.setHeader('connection', 'close');
        }
        await writeWebResponse(webResponse, response);
      } catch {
        // Only reached when the handler itself throws (createHandler's never does) or the socket fails.
        body.discard();
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
          response.end(JSON.stringify(INTERNAL_ERROR_BODY));
        } else {
          response.destroy();
        }
      }
    })();
  };
}
