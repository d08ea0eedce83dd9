import { calculateCpu, calculateCpuBatch, CPU_DATASETS } from './cloud/cpu';
import { CpuRequest } from './cloud/cpu.schema';
import { calculateEmbodied, calculateEmbodiedBatch, EMBODIED_DATASETS } from './cloud/embodied';
import { EmbodiedRequest } from './cloud/embodied.schema';
import { calculateInstance, calculateInstanceBatch, INSTANCE_DATASETS } from './cloud/instance';
import { InstanceRequest } from './cloud/instance.schema';
import { calculateMemory, calculateMemoryBatch, MEMORY_DATASETS } from './cloud/memory';
import { MemoryRequest } from './cloud/memory.schema';
import { calculateNetworking, calculateNetworkingBatch, NETWORKING_DATASETS } from './cloud/networking';
import { NetworkingRequest } from './cloud/networking.schema';
import { calculateStorage, calculateStorageBatch, STORAGE_DATASETS } from './cloud/storage';
import { StorageRequest } from './cloud/storage.schema';
import { calculateSpend, calculateSpendBatch, SPEND_PARTS } from './spend/spend';
import { SpendRequest } from './spend/spend.schema';

/**
 * Every calculator, once: its function and batch form, request schema, the dataset parts it reads, and its name on
 * the wire (`/compute/{provider_id}/{route}`). The engine, {@link CALCULATOR_DATASETS} and the adapters (HTTP, CLI,
 * warehouse functions) derive from this table; adding a calculator is one entry here and its own files.
 *
 * `wireFlags`: the per-resource endpoints send `data_quality_flags` as the list's text form (SPEC.md); the instance
 * endpoint sends the list.
 *
 * @example
 * ```ts
 * import { CALCULATORS } from 'co2e-engine';
 * CALCULATORS.cpu.parts; // ['cloudCoefficients', 'cloudRegions']
 * ```
 */
export const CALCULATORS = /* @__PURE__ */ Object.freeze({
  cpu: {
    family: 'cloud',
    name: 'calculateCpu',
    calculate: calculateCpu,
    batch: calculateCpuBatch,
    schema: CpuRequest,
    parts: CPU_DATASETS.parts,
    wireFlags: true,
  },
  memory: {
    family: 'cloud',
    name: 'calculateMemory',
    calculate: calculateMemory,
    batch: calculateMemoryBatch,
    schema: MemoryRequest,
    parts: MEMORY_DATASETS.parts,
    wireFlags: true,
  },
  storage: {
    family: 'cloud',
    name: 'calculateStorage',
    calculate: calculateStorage,
    batch: calculateStorageBatch,
    schema: StorageRequest,
    parts: STORAGE_DATASETS.parts,
    wireFlags: true,
  },
  networking: {
    family: 'cloud',
    name: 'calculateNetworking',
    calculate: calculateNetworking,
    batch: calculateNetworkingBatch,
    schema: NetworkingRequest,
    parts: NETWORKING_DATASETS.parts,
    wireFlags: true,
  },
  embodied: {
    family: 'cloud',
    name: 'calculateEmbodied',
    calculate: calculateEmbodied,
    batch: calculateEmbodiedBatch,
    schema: EmbodiedRequest,
    parts: EMBODIED_DATASETS.parts,
    wireFlags: true,
  },
  instance: {
    family: 'cloud',
    name: 'calculateInstance',
    calculate: calculateInstance,
    batch: calculateInstanceBatch,
    schema: InstanceRequest,
    parts: INSTANCE_DATASETS.parts,
    wireFlags: false,
  },
  spend: {
    family: 'spend',
    name: 'calculateSpend',
    calculate: calculateSpend,
    batch: calculateSpendBatch,
    schema: SpendRequest,
    parts: SPEND_PARTS,
    wireFlags: false,
  },
} as const);

/** The registry's calculators by their wire name (`cpu`, …, `spend`). */
export type CalculatorId = keyof typeof CALCULATORS;

/** The cloud calculators' wire names, in the registry's order. */
export type CloudCalculatorId = {
  [K in CalculatorId]: (typeof CALCULATORS)[K]['family'] extends 'cloud' ? K : never;
}[CalculatorId];

/** The calculators as the library exports them (`calculateCpu`, …). */
export type CalculatorName = (typeof CALCULATORS)[CalculatorId]['name'];
