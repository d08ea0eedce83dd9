import { CALCULATORS } from '../calculators';
import { resolveProvider } from '../cloud/resolve';
import { isErrorBody } from '../core/batch';
import { EmissionsError, messages } from '../core/errors';
import type { CalculationOptions } from '../core/estimate';
import type { CloudProvider } from '../datasets/tables';
import type { CloudDatasets, Datasets, SpendDatasets } from '../datasets/types';
import { httpMessages } from './messages';
import {
  checkContentCoding,
  checkContentType,
  parseJsonBytes,
  parseJsonBytesInSlices,
  tooLarge,
} from './read-json-body';
import { INTERNAL_ERROR_BODY } from './responses';
import { type CorsOptions, corsPolicy } from './cors';
import { computeMetadata, matchMetadataRoute, type MetadataRoute, procurementMetadata } from './metadata';
import { openApiDocument } from './openapi/document';
import { decodeUnreserved, matchRoute, normaliseBasePath, type Route, routePath } from './routes';
import { type BatchWriter, batchWriter, jsonText } from './json-writer';
import { isV1Path, V1_MAX_BATCH } from './v1/paths';
import { V1_CLOUD, v1CloudBatch } from './v1/cloud';

/**
 * The server's rules, once for both edges (the Fetch handler and the direct node:http listener): auth, routing,
 * limits, JSON reading, the calculators and the error bodies. An edge only turns its own request into a
 * {@link Call} and writes the {@link Reply} back.
 */

/** A request's head as the rules see it. `R` is the edge's own request object, handed to `authorize` and `onError`. */
export interface Head<R> {
  readonly raw: R;
  readonly method: string;
  /**
   * The URL's path, normalised as WHATWG URL does (dot segments resolved, `%2e%2e` among them), percent-escapes kept;
   * the rules then decode escaped unreserved characters ({@link decodeUnreserved}).
   */
  readonly pathname: string;
  /** A header's value by lower-case name, or undefined. */
  header(name: string): string | undefined;
}

/** A request as the rules see it: its head, and its body to read. */
export interface Call<R> extends Head<R> {
  /**
   * The body's bytes, counted as they arrive; throws `payload_too_large` past `maxBytes` and `invalid_json`
   * (unreadable) when the stream fails.
   */
  readBody(maxBytes: number): Promise<Uint8Array>;
}

/**
 * A response as the rules give it: a status, headers, and the JSON text of the body, or a large batch answer's
 * UTF-8 bytes in pieces (the body is their concatenation; an edge writes them in turn, never joined).
 */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | readonly Uint8Array<ArrayBuffer>[];
  /** For an edge that knows when the body's bytes are written: they may then hold later answers. */
  readonly release?: (() => void) | undefined;
}

/**
 * What the rules make of a request's head: its reply, or the body they want read and what they answer to it. An
 * edge that reads the body itself (the node edge) answers a single request in the same turn as its last byte.
 */
export type Step = Reply | BodyWanted;

/** The body a request's head asks for: read at most `maxBytes`, then give them to `answer`. */
export interface BodyWanted {
  readonly maxBytes: number;
  /** The reply to the body's bytes: at once for a single request, a promise for a batch. Never throws or rejects. */
  answer(bytes: Uint8Array): Reply | Promise<Reply>;
  /** The reply when the body could not be read (past `maxBytes`, the stream failed). */
  refuse(error: unknown): Reply;
}

/** Whether a step is the reply itself. */
export const isReply = (step: Step): step is Reply => 'status' in step;

/**
 * The rules: as one function from a {@link Call} to its {@link Reply}, and in steps ({@link Rules.begin}) for an
 * edge that reads the body itself.
 */
export interface Rules<R> {
  (call: Call<R>): Promise<Reply>;
  /** The head's {@link Step}: at once, or a promise of it while `authorize` decides. Never throws or rejects. */
  begin(head: Head<R>): Step | Promise<Step>;
}

