import { calculateCpu, calculateCpuBatch } from './cloud/cpu';
import { calculateEmbodied, calculateEmbodiedBatch } from './cloud/embodied';
import { calculateInstance, calculateInstanceBatch } from './cloud/instance';
import { calculateMemory, calculateMemoryBatch } from './cloud/memory';
import { calculateNetworking, calculateNetworkingBatch } from './cloud/networking';
import { calculateStorage, calculateStorageBatch } from './cloud/storage';
import type { CalculationOptions } from './core/estimate';
import type { CloudDatasets, Datasets, SpendDatasets } from './datasets/types';
import { calculateSpend, calculateSpendBatch } from './spend/spend';

type Bound<F> = F extends (...args: [...infer Head, infer _Datasets, (infer _Options)?]) => infer R
  ? (...args: [...Head, options?: CalculationOptions]) => R
  : never;

/** Every calculator with the datasets (and default options) bound. */
export interface Engine {
  readonly datasets: Datasets;
  calculateSpend: Bound<typeof calculateSpend>;
  calculateSpendBatch: Bound<typeof calculateSpendBatch>;
  calculateInstance: Bound<typeof calculateInstance>;
  calculateInstanceBatch: Bound<typeof calculateInstanceBatch>;
  calculateCpu: Bound<typeof calculateCpu>;
  calculateCpuBatch: Bound<typeof calculateCpuBatch>;
  calculateMemory: Bound<typeof calculateMemory>;
  calculateMemoryBatch: Bound<typeof calculateMemoryBatch>;
  calculateStorage: Bound<typeof calculateStorage>;
  calculateStorageBatch: Bound<typeof calculateStorageBatch>;
  calculateNetworking: Bound<typeof calculateNetworking>;
  calculateNetworkingBatch: Bound<typeof calculateNetworkingBatch>;
  calculateEmbodied: Bound<typeof calculateEmbodied>;
  calculateEmbodiedBatch: Bound<typeof calculateEmbodiedBatch>;
}

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
  const cloud = datasets as CloudDatasets;
  const spend = datasets as SpendDatasets;
  const merge = (options?: CalculationOptions) => (options ? { ...defaults, ...options } : defaults);
  return {
    datasets,
    calculateSpend: (request, options) => calculateSpend(request, spend, merge(options)),
    calculateSpendBatch: (requests, options) => calculateSpendBatch(requests, spend, merge(options)),
    calculateInstance: (provider, request, options) =>
      calculateInstance(provider, request, cloud, merge(options)),
    calculateInstanceBatch: (provider, requests, options) =>
      calculateInstanceBatch(provider, requests, cloud, merge(options)),
    calculateCpu: (provider, request, options) => calculateCpu(provider, request, cloud, merge(options)),
    calculateCpuBatch: (provider, requests, options) =>
      calculateCpuBatch(provider, requests, cloud, merge(options)),
    calculateMemory: (provider, request, options) =>
      calculateMemory(provider, request, cloud, merge(options)),
    calculateMemoryBatch: (provider, requests, options) =>
      calculateMemoryBatch(provider, requests, cloud, merge(options)),
    calculateStorage: (provider, request, options) =>
      calculateStorage(provider, request, cloud, merge(options)),
    calculateStorageBatch: (provider, requests, options) =>
      calculateStorageBatch(provider, requests, cloud, merge(options)),
    calculateNetworking: (provider, request, options) =>
      calculateNetworking(provider, request, cloud, merge(options)),
    calculateNetworkingBatch: (provider, requests, options) =>
      calculateNetworkingBatch(provider, requests, cloud, merge(options)),
    calculateEmbodied: (provider, request, options) =>
      calculateEmbodied(provider, request, cloud, merge(options)),
    calculateEmbodiedBatch: (provider, requests, options) =>
      calculateEmbodiedBatch(provider, requests, cloud, merge(options)),
  };
}
