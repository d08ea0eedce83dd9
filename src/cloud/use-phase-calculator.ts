import type * as z from 'zod/mini';
import type { Decimal } from '../core/decimal';
import type { AuditTrail, CalculationOptions, Estimate } from '../core/estimate';
import type { MemoPart } from '../core/memo';
import type { CalculatorDatasets } from '../datasets/require';
import type { CloudCoefficients, CloudDatasets } from '../datasets/types';
import { usePhaseEstimate } from './estimate';
import {
  cachedCloudFactor,
  gridFactor,
  publishedFactor,
  type PublishedResource,
  usePhaseFactor,
  usePhaseMetadata,
  type UsePhaseKind,
} from './factors/use-phase';
import { echoReplication } from './replication';
import { resolveUsePhaseRequest, type USE_PHASE_PARTS } from './resolve';

/** What every use-phase request has, after its schema: the fields the frame itself reads. */
export interface UsePhaseInput {
  region: string;
  year?: number | undefined;
  audit_trail: AuditTrail;
  replication_factor?: number | undefined;
}

/**
 * One use-phase calculator (CPU, memory, storage, networking) as data: its kind, request schema and activity, and the
 * energy one unit of activity draws. The frame does the rest the same way for all four: resolve the provider, request,
 * region and year; the factor once per key (the regions table's published one where it states one, else energy ×
 * PUE × grid); the estimate; the replication factor echoed where the request states one.
 */
export interface UsePhaseSpec<S extends z.ZodMiniType<UsePhaseInput>> {
  readonly kind: UsePhaseKind;
  readonly datasets: CalculatorDatasets<(typeof USE_PHASE_PARTS)[number]>;
  readonly schema: S;
  /** The activity's unit, as results name it (`CPU-hour`, `GB-hour`, `TB-hour`, `GB`). */
  readonly unit: string;
  /** The activity in that unit (replication included). */
  readonly activity: (input: z.output<S>) => Decimal;
  /** kWh per unit of activity, from the provider's coefficients. */
  readonly energyPerUnit: (coefficients: CloudCoefficients, input: z.output<S>) => Decimal;
  /** What else in the request the factor depends on (utilisation, storage type): part of its cache key. */
  readonly variant?: (input: z.output<S>) => MemoPart;
  /** The resource whose factor a regions table may state for this request, if any. */
  readonly published: (input: z.output<S>) => PublishedResource | undefined;
  /** The factor's naming beyond its kind: a variant in its name and activity id, and what else makes its id. */
  readonly naming?: (input: z.output<S>) => { variant?: { label: string; id: string }; identity?: string };
}

/** A use-phase calculator as the frame builds it; each public file wraps it with its own typed signature. */
export type UsePhaseCalculator = (
  provider: unknown,
  request: unknown,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => Estimate;

/**
 * Builds a use-phase calculator from its {@link UsePhaseSpec}.
 *
 * @example
 * ```ts
 * const networking = usePhaseCalculator({
 *   kind: 'networking',
 *   datasets: NETWORKING_DATASETS,
 *   schema: NetworkingRequest,
 *   unit: 'GB',
 *   activity: (input) => toGigabytes(decimal(input.data), input.data_unit),
 *   energyPerUnit: (coefficients) => decimal(coefficients.networking_kwh_per_gb),
 *   published: () => 'networking',
 * });
 * ```
 */
export function usePhaseCalculator<S extends z.ZodMiniType<UsePhaseInput>>(
  spec: UsePhaseSpec<S>,
): UsePhaseCalculator {
  const { kind, schema, unit, activity, energyPerUnit, variant, published, naming } = spec;
  return (provider, request, datasets, options) => {
    const resolved = resolveUsePhaseRequest(provider, schema, request, datasets, spec.datasets);
    const { coefficients, input, region, year } = resolved;
    const key = [kind, resolved.provider, region.region, year, variant?.(input)];
    const factor = cachedCloudFactor(datasets, key, () => {
      const resource = published(input);
      const stated = resource === undefined ? undefined : publishedFactor(region, resource, year, datasets);
      if (stated !== undefined) return stated;
      const named = naming?.(input);
      return {
        factor: usePhaseFactor(
          energyPerUnit(coefficients, input),
          coefficients,
          gridFactor(region, year),
          region,
        ),
        metadata: usePhaseMetadata(
          kind,
          resolved.provider,
          region,
          year,
          datasets,
          named?.variant,
          named?.identity,
        ),
      };
    });
    const estimate = usePhaseEstimate(activity(input), unit, factor, input.audit_trail, datasets, options);
    return echoReplication(estimate, input.replication_factor);
  };
}
