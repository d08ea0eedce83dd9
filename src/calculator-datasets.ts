import { deepFreeze } from './core/freeze';
import { CPU_DATASETS } from './cloud/cpu';
import { EMBODIED_DATASETS } from './cloud/embodied';
import { INSTANCE_DATASETS } from './cloud/instance';
import { MEMORY_DATASETS } from './cloud/memory';
import { NETWORKING_DATASETS } from './cloud/networking';
import { STORAGE_DATASETS } from './cloud/storage';
import type { DatasetPart } from './datasets/require';
import { SPEND_PARTS } from './spend/spend';

export type { DatasetPart } from './datasets/require';

/** The calculators of {@link CALCULATOR_DATASETS}. */
export type CalculatorName =
  | 'calculateCpu'
  | 'calculateMemory'
  | 'calculateStorage'
  | 'calculateNetworking'
  | 'calculateEmbodied'
  | 'calculateInstance'
  | 'calculateSpend';

/**
 * The dataset parts each calculator reads, as each declares them (its `…_DATASETS`). Load only these for the
 * calculators an app uses; a call whose datasets lack one throws `EmissionsError` `missing_dataset` (status 500)
 * naming the calculator and the part. The batch form of each reads the same parts.
 *
 * @example
 * ```ts
 * import { CALCULATOR_DATASETS } from 'co2e-engine';
 * CALCULATOR_DATASETS.calculateCpu; // ['cloudCoefficients', 'cloudRegions']: no instance table
 * ```
 */
export const CALCULATOR_DATASETS: Readonly<Record<CalculatorName, readonly DatasetPart[]>> =
  /* @__PURE__ */ deepFreeze({
    calculateCpu: CPU_DATASETS.parts,
    calculateMemory: MEMORY_DATASETS.parts,
    calculateStorage: STORAGE_DATASETS.parts,
    calculateNetworking: NETWORKING_DATASETS.parts,
    calculateEmbodied: EMBODIED_DATASETS.parts,
    calculateInstance: INSTANCE_DATASETS.parts,
    calculateSpend: SPEND_PARTS,
  });
