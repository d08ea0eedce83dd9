import { EmissionsError, type ErrorBody } from '../core/errors';

/**
 * A warehouse UDF must return a value for every row: a bad request becomes its error body, and so does an engine
 * bug (as `internal_error`), so one row never fails the whole query.
 *
 * @example
 * ```ts
 * const safeCpu = orErrorBody((request: unknown) => calculateCpu('aws', request as CpuRequest, cloudDatasets));
 * safeCpu({ cpu_count: -1 }); // { error: 'bad_request', error_code: 'invalid_request', … }
 * ```
 */
export function orErrorBody<Args extends unknown[], R>(
  calculate: (...args: Args) => R,
): (...args: Args) => R | ErrorBody {
  return (...args) => {
    try {
      return calculate(...args);
    } catch (error) {
      if (error instanceof EmissionsError) return error.toJSON();
      const message = error instanceof Error ? error.message : String(error);
      return new EmissionsError('internal_error', `internal error: ${message}`, { status: 500 }).toJSON();
    }
  };
}
