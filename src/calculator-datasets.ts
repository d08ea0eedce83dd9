import { type CalculatorName, CALCULATORS } from './calculators';
import { deepFreeze } from './core/freeze';
import type { DatasetPart } from './datasets/require';

export type { DatasetPart } from './datasets/require';
export type { CalculatorName } from './calculators';

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
  /* @__PURE__ */ partsByName();

function partsByName(): Readonly<Record<CalculatorName, readonly DatasetPart[]>> {
  const byName: Partial<Record<CalculatorName, readonly DatasetPart[]>> = {};
  for (const { name, parts } of Object.values(CALCULATORS)) byName[name] = parts;
  return deepFreeze(byName as Record<CalculatorName, readonly DatasetPart[]>);
}
