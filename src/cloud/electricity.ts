import type * as z from 'zod/mini';
import { type Decimal, decimal, div, mul } from '../core/decimal';
import {
  type CalculationOptions,
  type Estimate,
  type FactorMetadata,
  estimateFromCo2e,
} from '../core/estimate';
import type { CloudProvider } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets, CloudRegion } from '../datasets/types';
import { calculateCpu, CPU_USE_PHASE } from './cpu';
import { gridMethod } from './factors/provenance';
import { gridFactor, gridMetadata, type PublishedResource, publishedFactor } from './factors/use-phase';
import { calculateMemory, MEMORY_USE_PHASE } from './memory';
import { calculateNetworking, NETWORKING_USE_PHASE } from './networking';
import { pueAt } from './pue';
import { resolveUsePhaseRequest } from './resolve';
import { calculateStorage, STORAGE_USE_PHASE } from './storage';
import type { UsePhaseInput, UsePhaseSpec } from './use-phase-calculator';

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

/** A use-phase calculator, and its request read through the calculator's own spec. */
interface Resource {
  calculate: (provider: CloudProvider, request: never, datasets: CloudDatasets) => Estimate;
  /** The request resolved as the calculator resolves it, with the spec's kWh per unit (before PUE) and published resource. */
  unitOf: (
    provider: unknown,
    request: unknown,
    datasets: CloudDatasets,
  ) => {
    provider: CloudProvider;
    coefficients: CloudCoefficients;
    region: CloudRegion;
    year: number;
    kwh: Decimal;
    published: PublishedResource | undefined;
  };
}

/** One resource of the electricity view: energy per unit comes from the calculator's spec (one description of it). */
const resource = <I extends UsePhaseInput, S extends z.ZodMiniType<I>>(
  spec: UsePhaseSpec<I, S>,
  calculate: Resource['calculate'],
): Resource => ({
  calculate,
  unitOf: (provider, request, datasets) => {
    const { input, ...resolved } = resolveUsePhaseRequest(
      provider,
      spec.schema,
      request,
      datasets,
      spec.datasets,
    );
    return {
      ...resolved,
      kwh: spec.energyPerUnit(resolved.coefficients, input),
      published: spec.published(input),
    };
  },
});

const RESOURCES: Readonly<Record<ElectricityResource, Resource>> = {
  cpu: resource(CPU_USE_PHASE, calculateCpu),
  memory: resource(MEMORY_USE_PHASE, calculateMemory),
  storage: resource(STORAGE_USE_PHASE, calculateStorage),
  networking: resource(NETWORKING_USE_PHASE, calculateNetworking),
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
  const { calculate, unitOf } = RESOURCES[resource];
  // The library's estimate first: every error (provider, request, region, year) is the library's own.
  const library = calculate(provider as CloudProvider, request as never, datasets);
  const { provider: id, coefficients, region, year, ...unit } = unitOf(provider, request, datasets);
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
