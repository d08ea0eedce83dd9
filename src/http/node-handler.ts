import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { EmissionsError } from '../core/errors';
import { httpMessages } from './messages';
import type { AuthorizeVerdict } from './create-handler';
import type { NodeListener } from './node';
import { concatBytes, tooLarge } from './read-json-body';
import { targetUrl } from './routes';
import { dropRest } from './drop-rest';
import {
  afterIo,
  createRules,
  internalErrorReply,
  isReply,
  type BodyWanted,
  type Reply,
  type RulesOptions,
  type Step,
} from './rules';

/**
 * The direct `node:http` edge: the same rules as {@link createHandler}, reading the body from the
 * `IncomingMessage` and writing the reply to the `ServerResponse`, with no Web `Request`, `Response`, stream or
 * `AbortSignal` in between. Type imports only, so the module loads in any runtime.
 */

/** Options of {@link createNodeListener}: those of `createHandler`, with node's request type. */
export interface NodeHandlerOptions extends RulesOptions<IncomingMessage> {
  /**
   * As `createHandler`'s `authorize`, but given node's `IncomingMessage`: `true` lets the request through, `false`
   * answers 401, `'forbidden'` 403.
   */
  authorize?:
    ((apiKey: string, request: IncomingMessage) => AuthorizeVerdict | Promise<AuthorizeVerdict>) | undefined;
  /** As `createHandler`'s `onError`, but given node's `IncomingMessage`. Default: `console.error`. */
  onError?: ((error: unknown, request: IncomingMessage) => void) | undefined;
}

/** Lower-case header names node joins with ", " when repeated; the others keep their first value. */
function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request target's path, as the Web edge's URL gives it; a path that is already normal (the common case) skips
 * the URL parser. One with a `%` is not: `%2e%2e` is a dot segment there.
 */
function pathnameOf(request: IncomingMessage): string {
  const target = request.url ?? '/';
  return /^(?:\/[\w-]+)+$/.test(target) ? target : targetUrl(target).pathname;
}

/**
 * Reads the body counting bytes, stops listening one byte past `maxBytes`, and calls `done` with the bytes or
 * `failed` with the error: callbacks, not a promise, so a single answer is written in the turn its last byte came.
 */
