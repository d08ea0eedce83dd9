/** Cross-origin resource sharing for the HTTP edges: off unless `cors` is given. */

/** Which browser origins may call the server. */
export interface CorsOptions {
  /** Allowed origins exactly as browsers send them (`https://app.example.com`), or `'*'` for any origin. */
  origins: '*' | readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** The headers a browser may send with a call: the API key and the JSON content type. */
const ALLOWED_HEADERS = 'authorization, content-type';
const ALLOWED_METHODS = 'GET, POST, OPTIONS';

/** Applies a {@link CorsOptions} policy to a request's method and headers. */
export interface CorsPolicy {
  /** The headers of the 204 answer to a preflight from an allowed origin; undefined for any other request. */
  preflight(method: string, header: (name: string) => string | undefined): Record<string, string> | undefined;
  /** The headers to add to a response (`Access-Control-Allow-Origin`, `Vary`); empty for an origin not allowed. */
  responseHeaders(header: (name: string) => string | undefined): Record<string, string>;
}

/**
 * A CORS policy. Preflights are answered before the API key is checked, because browsers send none with them; the
 * actual call is still checked. A request from an origin not allowed gets no CORS headers, so the browser blocks it.
 *
 * @example
 * ```ts
 * const cors = corsPolicy({ origins: ['https://app.example.com'] });
 * const headers = { origin: 'https://app.example.com', 'access-control-request-method': 'POST' };
 * cors.preflight('OPTIONS', (name) => headers[name]); // { 'access-control-allow-origin': 'https://app.example.com', ... }
 * ```
 * @throws RangeError when an origin is not of the form `scheme://host[:port]` or `maxAgeSeconds` is not a
 *   non-negative integer.
 */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const any = options.origins === '*';
  const origins = new Set(any ? [] : options.origins);
  for (const origin of origins) {
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i.test(origin))
      throw new RangeError(
        `cors origin must be scheme://host[:port] without a path, got ${JSON.stringify(origin)}.`,
      );
  }
  const maxAge = options.maxAgeSeconds ?? 600;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw new RangeError(`cors maxAgeSeconds must be a non-negative integer, got ${maxAge}.`);
  const responseHeaders = (header: (name: string) => string | undefined): Record<string, string> => {
    const origin = header('origin');
    if (origin === undefined) return {};
    if (any) return { 'access-control-allow-origin': '*' };
    return origins.has(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
  };
  return {
    preflight(method, header) {
      if (method !== 'OPTIONS' || header('access-control-request-method') === undefined) return undefined;
      const allowed = responseHeaders(header);
      if (allowed['access-control-allow-origin'] === undefined) return undefined;
      return {
        ...allowed,
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': String(maxAge),
      };
    },
    responseHeaders,
  };
}
