import { type Decimal, decimal, mul } from '../core/decimal';
import { gigabytesRatio, hoursRatio, SAME_UNIT, toGigabytes, toHours, type UnitRatio } from '../core/units';
import type { CloudBatch, CloudCalculator } from './batch';
import type * as z from 'zod/mini';
import { exactQuantity, usePhaseForms, type UsePhaseSpec, type WithQuantities } from './use-phase-calculator';
import { decidedProduct } from './fast-activity';
import { USE_PHASE_PARTS } from './resolve';
import { replicated } from './replication';
import { MemoryRequest, readMemoryRequest } from './memory.schema';

/** A memory request after its schema, its quantities numbers or exact decimals. */
export type MemoryInput = WithQuantities<z.output<typeof MemoryRequest>, 'data' | 'duration'>;

/**
 * Data held over time: GB (decimal units, 1 TB = 1000 GB) × hours × the replication factor. Memory's activity, and
 * storage's in TB.
 *
 * @example
 * ```ts
 * replicatedGigabyteHours(input); // 16 GB for 24 h, twice: 768 GB-hour
 * ```
 */
export const replicatedGigabyteHours = (input: MemoryInput): Decimal =>
  replicated(
    mul(
      toGigabytes(exactQuantity(input.data), input.data_unit),
      toHours(exactQuantity(input.duration), input.duration_unit),
    ),
    input.replication_factor,
  );

/**
 * {@link replicatedGigabyteHours} divided by `per` (1000 for TB-hours) as the double nearest the exact decimal,
 * where double-double arithmetic decides it (see {@link decidedProduct}); undefined for the exact path.
 *
 * @example
 * ```ts
 * fastGigabyteHours(input); // 768 for 16 GB over 24 h, twice
 * ```
 */
export const fastGigabyteHours = (input: MemoryInput, per: UnitRatio = SAME_UNIT): number | undefined =>
  decidedProduct(
    input.data,
    gigabytesRatio(input.data_unit),
    input.duration,
    hoursRatio(input.duration_unit),
    input.replication_factor,
    per,
  );

/**
 * `calculateMemory` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const MEMORY_USE_PHASE = {
  kind: 'memory',
  datasets: { calculator: 'calculateMemory', parts: USE_PHASE_PARTS },
  schema: MemoryRequest,
  read: readMemoryRequest,
  activity: (input) => replicatedGigabyteHours(input),
  fastActivity: (input) => fastGigabyteHours(input),
  unit: 'GB-hour',
  energyPerUnit: (coefficients) => decimal(coefficients.memory_kwh_per_gb_hour),
  published: () => 'memory',
} satisfies UsePhaseSpec<MemoryInput, typeof MemoryRequest>;

const memory = /* @__PURE__ */ usePhaseForms(MEMORY_USE_PHASE);

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
export const calculateMemory: CloudCalculator<MemoryRequest> = memory.calculate;

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
export const calculateMemoryBatch: CloudBatch<MemoryRequest> = memory.batch;
