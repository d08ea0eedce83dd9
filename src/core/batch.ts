import { EmissionsError, type ErrorBody, messages, thrownReason } from './errors';

/** How many {@link runBatch} calls are running (one may run inside another). */
let runningBatches = 0;

/**
 * True while {@link runBatch} runs: the results being built are kept until the batch returns. The builders of the
 * most numerous result objects then use their own copy of each object literal, because V8 decides once per literal,
 * from how many of its objects outlive a young-generation collection, whether to allocate them straight in the old
 * generation, and never revisits a decision to keep them young. A literal shared with single calls, whose results
 * are mostly dropped at once, is left young for good by single calls made first (a server's, a test's set-up);
 * every batch result is then copied twice by the collector (bench/results.md, "Batches after single calls").
 *
 * @example
 * ```ts
 * runBatch([1], () => inBatch()); // [true]
 * ```
 */
export const inBatch = (): boolean => runningBatches > 0;

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
  const count = lengthOf(requests);
  const results = new Array<T | ErrorBody>(count);
  runningBatches++;
  try {
    for (let index = 0; index < count; index++) {
      try {
        results[index] = calculate(elementOf(requests, index));
      } catch (error) {
        if (!(error instanceof EmissionsError)) throw error;
        results[index] = error.withPathPrefix(`requests[${index}]`).toJSON();
      }
    }
  } finally {
    runningBatches--;
  }
  return results;
}

// A batch behind a Proxy reads its length and elements through the caller's code: what that throws is the
// caller's input failing, not an engine bug, so it becomes `invalid_request` like any unreadable request.

/** A batch's length, or `invalid_request` for the whole batch when reading it throws. */
function lengthOf(requests: readonly unknown[]): number {
  try {
    return requests.length;
  } catch (thrown) {
    throw new EmissionsError('invalid_request', messages.unreadableBatch(thrownReason(thrown)), {
      path: 'requests',
    });
  }
}

/** A batch's element, or `invalid_request` (that element's error body) when reading it throws. */
function elementOf(requests: readonly unknown[], index: number): unknown {
  try {
    return requests[index];
  } catch (thrown) {
    throw new EmissionsError('invalid_request', messages.unreadableRequest(thrownReason(thrown)));
  }
}

/** True when a batch result element is an error body rather than a result. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'error_code' in value && 'message' in value;
}
