/**
 * co2e-engine: offline, decimal-exact carbon estimates for procurement spend and cloud computing.
 * This entry holds what an app calls: the calculators, the engine, the errors and the types. It holds no data:
 * embedded defaults are in `co2e-engine/datasets`; the request and table schemas, with the vocabulary they accept,
 * in `co2e-engine/schemas`.
 *
 * @packageDocumentation
 */
export { calculateCpu, calculateCpuBatch } from './cloud/cpu';
export type { CpuRequest } from './cloud/cpu.schema';
export { calculateMemory, calculateMemoryBatch } from './cloud/memory';
export type { MemoryRequest } from './cloud/memory.schema';
export { calculateStorage, calculateStorageBatch } from './cloud/storage';
export type { StorageRequest } from './cloud/storage.schema';
export { calculateNetworking, calculateNetworkingBatch } from './cloud/networking';
export type { NetworkingRequest } from './cloud/networking.schema';
export { calculateEmbodied, calculateEmbodiedBatch } from './cloud/embodied';
export type { EmbodiedRequest } from './cloud/embodied.schema';
export {
  calculateInstance,
  calculateInstanceBatch,
  type InstanceCalculationDetails,
  type InstanceEstimate,
} from './cloud/instance';
export type { InstanceRequest } from './cloud/instance.schema';
export type * from './cloud/spellings';
export type { CloudBatch, CloudCalculator } from './cloud/batch';
export type { AnyCase } from './core/any-case';
export {
  calculateSpend,
  calculateSpendBatch,
  type Notice,
  type ProductShare,
  type SpendCalculationDetails,
  type SpendEstimate,
} from './spend/spend';
export type { ClassificationType, ClassificationTypeSpelling, SpendRequest } from './spend/spend.schema';
export type { RestOfWorldRegion } from './spend/exiobase-regions';
export type { SpendRegionCoverage } from './spend/coverage';
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
export type { DataUnit, DataUnitSpelling, DurationUnit, DurationUnitSpelling } from './core/units';
export { createTableDatasets, type DatasetTables } from './datasets/create';
export { mergeDatasets } from './datasets/merge';
export {
  listCapabilities,
  type Capabilities,
  type CloudProviderCapability,
  type CodeCapability,
  type RegionCapability,
} from './capabilities';
export { DatasetError, type DatasetProblem } from './datasets/errors';
export { CALCULATOR_DATASETS, type CalculatorName, type DatasetPart } from './calculator-datasets';
export { CALCULATORS, type CalculatorId, type CloudCalculatorId } from './calculators';
export type {
  ClassificationsTable,
  CloudCoefficientsTable,
  CloudInstancesTable,
  CloudProvider,
  CloudRegionsTable,
  DatasetInfo,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsGrid,
  SpendFactorsTable,
} from './datasets/tables';
export type * from './datasets/types';
