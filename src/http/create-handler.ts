import type { CalculationOptions } from '../core/estimate';
import type { Datasets } from '../datasets/types';
import { readRequestBytes } from './read-json-body';
import type { CorsOptions } from './cors';
import { methodOf } from './node-method';
import { createRules, type Reply } from './rules';

export { ANSWER_SIZE, HANDLER_CEILINGS } from './rules';

/**
 * Decides whether an API key may use the server: `true` lets the request through, `false` answers 401, and
 * `'forbidden'` (a valid key not allowed this operation, e.g. a plan without the cloud routes) answers 403, as the
 * hosted API did. May be async (a database lookup).
 *
 * @example
 * ```ts
 * const authorize: Authorize = (key, request) =>
 *   key !== process.env.API_KEY ? false : new URL(request.url).pathname.startsWith('/compute/') ? 'forbidden' : true;
 * ```
 */
export type Authorize = (apiKey: string, request: Request) => AuthorizeVerdict | Promise<AuthorizeVerdict>;

/** What {@link Authorize} decides: `true` (allowed), `false` (401 `unauthorized`) or `'forbidden'` (403). */
export type AuthorizeVerdict = boolean | 'forbidden';

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** The datasets to compute with, e.g. `defaultDatasets`. Routes whose datasets are missing answer 404. */
  datasets: Datasets;
  /**
   * Checks the `Authorization: Bearer <key>` key. When given, a request without a key, or whose key it rejects,
   * gets 401 `unauthorized`. When omitted, the server is open.
   */
  authorize?: Authorize;
  /**
   * Most elements a batch may have; a larger batch gets 400 `batch_too_large`. Default 100, at most
   * {@link HANDLER_CEILINGS}`.maxBatchSize`.
   */
  maxBatchSize?: number;
  /**
   * Largest request body in bytes, counted as it arrives; a larger one gets 413. Default 1,000,000, at most
   * {@link HANDLER_CEILINGS}`.maxBodyBytes`.
   */
  maxBodyBytes?: number;
  /**
   * A batch answer may be at most this many times the request body's bytes (or 1,000,000 characters, whichever is
   * more); a longer one gets 400 `batch_too_large` before any of it is sent. Default 200 ({@link ANSWER_SIZE}):
   * the largest answer the embedded data gives is 73 times its request.
   */
  maxAnswerFactor?: number;
  /** A path prefix the routes sit under, e.g. `/api` for `/api/compute/aws/cpu`. Default none. */
  basePath?: string;
  /** Options passed to every calculator (e.g. `significantDigits: 4`). Default none: exact results. */
  calculation?: CalculationOptions;
  /**
   * Told about an error that is not the caller's fault (an engine bug or a throwing `authorize`); the caller gets
   * a 500 with no detail. Default: `console.error`.
   */
  onError?: (error: unknown, request: Request) => void;
  /**
   * Lets browser apps on these origins call the server: preflights (`OPTIONS`) are answered 204 with the allowed
   * methods and headers, and responses carry `Access-Control-Allow-Origin`. Default: off (no CORS headers; a
   * preflight gets 405, or 401 with `authorize`).
   */
  cors?: CorsOptions;
}

/** A Web-standard request handler, as Fetch-style runtimes (Deno, Bun, Cloudflare Workers, Hono) expect. */
export type Handler = (request: Request) => Promise<Response>;

/**
 * Creates a Web-standard `(Request) => Promise<Response>` handler serving SPEC.md's endpoints:
 * `POST /procurement/spend`, `POST /compute/:provider_id/:calculator` (instance, cpu, memory, storage, networking,
 * embodied) and a `/batch` form of each, and the discovery routes `GET /compute/metadata` (also
 * `/compute/v1/metadata`) and `GET /procurement/metadata`. It uses only Fetch API globals, so it runs unchanged in
 * Node 20 or later, Deno, Bun and edge runtimes; use {@link toNodeListener} for `node:http`.
 *
 * Checks, in order: API key (401), route (404), method (405), content type (415), body size (413), JSON (400
 * `invalid_json`), batch size (400 `batch_too_large`), then the calculator (400 with its error code). Errors
 * are `{ error, error_code, message, path?, valid_values? }`.
 *
 * @example
 * ```ts
 * import { createHandler } from 'co2e-engine/http';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const handler = createHandler({ datasets: defaultDatasets, authorize: (key) => key === process.env.API_KEY });
 * const response = await handler(new Request('http://localhost/compute/aws/cpu', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.API_KEY}` },
 *   body: JSON.stringify({ cpu_count: 4, region: 'us_east_1', duration: 1 }),
 * }));
 * ```
 * @throws RangeError when `maxBatchSize` or `maxBodyBytes` is not a whole number from 1 to its
 *   {@link HANDLER_CEILINGS | ceiling}.
 */
export function createHandler(options: HandlerOptions): Handler {
  const rules = createRules<Request>(options);
  return async (request) => {
    const headers = request.headers;
    const answer = await rules({
      raw: request,
      method: methodOf(request),
      pathname: new URL(request.url).pathname,
      header: (name) => headers.get(name) ?? undefined,
      readBody: (maxBytes) => readRequestBytes(request, maxBytes),
    });
    return toResponse(answer);
  };
}

const toResponse = (answer: Reply): Response => {
  const { body } = answer;
  // A large answer's pieces of bytes go into a Blob as they are, never joined.
  const content = typeof body === 'string' ? body : new Blob([...body]);
  return new Response(answer.status === 204 || body === '' ? null : content, {
    status: answer.status,
    headers: answer.headers,
  });
};
