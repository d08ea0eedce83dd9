import { type Decimal, decimal, div, mul } from '../core/decimal';
import {
  type CalculationOptions,
  type Estimate,
  type FactorMetadata,
  estimateFromCo2e,
} from '../core/estimate';
import type { CloudProvider } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets } from '../datasets/types';
import { calculateCpu, CPU_DATASETS } from './cpu';
import { CpuRequest } from './cpu.schema';
import { gridMethod } from './factors/provenance';
import {
  gridFactor,
  gridMetadata,
  kwhPerVcpuHour,
  type PublishedResource,
  publishedFactor,
} from './factors/use-phase';
import { calculateMemory, MEMORY_DATASETS } from './memory';
import { MemoryRequest } from './memory.schema';
import { calculateNetworking, NETWORKING_DATASETS } from './networking';
import { NetworkingRequest } from './networking.schema';
import { pueAt } from './pue';
import { resolveUsePhaseRequest } from './resolve';
import { calculateStorage, STORAGE_DATASETS } from './storage';
import { StorageRequest } from './storage.schema';

/**
 * The electricity view of a use-phase estimate, as the hosted API's v1 answered it and as the Impact Framework
 * writes it out: the activity is the electricity used (kWh, PUE included) and the factor is the grid's kg per kWh.
 * The co2e is the library's own figure for the same request; only the split into activity × factor differs
 * (CPU-hour × kg per CPU-hour becomes kWh × kg per kWh).
 */

/** The use-phase resources that have an electricity view. */
export type ElectricityResource = 'cpu' | 'memory' | 'storage' | 'networking';

/** A use-phase estimate in kWh, with the library's estimate it was derived from. */
export interface ElectricityEstimate {
  /** The estimate with `activity_data` in kWh and the factor in kg per kWh; co2e is the library's. */
  estimate: Estimate;
  /** The library's estimate (activity in CPU-hour, GB-hour, TB-hour or GB), without display rounding. */
  library: Estimate;
  /** The factor's metadata and the year of the factor, also when the audit trail is disabled. */
  metadata: FactorMetadata;
}

const KWH_PER_WH = decimal('0.001');

interface Resource {
  schema: typeof CpuRequest | typeof MemoryRequest | typeof StorageRequest | typeof NetworkingRequest;
  needs: typeof CPU_DATASETS | typeof MEMORY_DATASETS | typeof STORAGE_DATASETS | typeof NETWORKING_DATASETS;
  calculate: (provider: CloudProvider, request: never, datasets: CloudDatasets) => Estimate;
  /** kWh per activity unit before PUE, and the factor the regions table may state instead (hosted 2021 set). */
  perUnit: (
    coefficients: CloudCoefficients,
    input: Record<string, unknown>,
  ) => { kwh: Decimal; published: PublishedResource | undefined };
}

const RESOURCES: Readonly<Record<ElectricityResource, Resource>> = {
  cpu: {
    schema: CpuRequest,
    needs: CPU_DATASETS,
    calculate: calculateCpu,
    perUnit: (coefficients, input) => {
      const utilization = input.average_vcpu_utilization as number;
      // As calculateCpu: a stated CPU factor is per CPU-hour at 50 % utilisation only.
      return {
        kwh: kwhPerVcpuHour(coefficients, decimal(utilization)),
        published: utilization === 0.5 ? 'cpu' : undefined,
      };
    },
  },
  memory: {
    schema: MemoryRequest,
    needs: MEMORY_DATASETS,
    calculate: calculateMemory,
    perUnit: (coefficients) => ({ kwh: decimal(coefficients.memory_kwh_per_gb_hour), published: 'memory' }),
  },
  storage: {
    schema: StorageRequest,
    needs: STORAGE_DATASETS,
    calculate: calculateStorage,
    perUnit: (coefficients, input) =>
      input.storage_type === 'ssd'
        ? { kwh: mul(decimal(coefficients.ssd_wh_per_tb_hour), KWH_PER_WH), published: 'storage_ssd' }
        : { kwh: mul(decimal(coefficients.hdd_wh_per_tb_hour), KWH_PER_WH), published: 'storage_hdd' },
  },
  networking: {
    schema: NetworkingRequest,
    needs: NETWORKING_DATASETS,
    calculate: calculateNetworking,
    perUnit: (coefficients) => ({
      kwh: decimal(coefficients.networking_kwh_per_gb),
      published: 'networking',
    }),
  },
};

/**
 * True for a cloud calculator with an electricity view (cpu, memory, storage, networking).
 *
 * @example
 * ```ts
 * hasElectricityView('cpu'); // true
 * hasElectricityView('instance'); // false
 * ```
 */
export const hasElectricityView = (calculator: string): calculator is ElectricityResource =>
  Object.hasOwn(RESOURCES, calculator);

/**
 * A use-phase request's electricity estimate: `activity_data` = activity × kWh per unit × PUE in `kWh`, and the
 * factor = the region's grid factor in kg per kWh (so co2e = kWh × grid, exactly the library's co2e). Where the
 * regions table states the factor per unit itself (the `hosted-api-2021` set), the factor per kWh is that factor
 * ÷ kWh per unit (with its own metadata), so co2e is still the library's.
 *
 * @example
 * ```ts
 * const { estimate } = electricityEstimate('cpu', 'aws', { cpu_count: 2, region: 'eu_central_1', duration: 1 }, defaultDatasets);
 * estimate.activity_data; // { activity_value: 0.0048124, activity_unit: 'kWh' } (2 × 2.12 W × PUE 1.135 / 1000)
 * ```
 * @throws {@link EmissionsError} the library calculator's errors for the same request.
 */
export function electricityEstimate(
  resource: ElectricityResource,
  provider: CloudProvider | string,
  request: unknown,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): ElectricityEstimate {
  const { schema, needs, calculate, perUnit } = RESOURCES[resource];
  // The library's estimate first: every error (provider, request, region, year) is the library's own.
  const library = calculate(provider as CloudProvider, request as never, datasets);
  const {
    provider: id,
    coefficients,
    input,
    region,
    year,
  } = resolveUsePhaseRequest(provider, schema, request, datasets, needs);
  const unit = perUnit(coefficients, input);
  const kwhPerUnit = mul(unit.kwh, decimal(pueAt(coefficients, region.region)));
  const kwh = mul(decimal(library.activity_data.activity_value), kwhPerUnit);
  const stated =
    unit.published === undefined ? undefined : publishedFactor(region, unit.published, year, datasets);
  const factor = stated === undefined ? gridFactor(region, year) : div(stated.factor, kwhPerUnit);
  const metadata = stated === undefined ? gridMetadata(id, region, year, datasets) : stated.metadata;
  const estimate = estimateFromCo2e(
    decimal(library.co2e),
    {
      activityValue: kwh,
      activityUnit: 'kWh',
      factor,
      metadata,
      method: gridMethod(datasets),
      origin: library.co2e_calculation_origin,
      auditTrail: library.audit_trail,
    },
    options,
  );
  if (library.calculation_details !== undefined) estimate.calculation_details = library.calculation_details;
  return { estimate, library, metadata };
}
