import { decimal, mul } from '../core/decimal';
import type { CalculationOptions, Estimate } from '../core/estimate';
import { toGigabytes, toHours } from '../core/units';
import type { CalculatorDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { type CloudBatch, cloudBatch } from './batch';
import { echoReplication, replicated } from './replication';
import type { CloudProviderSpelling } from './spellings';
import { usePhaseEstimate } from './estimate';
import {
  cachedCloudFactor,
  gridFactor,
  publishedFactor,
  usePhaseFactor,
  usePhaseMetadata,
} from './factors/use-phase';
import { resolveUsePhaseRequest, USE_PHASE_PARTS } from './resolve';
import { StorageRequest } from './storage.schema';

const TB_PER_GB = decimal('0.001');
const KWH_PER_WH = decimal('0.001');

/** The dataset parts `calculateStorage` reads: the provider coefficients and the region grid factors. */
export const STORAGE_DATASETS = {
  calculator: 'calculateStorage',
  parts: USE_PHASE_PARTS,
} as const satisfies CalculatorDatasets;

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
export function calculateStorage<P extends CloudProviderSpelling>(
  provider: P,
  request: StorageRequest<P>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Estimate {
  const {
    provider: id,
    coefficients,
    input,
    region,
    year,
  } = resolveUsePhaseRequest(provider, StorageRequest, request, datasets, STORAGE_DATASETS);
  const type = input.storage_type;
  const factor = cachedCloudFactor(datasets, ['storage', id, region.region, year, type], () => {
    const published = publishedFactor(region, type === 'ssd' ? 'storage_ssd' : 'storage_hdd', year, datasets);
    if (published !== undefined) return published;
    const whPerTbHour = type === 'ssd' ? coefficients.ssd_wh_per_tb_hour : coefficients.hdd_wh_per_tb_hour;
    return {
      factor: usePhaseFactor(
        mul(decimal(whPerTbHour), KWH_PER_WH),
        coefficients,
        gridFactor(region, year),
        region,
      ),
      metadata: usePhaseMetadata('storage', id, region, year, datasets, {
        label: type.toUpperCase(),
        id: type,
      }),
    };
  });
  const terabytes = mul(toGigabytes(decimal(input.data), input.data_unit), TB_PER_GB);
  return echoReplication(
    usePhaseEstimate(
      replicated(
        mul(terabytes, toHours(decimal(input.duration), input.duration_unit)),
        input.replication_factor,
      ),
      'TB-hour',
      factor,
      input.audit_trail,
      datasets,
      options,
    ),
    input.replication_factor,
  );
}

/**
 * {@link calculateStorage} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateStorageBatch('aws', [{ region: 'us_east_1', storage_type: 'hdd', data: 500, duration: 24 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateStorageBatch: CloudBatch<StorageRequest, Estimate> = cloudBatch(
  calculateStorage,
  STORAGE_DATASETS,
);
