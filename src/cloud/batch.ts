import { runBatch } from '../core/batch';
import type { ErrorBody } from '../core/errors';
import type { CalculationOptions, Estimate } from '../core/estimate';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { resolveProvider } from './resolve';
import type { CloudProviderSpelling, ForProvider } from './spellings';

/**
 * A cloud calculator's public signature: provider `P`, a request of type `Q` with its region (and instance) typed for
 * `P`, the datasets, the options; result `R`. One type for every cloud calculator, so each file states its own
 * request and result in one line.
 *
 * @example
 * ```ts
 * export const calculateCpu: CloudCalculator<CpuRequest> = cpu.calculate;
 * ```
 */
export type CloudCalculator<Q, R = Estimate> = <P extends CloudProviderSpelling>(
  provider: P,
  request: ForProvider<Q, P>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => R;

/**
 * The batch form of a cloud calculator: requests of type `Q`, results `R` or an error body each. The requests are
 * typed for callers; each is still validated at run time, so untyped input (JSON) gets the same error bodies.
 */
export type CloudBatch<Q, R = Estimate> = (
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
