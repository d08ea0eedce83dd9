import { EmissionsError, type ErrorBody, messages } from './errors';

/**
 * Runs `calculate` on every element of a batch, in order. A bad element becomes its {@link ErrorBody} (with a
 * path such as `requests[3].region`) and the others are still computed. Only errors that are not
 * {@link EmissionsError}s (engine bugs) propagate.
 *
 * @throws {@link EmissionsError} `invalid_request` when `requests` is not an array.
 */
export function runBatch<T>(requests: unknown, calculate: (request: unknown) => T): Array<T | ErrorBody> {
  if (!Array.isArray(requests))
    throw new EmissionsError('invalid_request', messages.notABatch(), { path: 'requests' });
  const results = new Array<T | ErrorBody>(requests.length);
  for (let index = 0; index < requests.length; index++) {
    try {
      results[index] = calculate(requests[index]);
    } catch (error) {
      if (!(error instanceof EmissionsError)) throw error;
      results[index] = error.withPathPrefix(`requests[${index}]`).toJSON();
    }
  }
  return results;
}

/** True when a batch result element is an error body rather than a result. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'error_code' in value && 'message' in value;
}
