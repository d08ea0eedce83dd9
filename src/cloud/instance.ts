import { type Decimal, add, decimal, mul } from '../core/decimal';
import {
  type CalculationOptions,
  type Estimate,
  type FactorMetadata,
  estimateFromCo2e,
  outputNumber,
  sharedNumber,
} from '../core/estimate';
import { createMemo } from '../core/memo';
import { gibibytesToGigabytes, toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { type CloudBatch, cloudBatch } from './batch';
import type { CloudProviderSpelling } from './spellings';
import { gridMethod } from './factors/provenance';
import { gridFactor, gridMetadata, kwhPerVcpuHour } from './factors/use-phase';
import { embodiedYear, resolveInstance, resolveProvider, resolveRegion } from './resolve';
import { embodiedCo2e, type EmbodiedFactor, embodiedFactor } from './factors/embodied';
import { InstanceRequest } from './instance.schema';

/** What an instance estimate needs besides the duration, derived once per instance, region, years and load. */
interface Machine {
  grid: Decimal;
  gridMetadata: FactorMetadata;
  /** CPU kWh per hour of running, PUE included. */
  cpuKwhPerHour: Decimal;
  /** Memory kWh per hour of running, PUE included. */
  memoryKwhPerHour: Decimal;
  memoryGigabytes: Decimal;
  embodied: EmbodiedFactor;
}

const machines = createMemo<Machine>();

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

/** The dataset parts `calculateInstance` reads: coefficients, region grid factors and the instance table. */
export const INSTANCE_DATASETS = {
  calculator: 'calculateInstance',
  parts: ['cloudCoefficients', 'cloudRegions', 'cloudInstances'],
} as const satisfies CalculatorDatasets;

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
 *   `no_emission_factors_found` (year), `invalid_request`; `missing_dataset` (status 500) when `datasets` has no
 *   instance table.
 */
export function calculateInstance<P extends CloudProviderSpelling>(
  provider: P,
  request: InstanceRequest<P>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): InstanceEstimate {
  requireDatasets(datasets, INSTANCE_DATASETS);
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input = parseRequest(InstanceRequest, request);
  const instance = resolveInstance(id, input.instance, datasets);
  const region = resolveRegion(id, input.region, datasets);
  const electricityYear = input.year ?? datasets.cloudRegions.defaultYear;
  const utilization = input.average_vcpu_utilization;
  const machine = machines.get(
    [datasets.cloudCoefficients, datasets.cloudRegions, datasets.cloudInstances],
    `${id}|${instance.instance}|${region.region}|${electricityYear}|${input.year ?? ''}|${utilization}`,
    () => {
      const pue = decimal(coefficients.pue);
      const memoryGigabytes = gibibytesToGigabytes(decimal(instance.memory_gib));
      return {
        grid: gridFactor(region, electricityYear),
        gridMetadata: gridMetadata(id, region, electricityYear, datasets),
        cpuKwhPerHour: mul(
          mul(decimal(instance.vcpu), kwhPerVcpuHour(coefficients, decimal(utilization))),
          pue,
        ),
        memoryKwhPerHour: mul(mul(memoryGigabytes, decimal(coefficients.memory_kwh_per_gb_hour)), pue),
        memoryGigabytes,
        embodied: embodiedFactor(id, instance, coefficients, embodiedYear(input.year, datasets), datasets),
      };
    },
  );
  const { grid, memoryGigabytes, embodied } = machine;
  const hours = toHours(decimal(input.duration), input.duration_unit);
  const energyCpu = mul(hours, machine.cpuKwhPerHour);
  const energyMemory = mul(hours, machine.memoryKwhPerHour);

  // The electricity estimates' co2e are computed once here and reused for the total.
  const cpuCo2e = mul(energyCpu, grid);
  const memoryCo2e = mul(energyMemory, grid);
  const method = gridMethod(datasets);
  const cpuEstimate = estimateFromCo2e(
    cpuCo2e,
    {
      activityValue: energyCpu,
      activityUnit: 'kWh',
      factor: grid,
      metadata: machine.gridMetadata,
      method,
      origin: 'co2e-engine',
      auditTrail: input.audit_trail,
    },
    options,
  );
  const memoryEstimate = estimateFromCo2e(
    memoryCo2e,
    {
      activityValue: energyMemory,
      activityUnit: 'kWh',
      factor: grid,
      metadata: machine.gridMetadata,
      method,
      origin: 'co2e-engine',
      auditTrail: input.audit_trail,
    },
    options,
  );

  const embodiedKg = embodiedCo2e(hours, embodied);
  const embodiedEstimate = estimateFromCo2e(
    embodiedKg,
    {
      activityValue: hours,
      activityUnit: 'instance-hour',
      factor: embodied.factor,
      metadata: embodied.metadata,
      method: datasets.cloudInstances.gwp,
      origin: 'source',
      auditTrail: input.audit_trail,
    },
    options,
  );

  const total = add(add(cpuCo2e, memoryCo2e), embodiedKg);
  return {
    total_co2e: outputNumber(total, options),
    total_co2e_unit: 'kg',
    memory_estimate: memoryEstimate,
    cpu_estimate: cpuEstimate,
    embodied_cpu_estimate: embodiedEstimate,
    calculation_details: {
      instance: input.instance,
      instance_memory: sharedNumber(memoryGigabytes, options),
      memory_unit: 'GB',
      vcpu_cores: instance.vcpu,
      average_vcpu_utilization: input.average_vcpu_utilization,
      power_usage_effectiveness: coefficients.pue,
      // The activity values of the electricity estimates: the same decimals, converted once.
      energy_used_cpu: cpuEstimate.activity_data.activity_value,
      energy_used_memory: memoryEstimate.activity_data.activity_value,
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
export const calculateInstanceBatch: CloudBatch<InstanceRequest, InstanceEstimate> = cloudBatch(
  calculateInstance,
  INSTANCE_DATASETS,
);
