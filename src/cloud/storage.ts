import { runBatch } from '../core/batch';
import { decimal, div, mul } from '../core/decimal';
import type { ErrorBody } from '../core/errors';
import { buildEstimate, type CalculationOptions, type Estimate } from '../core/estimate';
import { toGigabytes, toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import type { CloudDatasets } from '../datasets/types';
import { gridFactor, gridMethod, resolveProvider, resolveRegion, usePhaseFactor, usePhaseMetadata } from './common';
import { StorageRequest } from './storage.schema';

const GB_PER_TB = decimal(1000);
const WH_PER_KWH = decimal(1000);

/**
 * Use-phase emissions of stored data: activity `TB × hours` in `TB-hour`, factor
 * `{ssd 1.2, hdd 0.65} Wh per TB-hour / 1000 · PUE · grid(region, year)`.
 *
 * @example
 * ```ts
 * calculateStorage('gcp', { region: 'us_central1', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 720 }, defaultDatasets);
 * ```
 * @throws {EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found`, `invalid_request`.
 */
export function calculateStorage(
  provider: string,
  request: StorageRequest,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Estimate {
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input = parseRequest(StorageRequest, request);
  const region = resolveRegion(id, input.region, datasets);
  const year = input.year ?? datasets.cloudRegions.defaultYear;
  const terabytes = div(toGigabytes(decimal(input.data), input.data_unit), GB_PER_TB);
  const whPerTbHour = input.storage_type === 'ssd' ? coefficients.ssd_wh_per_tb_hour : coefficients.hdd_wh_per_tb_hour;
  const variant = { label: input.storage_type.toUpperCase(), id: input.storage_type };
  return buildEstimate(
    {
      activityValue: mul(terabytes, toHours(decimal(input.duration), input.duration_unit)),
      activityUnit: 'TB-hour',
      factor: usePhaseFactor(div(decimal(whPerTbHour), WH_PER_KWH), coefficients, gridFactor(region, year)),
      metadata: usePhaseMetadata('storage', id, region, year, datasets, variant),
      method: gridMethod(datasets),
      origin: 'source',
      auditTrail: input.audit_trail,
    },
    options,
  );
}

/**
 * {@link calculateStorage} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateStorageBatch('aws', [{ region: 'us_east_1', storage_type: 'hdd', data: 500, duration: 24 }], defaultDatasets);
 * ```
 * @throws {EmissionsError} `invalid_request` when `requests` is not an array.
 */
export function calculateStorageBatch(
  provider: string,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Array<Estimate | ErrorBody> {
  return runBatch(requests, (request) => calculateStorage(provider, request as StorageRequest, datasets, options));
}
