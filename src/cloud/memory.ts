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
import { MemoryRequest } from './memory.schema';

/** The dataset parts `calculateMemory` reads: the provider coefficients and the region grid factors. */
export const MEMORY_DATASETS = {
  calculator: 'calculateMemory',
  parts: USE_PHASE_PARTS,
} as const satisfies CalculatorDatasets;

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
  const {
    provider: id,
    coefficients,
    input,
    region,
    year,
  } = resolveUsePhaseRequest(provider, MemoryRequest, request, datasets, MEMORY_DATASETS);
  const factor = cachedCloudFactor(
    datasets,
    ['memory', id, region.region, year],
    () =>
      publishedFactor(region, 'memory', year, datasets) ?? {
        factor: usePhaseFactor(
          decimal(coefficients.memory_kwh_per_gb_hour),
          coefficients,
          gridFactor(region, year),
          region,
        ),
        metadata: usePhaseMetadata('memory', id, region, year, datasets),
      },
  );
  const gigabytes = toGigabytes(decimal(input.data), input.data_unit);
  return echoReplication(
    usePhaseEstimate(
      replicated(
        mul(gigabytes, toHours(decimal(input.duration), input.duration_unit)),
        input.replication_factor,
      ),
      'GB-hour',
      factor,
      input.audit_trail,
      datasets,
      options,
    ),
    input.replication_factor,
  );
}

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