function readBody(
  request: IncomingMessage,
  maxBytes: number,
  done: (bytes: Uint8Array) => void,
  failed: (error: EmissionsError) => void,
): void {
  const chunks: Buffer[] = [];
  let total = 0;
  const stop = () => {
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('error', onError);
    request.off('close', onClose);
  };
  const onData = (chunk: Buffer) => {
    total += chunk.byteLength;
    if (total > maxBytes) {
      stop();
      failed(tooLarge(maxBytes));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    stop();
    done(concatBytes(chunks, total));
  };
  const onError = () => {
    stop();
    failed(new EmissionsError('invalid_json', httpMessages.unreadableBody()));
  };
  const onClose = () => {
    if (!request.complete) onError(); // the client went away mid-body
  };
  // on, not once: stop() takes each off, and once wraps every listener in one more function per request. Left on
  // after the end, they cost more than taking them off (1.7x the CPU per single answer, bench/http.md).
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', onError);
  request.on('close', onClose);
}

/** Characters from which an answer's text is encoded here rather than by node. */
const LONG_TEXT = 1 << 14;

/**
 * A text's UTF-8 bytes. Given a string, node measures it (for the chunk's length) and then encodes it, walking a
 * long answer's text (built of hundreds of pieces) twice; encoding it here walks it once, and text that is all ASCII
 * (every answer of the embedded data) is copied as Latin-1, the same bytes, which node writes several times
 * faster than it encodes UTF-8. Node's `Buffer` is there whenever this edge runs.
 */
function utf8Bytes(text: string): Uint8Array {
  const latin1 = Buffer.from(text, 'latin1');
  // Equal lengths only when every character is ASCII: any other takes two or more bytes in UTF-8.
  return Buffer.byteLength(text, 'utf8') === latin1.length ? latin1 : Buffer.from(text, 'utf8');
}

/** Per connection, its answers written or queued and not given back yet. */
const heldAnswers = new WeakMap<Socket, Set<() => void>>();

/**
 * Gives `release` back once the answer's bytes are no longer read: on the response's 'close', which node emits once
 * the socket has taken every byte (after 'finish') or when the connection goes while it is written, or on the
 * connection's 'close', since a pipelined response still queued behind another gets neither a socket nor a 'close'
 * of its own when the connection goes. One listener per connection, not one per answer.
 */
function releaseWhenSent(socket: Socket, response: ServerResponse, release: () => void): void {
  let held = heldAnswers.get(socket);
  if (held === undefined) {
    const answers = new Set<() => void>();
    socket.once('close', () => {
      for (const give of answers) give();
      answers.clear();
    });
    heldAnswers.set(socket, answers);
    held = answers;
  }
  const answers = held;
  answers.add(release);
  response.once('close', () => {
    answers.delete(release);
    release();
  });
}

function write(response: ServerResponse, answer: Reply): void {
  const socket = response.req.socket;
  if (response.destroyed || socket.destroyed) {
    answer.release?.(); // the client is gone: none of it will be sent
    return;
  }
  response.writeHead(answer.status, answer.headers);
  const { body } = answer;
  if (typeof body === 'string') {
    // A short answer goes out as text: node writes its headers and a string in one go, a Buffer with a writev.
    response.end(body.length < LONG_TEXT ? body : utf8Bytes(body));
    return;
  }
  // Chunked, as node frames an answer it is not told the length of: sent with Content-Length, a batch of 100 cost
  // more CPU (bench/http.md). A large answer's pieces (256 KB of bytes each) go to the socket as it drains: a 27 MB
  // answer encoded in one end() held the event loop.
  if (answer.release !== undefined) releaseWhenSent(socket, response, answer.release);
  let index = 0;
  const next = (): void => {
    while (index < body.length && !response.destroyed) {
      const piece = body[index++]!;
      if (index === body.length) {
        response.end(piece);
        return;
      }
      if (!response.write(piece)) {
        response.once('drain', next);
        return;
      }
    }
  };
  next();
}

/**
 * Batch answers ready in this turn of the event loop, each after its response, written together at the turn's end.
 * A client waiting for an answer sleeps, and each answer written wakes it, which costs the writer about as much as
 * writing a batch of 100 (bench/http.md); written one after another, the answers of one turn mostly find it awake.
 * A short answer goes at once: held back, single answers were answered fewer per second and later.
 */
const ready: Array<ServerResponse | Reply> = [];
let readyScheduled = false;

/** {@link write}, and where even that fails, the connection closed: one answer that cannot be written loses no other. */
function writeOrClose(response: ServerResponse, answer: Reply): void {
  try {
    write(response, answer);
  } catch {
    response.destroy();
  }
}

function writeReady(): void {
  readyScheduled = false;
  const answers = ready.splice(0);
  for (let index = 0; index < answers.length; index += 2)
    writeOrClose(answers[index] as ServerResponse, answers[index + 1] as Reply);
}

/** A batch answer (in pieces) at the end of the turn, any other at once: see {@link ready}. */
function writeSoon(response: ServerResponse, answer: Reply): void {
  if (typeof answer.body === 'string') return writeOrClose(response, answer);
  ready.push(response, answer);
  if (!readyScheduled) {
    readyScheduled = true;
    afterIo(writeReady);
  }
}

/** Node's own record of a `100 Continue` written on this response (set by `writeContinue`). */
type Continued = ServerResponse & { _sent100?: boolean };

/** Whether the client waits for `100 Continue` before sending its body, and none was sent. */
function awaitsContinue(request: IncomingMessage, response: ServerResponse): boolean {
  const expect = request.headers.expect;
  return (
    expect !== undefined &&
    request.httpVersion === '1.1' &&
    /^100-continue$/i.test(expect.trim()) &&
    (response as Continued)._sent100 !== true
  );
}

/**
 * Reads the body the rules want and writes their answer to it. A client waiting with `Expect: 100-continue` is told
 * to send its body only now, once the rules are about to read it: a server with a 'checkContinue' listener (as
 * `serve` has) leaves that to its listener, so a request refused before (401, 404, 415, a declared 413) is answered
 * without the client sending a byte of its body. A server without one has already sent it (node's default).
 */
function answerBody(request: IncomingMessage, response: ServerResponse, wanted: BodyWanted): void {
  if (awaitsContinue(request, response)) response.writeContinue();
  readBody(
    request,
    wanted.maxBytes,
    (bytes) => {
      const answer = wanted.answer(bytes);
      if (answer instanceof Promise)
        answer.then((ready) => send(request, response, ready), lastResort(request, response));
      else send(request, response, answer);
    },
    (error) => send(request, response, wanted.refuse(error)),
  );
}

/** The 500 for a promise of the rules that rejected, which they never do. */
const lastResort = (request: IncomingMessage, response: ServerResponse) => () =>
  send(request, response, internalErrorReply());

function proceed(request: IncomingMessage, response: ServerResponse, step: Step): void {
  if (isReply(step)) send(request, response, step);
  else answerBody(request, response, step);
}

function send(request: IncomingMessage, response: ServerResponse, answer: Reply): void {
  if (request.complete) return writeSoon(response, answer);
  // The client still waits for 100 Continue: no body will come to drop, and the connection cannot be reused
  // (RFC 9110 §10.1.1: the server closes it, or reads a body the client may never send).
  if (awaitsContinue(request, response)) {
    if (!response.headersSent) response.setHeader('connection', 'close');
    return writeSoon(response, answer);
  }
  void dropRest(request).then((drained) => {
    if (!drained && !response.destroyed) response.setHeader('connection', 'close');
    writeSoon(response, answer);
  });
}

/**
 * A `node:http` request listener serving the same endpoints, rules, limits and error bodies as
 * {@link createHandler}, without building Web `Request`/`Response` objects: the fast path for Node servers (the
 * CLI's `serve` uses it). Use {@link createHandler} with {@link toNodeListener} only when you need the Web
 * objects (e.g. an `authorize` written for `Request`).
 *
 * Register it for 'checkContinue' too (`server.on('checkContinue', listener)`): a client that sends
 * `Expect: 100-continue` (curl does for bodies over 1 MB) then gets `100 Continue` only once its request passed
 * every check before the body, and a refused one gets its 4xx at once, without uploading the body (the connection
 * closes after it). Without that listener node answers `100 Continue` to every such request before any check.
 * Set `server.httpAllowHalfOpen = true` to answer a client that half-closes after its request (`nc -N`): node
 * otherwise ends the connection on its FIN, before a batch answer is written.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createNodeListener } from 'co2e-engine/http';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const listener = createNodeListener({ datasets: defaultDatasets });
 * const server = createServer(listener).on('checkContinue', listener);
 * server.listen(8080, '127.0.0.1');
 * ```
 * @throws RangeError when `maxBatchSize` or `maxBodyBytes` is not a whole number from 1 to its ceiling.
 */
export function createNodeListener(options: NodeHandlerOptions): NodeListener {
  const rules = createRules<IncomingMessage>(options);
  return (request, response) => {
    const step = rules.begin({
      raw: request,
      method: request.method ?? 'GET',
      pathname: pathnameOf(request),
      header: (name) => headerOf(request, name),
    });
    // Only while `authorize` decides is there a promise.
    if (step instanceof Promise)
      step.then((ready) => proceed(request, response, ready), lastResort(request, response));
    else proceed(request, response, step);
  };
}
