import { CALCULATORS, type CalculatorId } from '../calculators';
import type { CloudCalculatorId } from '../cloud/calculators';

/**
 * The routes of SPEC.md's endpoint table, plus `/batch` forms of the spend and instance endpoints (which SPEC.md
 * does not list; the library has both batch functions, so the server offers them too). Each is a calculator's
 * `path` in the registry (`CALCULATORS`), and its `/batch` form.
 */

export type Route =
  | { readonly family: 'spend'; readonly calculator: 'spend'; readonly batch: boolean }
  | {
      readonly family: 'cloud';
      readonly calculator: CloudCalculatorId;
      /** The `provider_id` path segment, percent-decoded; validated by the calculator. */
      readonly provider: string;
      readonly batch: boolean;
    };

const PROVIDER_SEGMENT = '{provider_id}';

/** Each calculator's route as path segments (`['compute', '{provider_id}', 'cpu']`). */
const ROUTES = /* @__PURE__ */ (Object.keys(CALCULATORS) as CalculatorId[]).map((calculator) => ({
  calculator,
  segments: CALCULATORS[calculator].path.split('/').slice(1),
}));

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // a malformed %-escape cannot name any route
  }
}

/**
 * The path below `basePath` in the one spelling the routes match, or undefined when the path is outside
 * `basePath`. The hosted API's versioned spellings name the same routes: `/compute/v1/…` is `/compute/…` and
 * `/procurement/v1/…` is `/procurement/…`; one trailing slash is tolerated (`/compute/aws/cpu/`).
 *
 * @example
 * ```ts
 * routePath('/compute/v1/aws/cpu/', '') // '/compute/aws/cpu'
 * ```
 */
export function routePath(pathname: string, basePath: string): string | undefined {
  if (basePath !== '') {
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return undefined;
    pathname = pathname.slice(basePath.length);
  }
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  return pathname.replace(/^\/(compute|procurement)\/v1(?=\/|$)/, '/$1');
}

/**
 * The route a path names, or undefined. `basePath` (e.g. `/api`) is stripped first; the versioned hosted
 * spellings (`/compute/v1/{provider}/…`, `/procurement/v1/spend`) and one trailing slash are accepted (see
 * {@link routePath}).
 */
export function matchRoute(pathname: string, basePath: string): Route | undefined {
  const path = routePath(pathname, basePath);
  if (path === undefined) return undefined;
  const segments = path.split('/').slice(1);
  const batch = segments.length > 0 && segments[segments.length - 1] === 'batch';
  if (batch) segments.pop();
  for (const route of ROUTES) {
    if (route.segments.length !== segments.length) continue;
    let provider: string | undefined;
    const matches = route.segments.every((expected, index) => {
      const segment = segments[index] as string;
      if (expected !== PROVIDER_SEGMENT) return segment === expected;
      provider = segment === '' ? undefined : decodeSegment(segment);
      return provider !== undefined;
    });
    if (!matches) continue;
    const { calculator } = route;
    if (calculator === 'spend') return { family: 'spend', calculator, batch };
    return { family: 'cloud', calculator, provider: provider as string, batch };
  }
  return undefined;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * A path with each percent-encoded unreserved character (letters, digits, `-._~`) decoded, as RFC 3986 §6.2.2.2
 * makes them equivalent (`/compute/%61ws/%63pu` is `/compute/aws/cpu`); every other escape is kept, so `%2F` never
 * becomes a separator.
 *
 * @example
 * ```ts
 * decodeUnreserved('/compute/aws/%63pu%2Fbatch'); // '/compute/aws/cpu%2Fbatch'
 * ```
 */
export function decodeUnreserved(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  return pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : escape;
  });
}

/** Normalises a base path: `''`, or a leading slash and no trailing slash (`api/` → `/api`). */
export function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined) return '';
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * An HTTP request target (`/a/b?q`, or the absolute form `http://host/a/b`) as a URL, normalised as WHATWG URL
 * does (dot segments resolved, `\\` as `/`), so both edges route alike. Never throws.
 */
export function targetUrl(target: string): URL {
  try {
    return new URL(target.startsWith('/') ? `http://localhost${target}` : target);
  } catch {
    return new URL(`http://localhost/${encodeURIComponent(target)}`);
  }
}
