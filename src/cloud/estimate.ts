import type { Decimal } from '../core/decimal';
import {
  type AuditTrail,
  buildEstimate,
  type CalculationMethod,
  type CalculationOptions,
  type Estimate,
  type EstimateParts,
  estimateFromCo2e,
  cachedTemplate,
  estimateOfTemplate,
  type EstimateTemplate,
  type EstimateTemplates,
  templateOf,
} from '../core/estimate';
import type { CloudDatasets } from '../datasets/types';
import { gridMethod } from './factors/provenance';
import type { EmbodiedFactor } from './factors/embodied';
import type { CloudFactor } from './factors/use-phase';

/** The estimate of a use-phase calculator: the activity in its unit × the cached CCF factor. */
export function usePhaseEstimate(
  activityValue: Decimal,
  activityUnit: string,
  { factor, metadata }: CloudFactor,
  auditTrail: AuditTrail,
  datasets: CloudDatasets,
  options: CalculationOptions | undefined,
): Estimate {
  return buildEstimate(
    {
      activityValue,
      activityUnit,
      factor,
      metadata,
      method: gridMethod(datasets),
      origin: 'source',
      auditTrail,
    },
    options,
  );
}

/**
 * A cached use-phase factor with its estimate's parts besides the activity, one per audit trail, and their
 * templates for the fast paths, made on first use (a factor beyond the doubles then throws, as its estimates do).
 * The templates are fields of the factor itself: an estimate of a number fetches the factor and its template, no
 * object between (a varied batch's factors are many, and each fetch may miss the processor's cache).
 */
export interface UsePhaseFactor extends CloudFactor, EstimateTemplates {
  readonly parts: Readonly<Record<AuditTrail, Omit<EstimateParts, 'activityValue'>>>;
}

/**
 * The factor with its estimate parts, made once per cached factor so an estimate of a number allocates none.
 *
 * @example
 * ```ts
 * const cached = usePhaseFactorParts(factor, 'CPU-hour', datasets);
 * usePhaseEstimateOfNumber(6, cached, 'enabled').co2e; // 6 × the factor, rounded once
 * ```
 */
export function usePhaseFactorParts(
  { factor, metadata }: CloudFactor,
  activityUnit: string,
  datasets: CloudDatasets,
): UsePhaseFactor {
  const parts = (auditTrail: AuditTrail) =>
    ({ activityUnit, factor, metadata, method: gridMethod(datasets), origin: 'source', auditTrail }) as const;
  return {
    factor,
    metadata,
    parts: { enabled: parts('enabled'), disabled: parts('disabled') },
    enabled: undefined,
    disabled: undefined,
  };
}

/**
 * {@link usePhaseEstimate} without display rounding, for an activity whose number (the exact activity rounded once)
 * the caller has already (the double-double fast paths).
 *
 * @example
 * ```ts
 * usePhaseEstimateOfNumber(6, usePhaseFactorParts(factor, 'CPU-hour', datasets), 'enabled').co2e;
 * ```
 */
export const usePhaseEstimateOfNumber = (
  activityValue: number,
  factor: UsePhaseFactor,
  auditTrail: AuditTrail,
): Estimate =>
  estimateOfTemplate(
    activityValue,
    // The factor's parts fix its method: a template made from them is the one, with no method to compare.
    (auditTrail === 'enabled' ? factor.enabled : factor.disabled) ??
      templateOf(factor, factor.parts[auditTrail]),
  );

/**
 * The embodied estimate of an instance's hours (`calculateEmbodied`, and the embodied part of `calculateInstance`):
 * instance-hours × the platform's embodied factor, with the co2e the caller computed exactly from the factor's
 * fraction (`embodiedCo2e`), in the GWP method of the instance table.
 *
 * @example
 * ```ts
 * embodiedEstimate(embodiedCo2e(hours, embodied), hours, embodied, datasets.cloudInstances.gwp, 'enabled', {});
 * ```
 */
export function embodiedEstimate(
  co2e: Decimal,
  instanceHours: Decimal,
  embodied: EmbodiedFactor,
  method: CalculationMethod,
  auditTrail: AuditTrail,
  options: CalculationOptions | undefined,
): Estimate {
  return estimateFromCo2e(
    co2e,
    { ...embodiedParts(embodied, method, auditTrail), activityValue: instanceHours },
    options,
  );
}

/** An embodied estimate's parts besides the activity: the factor, in the instance table's GWP method. */
const embodiedParts = (embodied: EmbodiedFactor, method: CalculationMethod, auditTrail: AuditTrail) =>
  ({
    activityUnit: 'instance-hour',
    factor: embodied.factor,
    metadata: embodied.metadata,
    method,
    origin: 'source',
    auditTrail,
  }) as const;

/**
 * {@link embodiedEstimate} without display rounding, for instance-hours whose number (the exact hours rounded once)
 * the caller has already (the double-double fast paths).
 *
 * @example
 * ```ts
 * embodiedEstimateOfHours(24, embodied, datasets.cloudInstances.gwp, 'enabled').co2e; // 24 × the factor, rounded once
 * ```
 */
export const embodiedEstimateOfHours = (
  instanceHours: number,
  embodied: EmbodiedFactor,
  method: CalculationMethod,
  auditTrail: AuditTrail,
  details?: Estimate['calculation_details'],
): Estimate => estimateOfTemplate(instanceHours, embodiedTemplate(embodied, method, auditTrail), details);

/**
 * The template of an embodied factor's estimates in a GWP method and audit trail ({@link embodiedEstimateOfHours}
 * without the estimate), kept on the factor.
 *
 * @example
 * ```ts
 * estimateOfTemplate(24, embodiedTemplate(embodied, datasets.cloudInstances.gwp, 'enabled')).co2e;
 * ```
 */
export const embodiedTemplate = (
  embodied: EmbodiedFactor,
  method: CalculationMethod,
  auditTrail: AuditTrail,
): EstimateTemplate =>
  cachedTemplate(embodied, auditTrail, method) ??
  templateOf(embodied, embodiedParts(embodied, method, auditTrail));
