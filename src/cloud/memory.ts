import { decimal, mul } from '../core/decimal';
import { toGigabytes, toHours } from '../core/units';
import type { CalculationOptions, Estimate } from '../core/estimate';
import type { CalculatorDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { type CloudBatch, cloudBatch } from './batch';
import type { CloudProviderSpelling } from './spellings';
import { USE_PHASE_PARTS } from './resolve';
import type * as z from 'zod/mini';
import { exactQuantity, type Quantity, usePhaseCalculator, type UsePhaseSpec } from './use-phase-calculator';
import { replicated } from './replication';
import { MemoryRequest } from './memory.schema';

/** The dataset parts `calculateMemory` reads: the provider coefficients and the region grid factors. */
export const MEMORY_DATASETS = {
  calculator: 'calculateMemory',
  parts: USE_PHASE_PARTS,
} as const satisfies CalculatorDatasets;

/** A memory request after its schema, its quantities numbers or exact decimals. */
export type MemoryInput = Omit<z.output<typeof MemoryRequest>, 'data' | 'duration'> & {
  data: Quantity;
  duration: Quantity;
};

/**
 * `calculateMemory` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const MEMORY_USE_PHASE = {
  kind: 'memory',
  datasets: MEMORY_DATASETS,
  schema: MemoryRequest,
  unit: 'GB-hour',
  activity: (input) =>
    replicated(
      mul(
        toGigabytes(exactQuantity(input.data), input.data_unit),
        toHours(exactQuantity(input.duration), input.duration_unit),
      ),
      input.replication_factor,
    ),
  energyPerUnit: (coefficients) => decimal(coefficients.memory_kwh_per_gb_hour),
  published: () => 'memory',
} satisfies UsePhaseSpec<MemoryInput, typeof MemoryRequest>;

const memory = /* @__PURE__ */ usePhaseCalculator(MEMORY_USE_PHASE);

/**
 * Use-phase emissions of allocated memory: activity `GB × hours × replication_factor` in `GB-hour` (decimal units, 1 TB = 1000 GB),
 * factor `memory kWh per GB-hour · PUE · grid(region, year)`.
 *
 * @example
 * ```ts
 * calculateMemory('aws', { region: 'eu_central_1', data: 16, data_unit: 'GB', duration: 24 }, defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found`, `invalid_request`.
 */
export function calculateMemory<P extends CloudProviderSpelling>(
  provider: P,
  request: MemoryRequest<P>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Estimate {
  return memory.calculate(provider, request, datasets, options);
}

/** `calculateMemory` for a request already resolved (engine-internal: the billing reader). */
export const memoryResolved = memory.resolved;

/**
 * {@link calculateMemory} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateMemoryBatch('azure', [{ region: 'westeurope', data: 8, duration: 1 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateMemoryBatch: CloudBatch<MemoryRequest, Estimate> = cloudBatch(
  calculateMemory,
  MEMORY_DATASETS,
);
