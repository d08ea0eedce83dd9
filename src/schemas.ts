/**
 * `co2e-engine/schemas`: the zod schemas of the requests and of the dataset tables, and the vocabulary they accept
 * (units, providers, GWP methods, the largest quantity). Each schema and the type of what it accepts share one name
 * (`CpuRequest`, `FxTable`). Holds no data, so validating an app's own table loads no embedded one.
 *
 * @example
 * ```ts
 * import { CpuRequest, DURATION_UNITS } from 'co2e-engine/schemas';
 * CpuRequest.safeParse({ cpu_count: 4, region: 'us_east_1', duration: 1 }).success; // true
 * DURATION_UNITS; // ['hour', 'min', 'sec', 'ms', 'day']
 * ```
 *
 * @packageDocumentation
 */
export { CpuRequest } from './cloud/cpu.schema';
export { MemoryRequest } from './cloud/memory.schema';
export { StorageRequest } from './cloud/storage.schema';
export { NetworkingRequest } from './cloud/networking.schema';
export { EmbodiedRequest } from './cloud/embodied.schema';
export { InstanceRequest } from './cloud/instance.schema';
export { SpendRequest } from './spend/spend.schema';
export { DATA_UNITS, DURATION_UNITS } from './core/units';
export { MAX_QUANTITY } from './core/validate';
export { CLOUD_PROVIDER_NAMES } from './capabilities';
export * from './datasets/tables';
