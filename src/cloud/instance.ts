import { runBatch } from '../core/batch';
import { add, decimal, mul } from '../core/decimal';
import type { ErrorBody } from '../core/errors';
import { type CalculationOptions, type Estimate, buildEstimate, estimateFromCo2e, outputNumber } from '../core/estimate';
import { gibibytesToGigabytes, toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import type { CloudDatasets } from '../datasets/types';
import {
  embodiedMetadata,
  embodiedYear,
  gridFactor,
  gridMetadata,
  gridMethod,
  kwhPerVcpuHour,
  resolveInstance,
  resolveProvider,
  resolveRegion,
} from './common';
import { embodiedCo2e } from './embodied-factor';
import { InstanceRequest } from './instance.schema';

/** How the virtual-machine estimate was made. */
export interface InstanceCalculationDetails {
  /** Instance type as requested. */
  instance: string;
  /** Memory of the instance in GB (the provider's GiB × 1.073741824). */
  instance_memory: number;
  memory_unit: 'GB';
  vcpu_cores: number;
  average_vcpu_utilization: number;
  power_usage_effectiveness: number;
  /** CPU electricity, kWh. */
  energy_used_cpu: number;
  /** Memory electricity, kWh. */
  energy_used_memory: number;
  energy_unit: 'kWh';
}

/** Result of {@link calculateInstance}: SPEC.md's "Virtual machine" response. */
export interface InstanceEstimate {
  /** Sum of the three estimates' co2e, kg. */
  total_co2e: number;
  total_co2e_unit: 'kg';
  memory_estimate: Estimate;
  cpu_estimate: Estimate;
  embodied_cpu_estimate: Estimate;
  calculation_details: InstanceCalculationDetails;
}

/**
 * A whole virtual machine: CPU and memory electricity (kWh, each × the grid factor of the region and year) and
 * embodied CPU emissions (instance-hours), with their sum. Memory is charged in full.
 *
 * @example
 * ```ts
 * const vm = calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' }, defaultDatasets);
 * vm.calculation_details.energy_used_cpu; // 0.0024062 kWh
 * ```
 * @throws {EmissionsError} `unsupported_provider`, `unknown_instance`, `unknown_region`,
 *   `no_emission_factors_found` (year), `invalid_request`.
 */
export function calculateInstance(
  provider: string,
  request: InstanceRequest,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): InstanceEstimate {
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input = parseRequest(InstanceRequest, request);
  const instance = resolveInstance(id, input.instance, datasets);
  const region = resolveRegion(id, input.region, datasets);
  const electricityYear = input.year ?? datasets.cloudRegions.defaultYear;
  const grid = gridFactor(region, electricityYear);
  const hours = toHours(decimal(input.duration), input.duration_unit);
  const pue = decimal(coefficients.pue);

  const utilization = decimal(input.average_vcpu_utilization);
  const energyCpu = mul(mul(mul(decimal(instance.vcpu), hours), kwhPerVcpuHour(coefficients, utilization)), pue);
  const memoryGigabytes = gibibytesToGigabytes(decimal(instance.memory_gib));
  const energyMemory = mul(mul(mul(memoryGigabytes, hours), decimal(coefficients.memory_kwh_per_gb_hour)), pue);

  const electricity = {
    activityUnit: 'kWh',
    factor: grid,
    metadata: gridMetadata(id, region, electricityYear, datasets),
    method: gridMethod(datasets),
    origin: 'co2e-engine',
    auditTrail: input.audit_trail,
  } as const;
  const cpuEstimate = buildEstimate({ ...electricity, activityValue: energyCpu }, options);
  const memoryEstimate = buildEstimate({ ...electricity, activityValue: energyMemory }, options);

  const embodied = embodiedCo2e(hours, instance, coefficients);
  const embodiedEstimate = estimateFromCo2e(
    embodied.co2e,
    {
      activityValue: hours,
      activityUnit: 'instance-hour',
      factor: embodied.factor,
      metadata: embodiedMetadata(id, instance, embodiedYear(input.year, datasets), datasets),
      method: datasets.cloudInstances.gwp,
      origin: 'source',
      auditTrail: input.audit_trail,
    },
    options,
  );

  const total = add(add(mul(energyCpu, grid), mul(energyMemory, grid)), embodied.co2e);
  return {
    total_co2e: outputNumber(total, options),
    total_co2e_unit: 'kg',
    memory_estimate: memoryEstimate,
    cpu_estimate: cpuEstimate,
    embodied_cpu_estimate: embodiedEstimate,
    calculation_details: {
      instance: input.instance,
      instance_memory: outputNumber(memoryGigabytes, options),
      memory_unit: 'GB',
      vcpu_cores: instance.vcpu,
      average_vcpu_utilization: input.average_vcpu_utilization,
      power_usage_effectiveness: coefficients.pue,
      energy_used_cpu: outputNumber(energyCpu, options),
      energy_used_memory: outputNumber(energyMemory, options),
      energy_unit: 'kWh',
    },
  };
}

/**
 * {@link calculateInstance} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateInstanceBatch('gcp', [{ instance: 'e2-standard-2', region: 'europe_west1', duration: 24 }], defaultDatasets);
 * ```
 * @throws {EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export function calculateInstanceBatch(
  provider: string,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Array<InstanceEstimate | ErrorBody> {
  // The provider is a path parameter: a bad one fails the whole batch once, not every element.
  resolveProvider(provider, datasets);
  return runBatch(requests, (request) => calculateInstance(provider, request as InstanceRequest, datasets, options));
}
