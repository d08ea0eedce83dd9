import { runBatch } from '../core/batch';
import type { ErrorBody } from '../core/errors';
import type { CalculationOptions } from '../core/estimate';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { resolveProvider } from './resolve';
import type { CloudProviderSpelling } from './spellings';

/**
 * The batch form of a cloud calculator: requests of type `Q`, results `R` or an error body each. The requests are
 * typed for callers; each is still validated at run time, so untyped input (JSON) gets the same error bodies.
 */
export type CloudBatch<Q, R> = (
  provider: CloudProviderSpelling,
  requests: readonly Q[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => Array<R | ErrorBody>;

/**
 * The batch form of a single cloud calculator: the single function on each request, in order, a bad request
 * becoming its error body. The provider is a path parameter, so a bad one fails the whole batch once; so do
 * datasets that lack a part the calculator reads (`needs`), which no request could fix.
 */
export function cloudBatch<Q, R>(
  calculate: (
    provider: CloudProviderSpelling,
    request: Q,
    datasets: CloudDatasets,
    options?: CalculationOptions,
  ) => R,
  needs: CalculatorDatasets,
): CloudBatch<Q, R> {
  return (provider, requests, datasets, options) => {
    requireDatasets(datasets, needs);
    resolveProvider(provider, datasets);
    // Each element is checked by the calculator's schema: the type is what callers may pass, not a promise.
    return runBatch(requests, (request) => calculate(provider, request as Q, datasets, options));
  };
}
