import { type CalculatorId, CALCULATORS } from './calculators';
import type { CalculationOptions } from './core/estimate';
import type { CloudDatasets, Datasets } from './datasets/types';

type Bound<F> = F extends (...args: [...infer Head, infer _Datasets, (infer _Options)?]) => infer R
  ? (...args: [...Head, options?: CalculationOptions]) => R
  : never;

type Entry<K extends CalculatorId> = (typeof CALCULATORS)[K];

/** Every calculator with the datasets (and default options) bound: `calculateCpu`, `calculateCpuBatch`, …. */
export type Engine = { readonly datasets: Datasets } & {
  [K in CalculatorId as Entry<K>['name']]: Bound<Entry<K>['calculate']>;
} & {
  [K in CalculatorId as `${Entry<K>['name']}Batch`]: Bound<Entry<K>['batch']>;
};

type Loose = (...args: unknown[]) => unknown;

/**
 * Binds the calculators to a set of datasets (and default options), so call sites need neither.
 *
 * @example
 * ```ts
 * import { createEngine } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const engine = createEngine(defaultDatasets);
 * engine.calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 });
 * ```
 */
export function createEngine(datasets: Datasets, defaults: CalculationOptions = {}): Engine {
  const merge = (options?: CalculationOptions) => (options ? { ...defaults, ...options } : defaults);
  const engine: Record<string, unknown> = { datasets };
  for (const entry of Object.values(CALCULATORS)) {
    const single = entry.calculate as Loose;
    const batch = entry.batch as Loose;
    // A spend call is (request, datasets, options); a cloud call has the provider first.
    if (entry.family === 'spend') {
      engine[entry.name] = (request: unknown, options?: CalculationOptions) =>
        single(request, datasets, merge(options));
      engine[`${entry.name}Batch`] = (requests: unknown, options?: CalculationOptions) =>
        batch(requests, datasets, merge(options));
    } else {
      const cloud = datasets as CloudDatasets;
      engine[entry.name] = (provider: unknown, request: unknown, options?: CalculationOptions) =>
        single(provider, request, cloud, merge(options));
      engine[`${entry.name}Batch`] = (provider: unknown, requests: unknown, options?: CalculationOptions) =>
        batch(provider, requests, cloud, merge(options));
    }
  }
  return engine as Engine;
}
