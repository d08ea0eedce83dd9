/**
 * co2e-engine: offline, decimal-exact carbon estimates for procurement spend and cloud computing.
 * This entry holds no data; embedded defaults are in `co2e-engine/datasets`.
 *
 * @packageDocumentation
 */
export { calculateCpu, calculateCpuBatch } from './cloud/cpu';
export { CpuRequest } from './cloud/cpu.schema';
export { calculateMemory, calculateMemoryBatch } from './cloud/memory';
export { MemoryRequest } from './cloud/memory.schema';
export { calculateStorage, calculateStorageBatch } from './cloud/storage';
export { StorageRequest } from './cloud/storage.schema';
export { calculateNetworking, calculateNetworkingBatch } from './cloud/networking';
export { NetworkingRequest } from './cloud/networking.schema';
export { calculateEmbodied, calculateEmbodiedBatch } from './cloud/embodied';
export { EmbodiedRequest } from './cloud/embodied.schema';
export {
  calculateInstance,
  calculateInstanceBatch,
  type InstanceCalculationDetails,
  type InstanceEstimate,
} from './cloud/instance';
export { InstanceRequest } from './cloud/instance.schema';
export type {
  CloudInstanceSpelling,
  CloudProviderSpelling,
  CloudRegionSpelling,
  KnownAwsInstance,
  KnownAwsRegion,
  KnownAzureInstance,
  KnownAzureRegion,
  KnownGcpInstance,
  KnownGcpRegion,
  StorageType,
  StorageTypeSpelling,
} from './cloud/spellings';
export type { AnyCase } from './core/any-case';
export {
  calculateSpend,
  calculateSpendBatch,
  type Notice,
  type ProductShare,
  type SpendCalculationDetails,
  type SpendEstimate,
} from './spend/spend';
export { type ClassificationType, type ClassificationTypeSpelling, SpendRequest } from './spend/spend.schema';
export {
  EXIOBASE_COUNTRIES,
  exiobaseRegionOf,
  REGION_ALIASES,
  REST_OF_WORLD_COUNTRIES,
  REST_OF_WORLD_REGIONS,
  type RestOfWorldRegion,
} from './spend/exiobase-regions';
export { coverageRows, spendCoverage, type SpendRegionCoverage } from './spend/coverage';
export { createEngine, type Engine } from './engine';
export { EmissionsError, ERROR_CODES, type ErrorBody, type ErrorCode } from './core/errors';
export { isErrorBody } from './core/batch';
export type {
  ActivityData,
  CalculationMethod,
  CalculationOptions,
  ConstituentGases,
  EmissionFactor,
  Estimate,
} from './core/estimate';
export {
  DATA_UNITS,
  DURATION_UNITS,
  type DataUnit,
  type DataUnitSpelling,
  type DurationUnit,
  type DurationUnitSpelling,
} from './core/units';
export { MAX_QUANTITY } from './core/validate';
export { createTableDatasets, type DatasetTables } from './datasets/create';
export { mergeDatasets } from './datasets/merge';
export {
  CLOUD_PROVIDER_NAMES,
  listCapabilities,
  type Capabilities,
  type CloudProviderCapability,
  type CodeCapability,
  type RegionCapability,
} from './capabilities';
export { DatasetError } from './datasets/errors';
export { CALCULATOR_DATASETS, type CalculatorName, type DatasetPart } from './calculator-datasets';
export { CALCULATORS, type CalculatorId, type CloudCalculatorId } from './calculators';
export * from './datasets/tables';
export type * from './datasets/types';
