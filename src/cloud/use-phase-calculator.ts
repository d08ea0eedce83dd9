import type * as z from 'zod/mini';
import { type Decimal, decimal } from '../core/decimal';
import type { AuditTrail, CalculationOptions, Estimate } from '../core/estimate';
import { createRecordCache, type MemoPart } from '../core/memo';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudProvider } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets, CloudRegion } from '../datasets/types';
import {
  usePhaseEstimate,
  usePhaseEstimateOfNumber,
  type UsePhaseFactor,
  usePhaseFactorParts,
} from './estimate';
import {
  gridFactor,
  publishedFactor,
  type PublishedResource,
  usePhaseFactor,
  usePhaseMetadata,
  type UsePhaseKind,
} from './factors/use-phase';
import { echoReplication } from './replication';
import {
  newSpellingCache,
  remember,
  resolveProvider,
  resolveRegion,
  spelled,
  type USE_PHASE_PARTS,
} from './resolve';
import { parseRequest } from '../core/validate';
import { type CloudBatch, cloudBatch, cloudCalculator } from './batch';

/** What every use-phase request has, after its schema: the fields the frame itself reads. */
export interface UsePhaseInput {
  region: string;
  year?: number | undefined;
  audit_trail: AuditTrail;
  replication_factor?: number | undefined;
}

/**
 * A quantity of a request as the schema gives it (a number) or as an engine-internal caller already holds it (an
 * exact decimal, e.g. a bill's `ConsumedQuantity` with more digits than a number keeps).
 */
export type Quantity = number | Decimal;

/**
 * A quantity as an exact decimal: a number read as its shortest decimal form, a decimal as it is.
 *
 * @example
 * ```ts
 * exactQuantity(0.1); // the decimal 0.1
 * ```
 */
export const exactQuantity = (value: Quantity): Decimal =>
  typeof value === 'number' ? decimal(value) : value;

/**
 * One use-phase calculator (CPU, memory, storage, networking) as data: its kind, request schema and activity, and the
 * energy one unit of activity draws. The frame does the rest the same way for all four: resolve the provider, request,
 * region and year; the factor once per key (the regions table's published one where it states one, else energy ×
 * PUE × grid); the estimate; the replication factor echoed where the request states one. `I` is the request after its
 * schema with its quantities as {@link Quantity} (numbers from the schema, exact decimals from an engine caller).
 */
export interface UsePhaseSpec<I extends UsePhaseInput, S extends z.ZodMiniType<I>> {
  readonly kind: UsePhaseKind;
  readonly datasets: CalculatorDatasets<(typeof USE_PHASE_PARTS)[number]>;
  readonly schema: S;
  /** The schema's plain reader (core/plain-request.ts): a plainly valid request read without the parser. */
  readonly read?: (request: unknown) => z.output<S> | undefined;
  /** The activity's unit, as results name it (`CPU-hour`, `GB-hour`, `TB-hour`, `GB`). */
  readonly unit: string;
  /** The activity in that unit (replication included). */
  readonly activity: (input: I) => Decimal;
  /**
   * The same activity as the double nearest its exact decimal, computed in double-double arithmetic (see
   * `decidedProduct` in fast-activity.ts); undefined where that does not decide it or a quantity is an exact decimal, and the frame
   * then builds {@link UsePhaseSpec.activity}. Used only without display rounding.
   */
  readonly fastActivity?: (input: I) => number | undefined;
  /** kWh per unit of activity, from the provider's coefficients. */
  readonly energyPerUnit: (coefficients: CloudCoefficients, input: I) => Decimal;
  /** What else in the request the factor depends on (utilisation, storage type): part of its cache key. */
  readonly variant?: (input: I) => MemoPart;
  /** The resource whose factor a regions table may state for this request, if any. */
  readonly published: (input: I) => PublishedResource | undefined;
  /** The factor's naming beyond its kind: a variant in its name and activity id, and what else makes its id. */
  readonly naming?: (input: I) => { variant?: { label: string; id: string }; identity?: string };
}

/**
 * A request an engine-internal caller has resolved itself (the billing reader: provider and region record from its
 * classification, quantities exact): no schema, no region lookup.
 */
export interface ResolvedRequest<I> {
  provider: CloudProvider;
  region: CloudRegion;
  input: I;
}

