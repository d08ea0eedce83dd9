import { CLOUD_CALCULATORS } from './cloud/calculators';
import { deepFreeze } from './core/freeze';
import { calculateSpend, calculateSpendBatch, SPEND_PARTS } from './spend/spend';
import { SpendRequest } from './spend/spend.schema';

/**
 * Every calculator, once: its function and batch form, request schema, the dataset parts it reads, and its name on
 * the wire (`/compute/{provider_id}/{route}`). The engine, {@link CALCULATOR_DATASETS} and the adapters (HTTP, CLI,
 * warehouse functions) derive from this table; adding a calculator is one entry here (a cloud one in
 * `src/cloud/calculators.ts`) and its own files.
 *
 * `wireFlags`: the per-resource endpoints send `data_quality_flags` as the list's text form (SPEC.md); the instance
 * endpoint sends the list. `path`: the HTTP route (`/batch` after it for the batch form); `summary` (and
 * `batchSummary` where the batch's is not the summary and a sentence on batches): its description in openapi.json.
 *
 * @example
 * ```ts
 * import { CALCULATORS } from 'co2e-engine';
 * CALCULATORS.cpu.parts; // ['cloudCoefficients', 'cloudRegions']
 * ```
 */
export const CALCULATORS = /* @__PURE__ */ deepFreeze({
  ...CLOUD_CALCULATORS,
  spend: {
    family: 'spend',
    name: 'calculateSpend',
    calculate: calculateSpend,
    batch: calculateSpendBatch,
    schema: SpendRequest,
    parts: SPEND_PARTS,
    wireFlags: false,
    path: '/procurement/spend',
    summary: 'Procurement spend (GHG Protocol Scope 3 category 1), spend-based.',
    batchSummary: 'Procurement spend, a batch: results in request order, a failed element is its error body.',
  },
} as const);

/** The registry's calculators by their wire name (`cpu`, …, `spend`). */
export type CalculatorId = keyof typeof CALCULATORS;

export type { CloudCalculatorId } from './cloud/calculators';

/** The calculators as the library exports them (`calculateCpu`, …). */
export type CalculatorName = (typeof CALCULATORS)[CalculatorId]['name'];
