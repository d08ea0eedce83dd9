import { runBatch } from '../core/batch';
import type { ErrorBody } from '../core/errors';
import type { CalculationOptions, Estimate } from '../core/estimate';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudProvider } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets } from '../datasets/types';
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
 * A cloud calculator after its parts and provider are checked: the provider resolved with its coefficients, the
 * datasets known to hold the parts `D` needs. {@link cloudCalculator} and {@link cloudBatch} make the public forms.
 */
export type ProviderCalculator<D extends CloudDatasets, R> = (
  provider: CloudProvider,
  coefficients: CloudCoefficients,
  request: unknown,
  datasets: D,
  options: CalculationOptions | undefined,
) => R;

/**
 * The single form of a cloud calculator: the dataset parts it reads (`needs`) and the provider checked, then
 * `calculate`.
 *
 * @example
 * ```ts
 * export const calculateEmbodied: CloudCalculator<EmbodiedRequest> = cloudCalculator(embodiedOf, EMBODIED_DATASETS);
 * ```
 */
export function cloudCalculator<D extends CloudDatasets, R>(
  calculate: ProviderCalculator<D, R>,
  needs: CalculatorDatasets,
) {
  return (provider: unknown, request: unknown, datasets: CloudDatasets, options?: CalculationOptions): R => {
    requireDatasets(datasets, needs);
    const { provider: id, coefficients } = resolveProvider(provider, datasets);
    // requireDatasets has checked every part `needs` names, which are the parts D adds.
    return calculate(id, coefficients, request, datasets as D, options);
  };
}

/**
 * The batch form of a cloud calculator: `calculate` on each request, in order, a bad request becoming its error
 * body. The provider is a path parameter, so a bad one fails the whole batch once; so do datasets that lack a part
 * the calculator reads (`needs`), which no request could fix. Both are checked once, not per request.
 *
 * @example
 * ```ts
 * export const calculateEmbodiedBatch: CloudBatch<EmbodiedRequest> = cloudBatch(embodiedOf, EMBODIED_DATASETS);
 * ```
 */
export function cloudBatch<Q, D extends CloudDatasets, R>(
  calculate: ProviderCalculator<D, R>,
  needs: CalculatorDatasets,
): CloudBatch<Q, R> {
  return (provider, requests, datasets, options) => {
    requireDatasets(datasets, needs);
    const { provider: id, coefficients } = resolveProvider(provider, datasets);
    // Each element is checked by the calculator's schema: the type is what callers may pass, not a promise.
    return runBatch(requests, (request) => calculate(id, coefficients, request, datasets as D, options));
  };
}
