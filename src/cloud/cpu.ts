import { runBatch } from '../core/batch';
import { decimal, mul } from '../core/decimal';
import type { ErrorBody } from '../core/errors';
import { buildEstimate, type CalculationOptions, type Estimate } from '../core/estimate';
import { toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import type { CloudDatasets } from '../datasets/types';
import { gridFactor, gridMethod, kwhPerVcpuHour, resolveProvider, resolveRegion, usePhaseFactor, usePhaseMetadata } from './common';
import { CpuRequest } from './cpu.schema';

/**
 * Use-phase emissions of virtual CPUs: activity `cpu_count × hours` in `CPU-hour`, factor
 * `(Wmin + u·(Wmax − Wmin)) · PUE / 1000 · grid(region, year)` kg per CPU-hour.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const estimate = calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, defaultDatasets);
 * estimate.co2e; // kg CO2e
 * ```
 * @throws {EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found` (year),
 *   `invalid_request` (anything else malformed).
 */
export function calculateCpu(
  provider: string,
  request: CpuRequest,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Estimate {
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input = parseRequest(CpuRequest, request);
  const region = resolveRegion(id, input.region, datasets);
  const year = input.year ?? datasets.cloudRegions.defaultYear;
  const utilization = decimal(input.average_vcpu_utilization);
  const factor = usePhaseFactor(kwhPerVcpuHour(coefficients, utilization), coefficients, gridFactor(region, year));
  return buildEstimate(
    {
      activityValue: mul(decimal(input.cpu_count), toHours(decimal(input.duration), input.duration_unit)),
      activityUnit: 'CPU-hour',
      factor,
      metadata: usePhaseMetadata('cpu', id, region, year, datasets, undefined, `u=${input.average_vcpu_utilization}`),
      method: gridMethod(datasets),
      origin: 'source',
      auditTrail: input.audit_trail,
    },
    options,
  );
}

/**
 * {@link calculateCpu} for each request, in order; a bad request becomes its error body and the rest are computed.
 *
 * @example
 * ```ts
 * calculateCpuBatch('gcp', [{ cpu_count: 2, region: 'europe_west1', duration: 3 }], defaultDatasets);
 * ```
 * @throws {EmissionsError} `invalid_request` when `requests` is not an array.
 */
export function calculateCpuBatch(
  provider: string,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Array<Estimate | ErrorBody> {
  return runBatch(requests, (request) => calculateCpu(provider, request as CpuRequest, datasets, options));
}