/** The rules' options; the edges' options are this with their own request type. */
export interface RulesOptions<R> {
  datasets: Datasets;
  authorize?:
    ((apiKey: string, request: R) => boolean | 'forbidden' | Promise<boolean | 'forbidden'>) | undefined;
  maxBatchSize?: number | undefined;
  maxBodyBytes?: number | undefined;
  maxAnswerFactor?: number | undefined;
  basePath?: string | undefined;
  calculation?: CalculationOptions | undefined;
  onError?: ((error: unknown, request: R) => void) | undefined;
  /** Browser origins allowed to call (CORS); off when absent. See {@link CorsOptions}. */
  cors?: CorsOptions | undefined;
}

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;

const reply = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

/** The hosted API's error body `{ error, error_code, message, path?, valid_values? }` with the error's status. */
function errorReply(error: EmissionsError): Reply {
  const headers: Record<string, string> = {};
  if (error.status === 405) headers.allow = 'POST';
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  // RFC 9110 §15.5.16: a 415 says which content codings would have been accepted (none but identity).
  if (error.status === 415) headers['accept-encoding'] = 'identity';
  return reply(error.toJSON(), error.status, headers);
}

/** The 500 reply: fixed text, never the error's message or stack. */
export const internalErrorReply = (): Reply => reply(INTERNAL_ERROR_BODY, 500);

