import { calculateCpu, calculateCpuBatch } from '../cloud/cpu';
import { calculateEmbodied, calculateEmbodiedBatch } from '../cloud/embodied';
import { calculateInstance, calculateInstanceBatch } from '../cloud/instance';
import { calculateMemory, calculateMemoryBatch } from '../cloud/memory';
import { calculateNetworking, calculateNetworkingBatch } from '../cloud/networking';
import { calculateStorage, calculateStorageBatch } from '../cloud/storage';
import { resolveProvider } from '../cloud/common';
import { EmissionsError, messages } from '../core/errors';
import type { CalculationOptions, Estimate } from '../core/estimate';
import type { CloudDatasets, Datasets, SpendDatasets } from '../datasets/types';
import { calculateSpend, calculateSpendBatch } from '../spend/spend';
import { httpMessages } from './messages';
import { readJsonBody } from './read-json-body';
import { errorResponse, internalErrorResponse, jsonResponse } from './responses';
import { type CloudCalculatorName, matchRoute, normaliseBasePath, type Route } from './routes';
import { toWireBatch, toWireEstimate } from './wire';

/** Decides whether an API key may use the server. May be async (a database lookup). */
export type Authorize = (apiKey: string, request: Request) => boolean | Promise<boolean>;

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
  /** A path prefix the routes sit under, e.g. `/api` for `/api/compute/aws/cpu`. Default none. */
  basePath?: string;
  /** Options passed to every calculator (e.g. `significantDigits: 4`). Default none: exact results. */
  calculation?: CalculationOptions;
  /**
   * Told about an error that is not the caller's fault (an engine bug or a throwing `authorize`); the caller gets
   * a 500 with no detail. Default: `console.error`.
   */
  onError?: (error: unknown, request: Request) => void;
}

/** A Web-standard request handler, as Fetch-style runtimes (Deno, Bun, Cloudflare Workers, Hono) expect. */
export type Handler = (request: Request) => Promise<Response>;

type CloudCalculator = (
  provider: string,
  request: never,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown;
type CloudBatchCalculator = (
  provider: string,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown[];

const CLOUD: Readonly<
  Record<CloudCalculatorName, { single: CloudCalculator; batch: CloudBatchCalculator; wire: boolean }>
> = {
  // `wire`: the per-resource endpoints send data_quality_flags as the list's text form (SPEC.md).
  instance: { single: calculateInstance, batch: calculateInstanceBatch, wire: false },
  cpu: { single: calculateCpu, batch: calculateCpuBatch, wire: true },
  memory: { single: calculateMemory, batch: calculateMemoryBatch, wire: true },
  storage: { single: calculateStorage, batch: calculateStorageBatch, wire: true },
  networking: { single: calculateNetworking, batch: calculateNetworkingBatch, wire: true },
  embodied: { single: calculateEmbodied, batch: calculateEmbodiedBatch, wire: true },
};

const hasCloudDatasets = (datasets: Datasets): datasets is CloudDatasets =>
  datasets.cloudCoefficients !== undefined &&
  datasets.cloudRegions !== undefined &&
  datasets.cloudInstances !== undefined;
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
 * Creates a Web-standard `(Request) => Promise<Response>` handler serving SPEC.md's endpoints: `POST
 * /procurement/spend`, `POST /compute/{provider_id}/{instance,cpu,memory,storage,networking,embodied}` and a
 * `/batch` form of each. It uses only Fetch API globals, so it runs unchanged in Node >= 20, Deno, Bun and edge
 * runtimes; use {@link toNodeListener} for `node:http`.
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
  const { datasets, authorize, calculation } = options;
  const maxBatchSize = positiveInteger('maxBatchSize', options.maxBatchSize ?? 100);
  const maxBodyBytes = positiveInteger('maxBodyBytes', options.maxBodyBytes ?? 1_000_000);
  const basePath = normaliseBasePath(options.basePath);
  const onError =
    options.onError ?? ((error: unknown) => console.error('co2e-engine/http: internal error', error));
  const cloudDatasets = hasCloudDatasets(datasets) ? datasets : undefined;
  const spendDatasets = hasSpendDatasets(datasets) ? datasets : undefined;

  async function authenticate(request: Request): Promise<void> {
    if (authorize === undefined) return;
    const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
    if (key === undefined)
      throw new EmissionsError('unauthorized', httpMessages.missingApiKey(), { status: 401 });
    if ((await authorize(key, request)) !== true) {
      throw new EmissionsError('unauthorized', httpMessages.invalidApiKey(), { status: 401 });
    }
  }

  function checkBatch(body: unknown): readonly unknown[] {
    if (!Array.isArray(body))
      throw new EmissionsError('invalid_request', messages.notABatch(), { path: 'requests' });
    if (body.length > maxBatchSize) {
      throw new EmissionsError('batch_too_large', messages.batchTooLarge(body.length, maxBatchSize), {
        path: 'requests',
      });
    }
    return body;
  }

  function compute(route: Route, body: unknown): unknown {
    if (route.family === 'spend') {
      const spend = spendDatasets as SpendDatasets;
      if (route.batch) return calculateSpendBatch(checkBatch(body), spend, calculation);
      return calculateSpend(body as never, spend, calculation);
    }
    const cloud = cloudDatasets as CloudDatasets;
    const calculator = CLOUD[route.calculator];
    // The provider is checked once for the whole request, so a bad one is a 400 rather than N failed elements.
    resolveProvider(route.provider, cloud);
    if (route.batch) {
      const results = calculator.batch(route.provider, checkBatch(body), cloud, calculation);
      return calculator.wire ? toWireBatch(results) : results;
    }
    const result = calculator.single(route.provider, body as never, cloud, calculation);
    return calculator.wire ? toWireEstimate(result as Estimate) : result;
  }

  async function handle(request: Request): Promise<Response> {
    await authenticate(request);
    const url = new URL(request.url);
    const route = matchRoute(url.pathname, basePath);
    if (route === undefined) {
      throw new EmissionsError('not_found', httpMessages.notFound(request.method, url.pathname), {
        status: 404,
      });
    }
    const served = route.family === 'spend' ? spendDatasets !== undefined : cloudDatasets !== undefined;
    if (!served) throw new EmissionsError('not_found', httpMessages.notServed(route.family), { status: 404 });
    if (request.method !== 'POST') {
      throw new EmissionsError('method_not_allowed', httpMessages.methodNotAllowed(request.method), {
        status: 405,
      });
    }
    const body = await readJsonBody(request, maxBodyBytes);
    return jsonResponse(compute(route, body));
  }

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof EmissionsError) return errorResponse(error);
      try {
        onError(error, request);
      } catch {
        // A failing logger must not turn a 500 into a crash.
      }
      return internalErrorResponse();
    }
  };
}
