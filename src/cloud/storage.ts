import { decimal, mul } from '../core/decimal';
import { unitRatio } from '../core/units';
import type { CloudBatch, CloudCalculator } from './batch';
import type * as z from 'zod/mini';
import { usePhaseForms, type UsePhaseSpec, type WithQuantities } from './use-phase-calculator';
import { USE_PHASE_PARTS } from './resolve';
import { fastGigabyteHours, replicatedGigabyteHours } from './memory';
import { StorageRequest, readStorageRequest } from './storage.schema';

const TB_PER_GB = decimal('0.001');
/** The same ratio for the fast path: dividing by it is within the double-double bound of × 0.001. */
const GB_PER_TB = /* @__PURE__ */ unitRatio(1, 1_000);
const KWH_PER_WH = decimal('0.001');

/** A storage request after its schema, its quantities numbers or exact decimals. */
export type StorageInput = WithQuantities<z.output<typeof StorageRequest>, 'data' | 'duration'>;

/**
 * `calculateStorage` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const STORAGE_USE_PHASE = {
  kind: 'storage',
  datasets: { calculator: 'calculateStorage', parts: USE_PHASE_PARTS },
  schema: StorageRequest,
  read: readStorageRequest,
  activity: (input) => mul(replicatedGigabyteHours(input), TB_PER_GB),
  fastActivity: (input) => fastGigabyteHours(input, GB_PER_TB),
  unit: 'TB-hour',
  energyPerUnit: (coefficients, input) =>
    mul(
      decimal(
        input.storage_type === 'ssd' ? coefficients.ssd_wh_per_tb_hour : coefficients.hdd_wh_per_tb_hour,
      ),
      KWH_PER_WH,
    ),
  variant: (input) => input.storage_type,
  published: (input) => (input.storage_type === 'ssd' ? 'storage_ssd' : 'storage_hdd'),
  naming: (input) => ({ variant: { label: input.storage_type.toUpperCase(), id: input.storage_type } }),
} satisfies UsePhaseSpec<StorageInput, typeof StorageRequest>;

const storage = /* @__PURE__ */ usePhaseForms(STORAGE_USE_PHASE);

/**
 * Use-phase emissions of stored data: activity `TB × hours × replication_factor` in `TB-hour`, factor
 * `{ssd 1.2, hdd 0.65} Wh per TB-hour / 1000 · PUE · grid(region, year)`.
 *
 * @example
 * ```ts
 * calculateStorage('gcp', { region: 'us_central1', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 720 }, defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found`, `invalid_request`.
 */
export const calculateStorage: CloudCalculator<StorageRequest> = storage.calculate;

/** `calculateStorage` for a request already resolved (engine-internal: the billing reader). */
export const storageResolved = storage.resolved;

/**
 * {@link calculateStorage} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateStorageBatch('aws', [{ region: 'us_east_1', storage_type: 'hdd', data: 500, duration: 24 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateStorageBatch: CloudBatch<StorageRequest> = storage.batch;