// The bodies are JSON (unknown): the calculators' request types are for typed callers, and their schemas check
// whatever arrives, so the rules pass bodies as `never` (assignable to every request type) rather than cast each.
type CloudCalculator = (
  provider: CloudProvider,
  request: never,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown;
type CloudBatchCalculator = (
  provider: CloudProvider,
  requests: readonly never[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown[];

// The instance table is optional: without it the instance and embodied routes answer `missing_dataset`.
const hasCloudDatasets = (datasets: Datasets): datasets is CloudDatasets =>
  datasets.cloudCoefficients !== undefined && datasets.cloudRegions !== undefined;
const hasSpendDatasets = (datasets: Datasets): datasets is SpendDatasets =>
  datasets.spendFactors !== undefined &&
  datasets.classifications !== undefined &&
  datasets.margins !== undefined &&
  datasets.inflation !== undefined &&
  datasets.fx !== undefined;

/**
 * The hard ceilings on `maxBatchSize` and `maxBodyBytes`. Within them every accepted request is answered in well
 * under a second with a response far below V8's string limit; above them one request could hold the event loop
 * (and every other client) for seconds, or fail with a 500 while serialising its response.
 *
 * @example
 * ```ts
 * import { createHandler, HANDLER_CEILINGS } from 'co2e-engine/http';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const handler = createHandler({ datasets: defaultDatasets, maxBatchSize: HANDLER_CEILINGS.maxBatchSize });
 * ```
 */
export const HANDLER_CEILINGS = Object.freeze({ maxBatchSize: 10_000, maxBodyBytes: 10_000_000 });

function positiveInteger(name: keyof typeof HANDLER_CEILINGS, value: number): number {
  const ceiling = HANDLER_CEILINGS[name];
  if (!Number.isSafeInteger(value) || value < 1 || value > ceiling)
    throw new RangeError(`${name} must be a whole number from 1 to ${ceiling}, got ${value}.`);
  return value;
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * The rules (see {@link Rules}). They never throw or reject: a caller's mistake is its 4xx error body, anything
 * else is reported to `onError` and answered with the fixed 500 body.
 *
 * @throws RangeError when `maxBatchSize` or `maxBodyBytes` is not a whole number from 1 to its ceiling, or
 *   `maxAnswerFactor` not a whole number of at least 1.
 */
export function createRules<R>(options: RulesOptions<R>): Rules<R> {
  const { datasets, authorize, calculation } = options;
  const maxBatchSize = positiveInteger('maxBatchSize', options.maxBatchSize ?? 100);
  const maxBodyBytes = positiveInteger('maxBodyBytes', options.maxBodyBytes ?? 1_000_000);
  const answerFactor = options.maxAnswerFactor ?? ANSWER_SIZE.factor;
  if (!Number.isSafeInteger(answerFactor) || answerFactor < 1)
    throw new RangeError(`maxAnswerFactor must be a whole number of at least 1, got ${answerFactor}.`);
  const basePath = normaliseBasePath(options.basePath);
  const onError =
    options.onError ?? ((error: unknown) => console.error('co2e-engine/http: internal error', error));
  const cloudDatasets = hasCloudDatasets(datasets) ? datasets : undefined;
  const spendDatasets = hasSpendDatasets(datasets) ? datasets : undefined;
  const cors = options.cors === undefined ? undefined : corsPolicy(options.cors);
  const metadataReplies: Partial<Record<MetadataRoute | 'openapi', Reply>> = {};

  /** A GET-only route (405 with `Allow: GET, HEAD` otherwise); HEAD gets the headers alone. */
  function getOnly(method: string, answer: () => Reply): Reply {
    if (method !== 'GET' && method !== 'HEAD') {
      const refused = errorReply(
        new EmissionsError('method_not_allowed', httpMessages.metadataMethodNotAllowed(method), {
          status: 405,
        }),
      );
      return { ...refused, headers: { ...refused.headers, allow: 'GET, HEAD' } };
    }
    const full = answer();
    return method === 'HEAD' ? { ...full, body: '' } : full;
  }

  /** A metadata route: GET or HEAD only (405 with `Allow: GET, HEAD`), 404 without the datasets of its family. */
  function metadata(route: MetadataRoute, method: string): Reply {
    if ((route === 'compute' ? cloudDatasets : spendDatasets) === undefined)
      throw new EmissionsError('not_found', httpMessages.notServed(route === 'compute' ? 'cloud' : 'spend'), {
        status: 404,
      });
    return getOnly(
      method,
      () =>
        (metadataReplies[route] ??= reply(
          route === 'compute'
            ? computeMetadata(cloudDatasets as CloudDatasets)
            : procurementMetadata(spendDatasets as SpendDatasets),
        )),
    );
  }

  async function authenticate(call: Head<R>): Promise<void> {
    if (authorize === undefined) return;
    const key = BEARER.exec(call.header('authorization') ?? '')?.[1];
    if (key === undefined)
      throw new EmissionsError('unauthorized', httpMessages.missingApiKey(), { status: 401 });
    const verdict = await authorize(key, call.raw);
    if (verdict === 'forbidden')
      throw new EmissionsError('forbidden', httpMessages.forbidden(), { status: 403 });
    if (verdict !== true) {
      throw new EmissionsError('unauthorized', httpMessages.invalidApiKey(), { status: 401 });
    }
  }

  function checkBatch(body: unknown, v1: boolean): readonly unknown[] {
    if (!Array.isArray(body))
      throw new EmissionsError('invalid_request', messages.notABatch(), { path: 'requests' });
    const limit = v1 ? Math.min(maxBatchSize, V1_MAX_BATCH) : maxBatchSize;
    if (body.length > limit) {
      throw new EmissionsError('batch_too_large', messages.batchTooLarge(body.length, limit), {
        path: 'requests',
      });
    }
    return body;
  }

  /** A single answer's value, or a batch's requests and the calculator that computes a slice of them. */
  function compute(route: Route, body: unknown, v1: boolean): Computed {
    if (route.family === 'spend') {
      const spend = spendDatasets as SpendDatasets;
      const { calculate, batch } = CALCULATORS.spend;
      if (!route.batch) return { value: calculate(body as never, spend, calculation) };
      return {
        requests: checkBatch(body, v1),
        batch: (slice) => batch(slice as readonly never[], spend, calculation),
      };
    }
    const cloud = cloudDatasets as CloudDatasets;
    const calculator = CALCULATORS[route.calculator];
    // The provider is checked once for the whole request, so a bad one is a 400 rather than N failed elements.
    const { provider } = resolveProvider(route.provider, cloud);
    if (v1) {
      if (!route.batch) return { value: V1_CLOUD[route.calculator](provider, body, cloud, calculation) };
      return {
        requests: checkBatch(body, v1),
        batch: (slice) => v1CloudBatch(route.calculator, provider, slice, cloud, calculation),
      };
    }
    if (route.batch)
      return {
        requests: checkBatch(body, v1),
        batch: (slice) =>
          (calculator.batch as CloudBatchCalculator)(provider, slice as readonly never[], cloud, calculation),
      };
    return { value: (calculator.calculate as CloudCalculator)(provider, body as never, cloud, calculation) };
  }

  /** What a path names, worked out once per path (a server sees the same few paths again and again). */
  const destinations = new Map<string, Destination>();
  function destinationOf(pathname: string): Destination {
    let destination = destinations.get(pathname);
    if (destination === undefined) {
      // Both edges give the path WHATWG-normalised; an escaped unreserved character names the same route.
      const path = decodeUnreserved(pathname);
      destination =
        routePath(path, basePath) === '/openapi.json'
          ? { openapi: true }
          : {
              metadata: matchMetadataRoute(path, basePath),
              route: matchRoute(path, basePath),
              v1: isV1Path(path, basePath),
            };
      // Paths are the client's to choose: past the cap, further ones are worked out each time.
      if (destinations.size < DESTINATIONS_KEPT) destinations.set(pathname, destination);
    }
    return destination;
  }

  /** A request's head checked (route, method, content type, declared size): its reply, or where its body goes. */
  function routeOf(call: Head<R>): Reply | { route: Route; v1: boolean } {
    const destination = destinationOf(call.pathname);
    if (destination.openapi)
      return getOnly(call.method, () => (metadataReplies.openapi ??= reply(openApiDocument)));
    const { metadata: metadataRoute, route, v1 } = destination;
    if (metadataRoute !== undefined) return metadata(metadataRoute, call.method);
    if (route === undefined) {
      throw new EmissionsError('not_found', httpMessages.notFound(call.method, call.pathname), {
        status: 404,
      });
    }
    const served = route.family === 'spend' ? spendDatasets !== undefined : cloudDatasets !== undefined;
    if (!served) throw new EmissionsError('not_found', httpMessages.notServed(route.family), { status: 404 });
    if (call.method !== 'POST') {
      throw new EmissionsError('method_not_allowed', httpMessages.methodNotAllowed(call.method), {
        status: 405,
      });
    }
    checkContentType(call.header('content-type'));
    const declared = call.header('content-length');
    // A request has a Content-Length or a Transfer-Encoding, never both (node refuses it): an ordinary POST costs
    // one more header read here.
    const contentEncoding = call.header('content-encoding');
    const transferEncoding = declared === undefined ? call.header('transfer-encoding') : undefined;
    if (contentEncoding !== undefined || transferEncoding !== undefined)
      checkContentCoding(contentEncoding, transferEncoding);
    if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > maxBodyBytes)
      throw tooLarge(maxBodyBytes);
    return { route, v1 };
  }

  /** The answer to a body: a single request's at once, with no promise between its bytes and its text. */
  function answerTo(route: Route, v1: boolean, bytes: Uint8Array): Reply | Promise<Reply> {
    if (route.batch) return answerBatch(route, v1, bytes);
    const computed = compute(route, parseJsonBytes(bytes), v1);
    // The per-resource unversioned routes send data_quality_flags as the list's text (SPEC.md); v1 answers are
    // already in their wire shape.
    const wire = !v1 && CALCULATORS[route.calculator].wireFlags;
    return { status: 200, headers: JSON_HEADERS, body: jsonText(computed.value, { wire }) };
  }

  async function answerBatch(route: Route, v1: boolean, bytes: Uint8Array): Promise<Reply> {
    const pause = pacer();
    let body: unknown;
    if (bytes.byteLength > LARGE_BODY_BYTES) {
      await nextTurn(); // a large batch starts behind those already running
      body = await parseJsonBytesInSlices(bytes, pause);
    } else body = parseJsonBytes(bytes);
    const computed = compute(route, body, v1) as Extract<Computed, { requests: readonly unknown[] }>;
    const wire = !v1 && CALCULATORS[route.calculator].wireFlags;
    // A v1 batch is the same array text inside the hosted envelope, as JSON.stringify({ results }) writes it.
    const maxLength = Math.max(ANSWER_SIZE.floor, answerFactor * bytes.byteLength);
    const writer = batchWriter({
      wire,
      maxLength,
      count: computed.requests.length,
      ...(v1 && { prefix: '{"results":', suffix: '}' }),
    });
    let written = false;
    try {
      written = await writeInSlices(computed.requests, computed.batch, writer, pause);
    } finally {
      if (!written) writer.release(); // refused or failed: none of it will be sent
    }
    if (!written) {
      throw new EmissionsError('batch_too_large', httpMessages.answerTooLarge(maxLength, answerFactor), {
        path: 'requests',
      });
    }
    return { status: 200, headers: JSON_HEADERS, body: writer.end(), release: () => writer.release() };
  }

  /** A failure's reply: a caller's mistake is its error body; anything else goes to `onError` and is a 500. */
  function failed(error: unknown, raw: R): Reply {
    if (error instanceof EmissionsError) return errorReply(error);
    try {
      onError(error, raw);
    } catch {
      // A failing logger must not turn a 500 into a crash.
    }
    return internalErrorReply();
  }

  /**
   * One request from its head on: where its body goes, and each of its replies with the CORS headers it is owed.
   * The body it wants is itself (an object, not closures, made once per request).
   */
  class Exchange implements BodyWanted {
    readonly maxBytes = maxBodyBytes;
    private route: Route | undefined;
    private v1 = false;

    constructor(
      private readonly head: Head<R>,
      private readonly allowed: Record<string, string> | undefined,
    ) {}

    /** The head's step, once `authorize` (if any) let it through. */
    step(): Step {
      let target: ReturnType<typeof routeOf>;
      try {
        target = routeOf(this.head);
      } catch (error) {
        return this.refuse(error);
      }
      if ('status' in target) return this.finish(target);
      this.route = target.route;
      this.v1 = target.v1;
      return this;
    }

    answer(bytes: Uint8Array): Reply | Promise<Reply> {
      try {
        const answer = answerTo(this.route as Route, this.v1, bytes);
        if (!(answer instanceof Promise)) return this.finish(answer);
        return answer.then(
          (ready) => this.finish(ready),
          (error: unknown) => this.refuse(error),
        );
      } catch (error) {
        return this.refuse(error);
      }
    }

    refuse(error: unknown): Reply {
      return this.finish(failed(error, this.head.raw));
    }

    private finish(answer: Reply): Reply {
      const { allowed } = this;
      return allowed === undefined ? answer : { ...answer, headers: { ...answer.headers, ...allowed } };
    }
  }

  function begin(head: Head<R>): Step | Promise<Step> {
    let allowed: Record<string, string> | undefined;
    if (cors !== undefined) {
      const preflight = cors.preflight(head.method, (name) => head.header(name));
      if (preflight !== undefined) return { status: 204, headers: preflight, body: '' };
      allowed = cors.responseHeaders((name) => head.header(name));
    }
    const exchange = new Exchange(head, allowed);
    if (authorize === undefined) return exchange.step();
    return authenticate(head).then(
      () => exchange.step(),
      (error: unknown) => exchange.refuse(error),
    );
  }

  const rules = async (call: Call<R>): Promise<Reply> => {
    const step = await begin(call);
    if (isReply(step)) return step;
    let bytes: Uint8Array;
    try {
      bytes = await call.readBody(step.maxBytes);
    } catch (error) {
      return step.refuse(error);
    }
    return step.answer(bytes);
  };
  return Object.assign(rules, { begin });
}

/**
 * The cap on a batch answer's size: at most `factor` (the default of `maxAnswerFactor`) times the request body's
 * bytes, or `floor`, whichever is larger, counted in characters of the JSON text (a byte each where it is ASCII).
 * The largest answer the embedded data gives is 73 times its request (an ISIC section code in spend, 10 KB for 138
 * bytes; an instance with GPUs is 60 times), so no honest batch comes near it, while an answer that would pass it is
 * refused with 400 `batch_too_large` before a byte of it is sent, its text never held past the cap.
 *
 * @example
 * ```ts
 * Math.max(ANSWER_SIZE.floor, ANSWER_SIZE.factor * requestBytes); // the longest answer a batch may have
 * ```
 */
export const ANSWER_SIZE = Object.freeze({ factor: 200, floor: 1_000_000 });

/** What a request path names: the OpenAPI document, a metadata route, a calculation route, or nothing. */
type Destination =
  | { openapi: true; metadata?: undefined; route?: undefined; v1?: undefined }
  | { openapi?: undefined; metadata: MetadataRoute | undefined; route: Route | undefined; v1: boolean };

/** Paths whose destination is kept. */
const DESTINATIONS_KEPT = 1_000;

/** What a request's batch work calls between steps: past its budget, a promise of its next turn. */
type Pause = () => Promise<void> | undefined;

/** A single answer's value, or a batch's requests and the calculator of a slice of them. */
type Computed =
  | { value: unknown; requests?: undefined; batch?: undefined }
  | { value?: undefined; requests: readonly unknown[]; batch: (slice: readonly unknown[]) => unknown[] };

/** Work a batch does before it lets other requests in, in milliseconds. */
const SLICE_BUDGET_MS = 2;
/** Elements computed between two looks at the clock. */
const SLICE_ELEMENTS = 16;
/** A batch body past this many bytes is parsed in slices (a 100-element batch is 5 KB; 10,000 elements 586 KB). */
const LARGE_BODY_BYTES = 1 << 16;

/**
 * A request's clock: past {@link SLICE_BUDGET_MS} of work since its last turn, it returns the wait for its next
 * turn (see {@link nextTurn}).
 */
function pacer(): Pause {
  let started = performance.now();
  return () => {
    if (performance.now() - started < SLICE_BUDGET_MS) return undefined;
    return nextTurn().then(() => {
      started = performance.now();
    });
  };
}

/**
 * Runs a callback after the event loop has handled what is waiting (other requests' I/O).
 *
 * @example
 * ```ts
 * afterIo(() => writeAnswersReady());
 * ```
 */
export const afterIo: (callback: () => void) => void =
  typeof setImmediate === 'function'
    ? (callback) => setImmediate(callback)
    : (callback) => setTimeout(callback, 0);

/** Batches waiting for a turn, first come first served. */
const turnQueue: Array<() => void> = [];
let turnScheduled = false;

function giveTurn(): void {
  turnScheduled = false;
  const next = turnQueue.shift();
  if (turnQueue.length > 0) {
    turnScheduled = true;
    afterIo(giveTurn);
  }
  next?.();
}

/**
 * Waits for the next turn: one batch at a time works, once per round of the event loop, in the order they asked.
 * With each batch yielding on its own, two batches ran back to back in the same round and held other requests
 * twice as long; taking turns, the time between two rounds stays one {@link SLICE_BUDGET_MS}, however many large
 * batches run.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    turnQueue.push(resolve);
    if (!turnScheduled) {
      turnScheduled = true;
      afterIo(giveTurn);
    }
  });
}

/**
 * Runs a batch calculator over a batch a few elements at a time and writes each slice's results as they come,
 * giving up its turn whenever it (and the writer) has worked for {@link SLICE_BUDGET_MS}, so one batch at the
 * ceiling (10,000 slow elements) cannot hold every other request for seconds, and its results are never all held
 * at once. A batch that fits in its budget runs in one turn, with nothing scheduled between its slices. The
 * results are those of one call on the whole batch: an element's error path names its index in the whole batch
 * (`requests[9999]`), not in its slice. False once the answer passed its cap (see {@link BatchWriter}).
 */
async function writeInSlices(
  requests: readonly unknown[],
  batch: (slice: readonly unknown[]) => unknown[],
  writer: BatchWriter,
  pause: Pause,
): Promise<boolean> {
  // Checks that fail the whole batch (missing dataset parts) run once, before any element.
  if (requests.length <= SLICE_ELEMENTS) return writer.add(batch(requests));
  for (let start = 0; start < requests.length; start += SLICE_ELEMENTS) {
    const waiting = pause();
    if (waiting !== undefined) await waiting;
    const slice = batch(requests.slice(start, start + SLICE_ELEMENTS));
    if (start > 0)
      for (const result of slice)
        if (isErrorBody(result) && result.path !== undefined)
          result.path = result.path.replace(
            /^requests\[(\d+)\]/,
            (_, index: string) => `requests[${start + Number(index)}]`,
          );
    if (!writer.add(slice)) return false;
  }
  return true;
}
