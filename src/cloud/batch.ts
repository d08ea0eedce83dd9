import { runBatch } from '../core/batch';
import type { ErrorBody } from '../core/errors';
import type { CalculationOptions } from '../core/estimate';
import type { CloudDatasets } from '../datasets/types';
import { resolveProvider } from './common';

/** The batch form of a cloud calculator. */
export type CloudBatch<R> = (
  provider: string,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => Array<R | ErrorBody>;

/**
 * The batch form of a single cloud calculator: the single function on each request, in order, a bad request
 * becoming its error body. The provider is a path parameter, so a bad one fails the whole batch once.
 */
export function cloudBatch<R>(
  calculate: (provider: string, request: never, datasets: CloudDatasets, options?: CalculationOptions) => R,
): CloudBatch<R> {
  return (provider, requests, datasets, options) => {
    resolveProvider(provider, datasets);
    return runBatch(requests, (request) => calculate(provider, request as never, datasets, options));
  };
}