/** A use-phase calculator as the frame builds it; each public file wraps it with its own typed signature. */
export type UsePhaseCalculator = (
  provider: unknown,
  request: unknown,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => Estimate;

/**
 * The engine-internal entry of a use-phase calculator: the same estimate as the public function, for a request whose
 * provider and region are resolved and whose quantities may be exact decimals.
 */
export type ResolvedCalculator<I> = (
  resolved: ResolvedRequest<I>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => Estimate;

/** A fresh variant map for a region and year (one function, not a closure per request). */
const newVariantMap = (): Map<MemoPart, UsePhaseFactor> => new Map();

/**
 * Variants (utilisations, storage types) kept per region and year before their map starts afresh. Each keeps its
 * factor's own frozen metadata, and utilisations are any number from 0 to 1: a client sending random ones in every
 * region and year fills every map, so this bounds what it can make a server hold. Utilisations given to two
 * decimals (101 values) fit.
 *
 * @internal
 */
export const MAX_VARIANTS = 128;

/**
 * A region as requests spell it, in one provider's regions table, for one use-phase calculator: its record and its
 * factors by year and variant, under the coefficients table they were derived from. A request finds them through
 * its spelling, where the record's cache takes a WeakMap and a Map more.
 */
interface RegionSlot {
  readonly region: CloudRegion;
  coefficients: object | undefined;
  byYear: Map<number, Map<MemoPart, UsePhaseFactor>>;
}

/**
 * Builds a use-phase calculator in the three forms its file exports from its {@link UsePhaseSpec}: the public function,
 * its batch form (parts and provider checked once, a bad request its error body) and its `resolved` entry.
 *
 * @example
 * ```ts
 * const networking = usePhaseForms({
 *   kind: 'networking',
 *   datasets: { calculator: 'calculateNetworking', parts: USE_PHASE_PARTS },
 *   schema: NetworkingRequest,
 *   unit: 'GB',
 *   activity: (input) => toGigabytes(decimal(input.data), input.data_unit),
 *   energyPerUnit: (coefficients) => decimal(coefficients.networking_kwh_per_gb),
 *   published: () => 'networking',
 * });
 * ```
 */
export function usePhaseForms<I extends UsePhaseInput, S extends z.ZodMiniType<I>>(
  spec: UsePhaseSpec<I, S>,
): { calculate: UsePhaseCalculator; batch: CloudBatch<unknown>; resolved: ResolvedCalculator<I> } {
  const { kind, schema, read, unit, activity, fastActivity, energyPerUnit, variant, published, naming } =
    spec;
  // This kind's factors per region record and year (under the coefficients and regions they come from), then per
  // variant: two lookups where a memo walked a key of five parts.
  const factors = createRecordCache<CloudRegion, Map<MemoPart, UsePhaseFactor>>();
  const regionSlots = newSpellingCache<RegionSlot>();
  // The factors of a region and year: from the request's region slot where it has one, else the record cache.
  const variantsOf = (
    region: CloudRegion,
    year: number,
    datasets: CloudDatasets,
    slot: RegionSlot | undefined,
  ): Map<MemoPart, UsePhaseFactor> => {
    if (slot === undefined) {
      return factors.get(region, datasets.cloudCoefficients, datasets.cloudRegions, year, newVariantMap);
    }
    if (slot.coefficients !== datasets.cloudCoefficients) {
      slot.coefficients = datasets.cloudCoefficients;
      slot.byYear = new Map();
    }
    let byVariant = slot.byYear.get(year);
    if (byVariant === undefined) {
      byVariant = factors.get(region, datasets.cloudCoefficients, datasets.cloudRegions, year, newVariantMap);
      slot.byYear.set(year, byVariant);
    }
    return byVariant;
  };
  // Made only when a factor is not cached yet: a function of its own, so a request that finds its factor allocates
  // no closure for it.
  const computeFactor = (
    provider: CloudProvider,
    coefficients: CloudCoefficients,
    input: I,
    region: CloudRegion,
    year: number,
    datasets: CloudDatasets,
  ): UsePhaseFactor => {
    const resource = published(input);
    const stated = resource === undefined ? undefined : publishedFactor(region, resource, year, datasets);
    if (stated !== undefined) return usePhaseFactorParts(stated, unit, datasets);
    const named = naming?.(input);
    return usePhaseFactorParts(
      {
        factor: usePhaseFactor(
          energyPerUnit(coefficients, input),
          coefficients,
          gridFactor(region, year),
          region,
        ),
        metadata: usePhaseMetadata(kind, provider, region, year, datasets, named?.variant, named?.identity),
      },
      unit,
      datasets,
    );
  };
  const estimate = (
    provider: CloudProvider,
    coefficients: CloudCoefficients,
    input: I,
    region: CloudRegion,
    datasets: CloudDatasets,
    options: CalculationOptions | undefined,
    slot?: RegionSlot,
  ): Estimate => {
    const year = input.year ?? datasets.cloudRegions.defaultYear;
    const byVariant = variantsOf(region, year, datasets, slot);
    const variantKey = variant?.(input);
    let factor = byVariant.get(variantKey);
    if (factor === undefined) {
      factor = computeFactor(provider, coefficients, input, region, year, datasets);
      if (byVariant.size >= MAX_VARIANTS) byVariant.clear();
      byVariant.set(variantKey, factor);
    }
    const activityNumber =
      fastActivity !== undefined && options?.significantDigits === undefined
        ? fastActivity(input)
        : undefined;
    const result =
      activityNumber === undefined
        ? usePhaseEstimate(activity(input), unit, factor, input.audit_trail, datasets, options)
        : usePhaseEstimateOfNumber(activityNumber, factor, input.audit_trail);
    return echoReplication(result, input.replication_factor);
  };
  const readAndEstimate = (
    id: CloudProvider,
    coefficients: CloudCoefficients,
    request: unknown,
    datasets: CloudDatasets,
    options: CalculationOptions | undefined,
  ): Estimate => {
    const input: I = parseRequest(schema, request, read);
    const slot =
      spelled(regionSlots, datasets.cloudRegions, id, input.region) ??
      remember(regionSlots, datasets.cloudRegions, id, input.region, {
        region: resolveRegion(id, input.region, datasets),
        coefficients: datasets.cloudCoefficients,
        byYear: new Map(),
      })!;
    return estimate(id, coefficients, input, slot.region, datasets, options, slot);
  };
  return {
    calculate: cloudCalculator(readAndEstimate, spec.datasets),
    batch: cloudBatch(readAndEstimate, spec.datasets),
    resolved: ({ provider, region, input }, datasets, options) => {
      requireDatasets(datasets, spec.datasets);
      const { coefficients } = resolveProvider(provider, datasets);
      return estimate(provider, coefficients, input, region, datasets, options);
    },
  };
}

/** `T`, a request after its schema, with its fields `K` as {@link Quantity}: numbers, or exact decimals. */
export type WithQuantities<T, K extends keyof T> = Omit<T, K> & Record<K, Quantity>;
