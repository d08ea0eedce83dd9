/**
 * Methods the Fetch API refuses to put in a `Request` (`new Request(url, { method: 'TRACE' })` throws). The
 * `node:http` adapter builds such a request with a stand-in method and keeps the real one under this symbol, so
 * the handler answers it as any other method (405, or 401/404 first), never with a 500.
 */
export const FETCH_FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Where the adapter keeps a request's real method (registered, so two copies of the library agree). */
export const NODE_METHOD: unique symbol = Symbol.for('co2e-engine.node-method') as never;

/** A token Fetch accepts in place of a forbidden method. */
export const STAND_IN_METHOD = 'X-CO2E-FORBIDDEN-METHOD';

/** The request's method as the client sent it. */
export const methodOf = (request: Request): string =>
  (request as Request & { [NODE_METHOD]?: string })[NODE_METHOD] ?? request.method;
