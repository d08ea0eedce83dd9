import { normaliseBasePath } from '../routes';

/**
 * The hosted API's v1 spelling: `/compute/v1/…` and `/procurement/v1/…` (below the handler's base path) answer in
 * the hosted v1 shapes (the `results` envelope on batches, kWh on use-phase cloud answers, 100 operations per
 * batch); the unversioned paths keep SPEC.md's shapes.
 */

/**
 * Most operations a v1 batch may carry, as on the hosted v1 API (a server's own `maxBatchSize` may be lower).
 *
 * @example
 * ```ts
 * const limit = Math.min(maxBatchSize, V1_MAX_BATCH); // 100 at most on /compute/v1/…/batch
 * ```
 */
export const V1_MAX_BATCH = 100;

/**
 * True when the path (below `basePath`) is a v1 calculation path.
 *
 * @example
 * ```ts
 * isV1Path('/compute/v1/aws/cpu/batch', ''); // true
 * isV1Path('/compute/aws/cpu', ''); // false
 * ```
 */
export function isV1Path(pathname: string, basePath: string): boolean {
  const base = normaliseBasePath(basePath);
  if (base !== '' && !pathname.startsWith(`${base}/`)) return false;
  return /^\/(compute|procurement)\/v1\//.test(pathname.slice(base.length));
}
