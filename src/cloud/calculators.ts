import { deepFreeze } from '../core/freeze';
import { calculateCpu, calculateCpuBatch, CPU_USE_PHASE, cpuResolved } from './cpu';
import { CpuRequest } from './cpu.schema';
import { calculateEmbodied, calculateEmbodiedBatch, EMBODIED_DATASETS } from './embodied';
import { EmbodiedRequest } from './embodied.schema';
import { calculateInstance, calculateInstanceBatch, INSTANCE_DATASETS, instanceResolved } from './instance';
import { InstanceRequest } from './instance.schema';
import { calculateMemory, calculateMemoryBatch, MEMORY_USE_PHASE, memoryResolved } from './memory';
import { MemoryRequest } from './memory.schema';
import {
  calculateNetworking,
  calculateNetworkingBatch,
  NETWORKING_USE_PHASE,
  networkingResolved,
} from './networking';
import { NetworkingRequest } from './networking.schema';
import { calculateStorage, calculateStorageBatch, STORAGE_USE_PHASE, storageResolved } from './storage';
import { StorageRequest } from './storage.schema';

/**
 * The cloud calculators, once each: function, batch form, request schema, the dataset parts it reads, and its name
 * on the wire (`/compute/{provider_id}/{id}`, the CLI's and the warehouse function's `calculator`). Part of the
 * registry `CALCULATORS` (src/calculators.ts); the cloud adapters (CLI, warehouse functions) read this half alone, so
 * a cloud-only bundle carries no spend code.
 *
 * `wireFlags`: the per-resource endpoints send `data_quality_flags` as the list's text form (SPEC.md); the instance
 * endpoint sends the list. `path`: the HTTP route (`/batch` after it for the batch form); `summary`: its one-line
 * description in openapi.json.
 *
 * `resolved` (engine-internal, not part of the API): the calculator for a request whose provider and region record
 * the caller has resolved and whose quantities may be exact decimals; the billing reader sends each classified line
 * to the calculator whose entry has one.
 *
 * @example
 * ```ts
 * CLOUD_CALCULATORS.cpu.parts; // ['cloudCoefficients', 'cloudRegions']
 * ```
 */
export const CLOUD_CALCULATORS = /* @__PURE__ */ deepFreeze({
  cpu: {
    family: 'cloud',
    name: 'calculateCpu',
    calculate: calculateCpu,
    batch: calculateCpuBatch,
    schema: CpuRequest,
    parts: CPU_USE_PHASE.datasets.parts,
    path: '/compute/{provider_id}/cpu',
    summary: 'vCPU use-phase electricity.',
    wireFlags: true,
    resolved: cpuResolved,
  },
  memory: {
    family: 'cloud',
    name: 'calculateMemory',
    calculate: calculateMemory,
    batch: calculateMemoryBatch,
    schema: MemoryRequest,
    parts: MEMORY_USE_PHASE.datasets.parts,
    path: '/compute/{provider_id}/memory',
    summary: 'Memory use-phase electricity.',
    wireFlags: true,
    resolved: memoryResolved,
  },
  storage: {
    family: 'cloud',
    name: 'calculateStorage',
    calculate: calculateStorage,
    batch: calculateStorageBatch,
    schema: StorageRequest,
    parts: STORAGE_USE_PHASE.datasets.parts,
    path: '/compute/{provider_id}/storage',
    summary: 'SSD or HDD storage use-phase electricity.',
    wireFlags: true,
    resolved: storageResolved,
  },
  networking: {
    family: 'cloud',
    name: 'calculateNetworking',
    calculate: calculateNetworking,
    batch: calculateNetworkingBatch,
    schema: NetworkingRequest,
    parts: NETWORKING_USE_PHASE.datasets.parts,
    path: '/compute/{provider_id}/networking',
    summary: 'Data transferred between data centres.',
    wireFlags: true,
    resolved: networkingResolved,
  },
  embodied: {
    family: 'cloud',
    name: 'calculateEmbodied',
    calculate: calculateEmbodied,
    batch: calculateEmbodiedBatch,
    schema: EmbodiedRequest,
    parts: EMBODIED_DATASETS.parts,
    path: '/compute/{provider_id}/embodied',
    summary: 'Embodied (manufacturing) emissions of the CPUs of instances.',
    wireFlags: true,
  },
  instance: {
    family: 'cloud',
    name: 'calculateInstance',
    calculate: calculateInstance,
    batch: calculateInstanceBatch,
    schema: InstanceRequest,
    parts: INSTANCE_DATASETS.parts,
    path: '/compute/{provider_id}/instance',
    summary: 'A whole virtual machine: CPU, memory and embodied CPU.',
    wireFlags: false,
    resolved: instanceResolved,
  },
} as const);

/** A cloud calculator's wire name: `cpu`, `memory`, `storage`, `networking`, `embodied`, `instance`. */
export type CloudCalculatorId = keyof typeof CLOUD_CALCULATORS;

/** The cloud calculators' wire names, in the registry's order. */
export const CLOUD_CALCULATOR_IDS: readonly CloudCalculatorId[] = /* @__PURE__ */ deepFreeze(
  Object.keys(CLOUD_CALCULATORS) as CloudCalculatorId[],
);

/** The cloud calculators with a `resolved` entry (those a bill line can be sent to). */
export type ResolvedCalculatorId = {
  [K in CloudCalculatorId]: 'resolved' extends keyof (typeof CLOUD_CALCULATORS)[K] ? K : never;
}[CloudCalculatorId];

/** {@link ResolvedCalculatorId}s in the registry's order: `cpu`, `memory`, `storage`, `networking`, `instance`. */
export const RESOLVED_CALCULATOR_IDS: readonly ResolvedCalculatorId[] = /* @__PURE__ */ deepFreeze(
  CLOUD_CALCULATOR_IDS.filter((id): id is ResolvedCalculatorId => 'resolved' in CLOUD_CALCULATORS[id]),
);
