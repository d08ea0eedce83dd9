import { type Decimal, decimal, div, doubleDouble, doubleDoubleOrNaN, mul } from '../../core/decimal';
import { type EmbodiedMethod, type EstimateTemplates, type FactorMetadata } from '../../core/estimate';
import { factorId } from '../../core/factor-id';
import { createRecordCache } from '../../core/memo';
import type { CloudProvider } from '../../datasets/tables';
import type { CloudCoefficients, CloudInstance, CloudInstanceDatasets } from '../../datasets/types';
import { CLOUD_DATA_QUALITY_FLAGS, coefficientsDataset, PROVIDER_LABEL } from './provenance';

/**
 * Embodied emissions per instance-hour, Teads/CCF method: the host platform's embodied kg CO2e (TE), shared by
 * the instance's vCPUs out of the platform's, spread over the server lifetime:
 * `TE · (instance vCPU / platform vCPU) / lifetime hours`.
 *
 * Returned as numerator and denominator so that callers divide once, after multiplying by the activity.
 */
export function embodiedPerInstanceHour(
  instance: CloudInstance,
  coefficients: CloudCoefficients,
): { numerator: Decimal; denominator: Decimal } {
  return {
    numerator: mul(decimal(instance.platform_embodied_kgco2e), decimal(instance.vcpu)),
    denominator: mul(decimal(instance.platform_vcpu), decimal(coefficients.server_lifetime_hours)),
  };
}

/** Factor metadata of an embodied CPU factor (kg per instance-hour). */
export function embodiedMetadata(
  provider: CloudProvider,
  instance: CloudInstance,
  year: number,
  datasets: CloudInstanceDatasets,
): FactorMetadata {
  const coefficients = coefficientsDataset(provider, datasets);
  const instances = instance.dataset ?? datasets.cloudInstances.info;
  const instanceId = instance.instance.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const activityId = `embodied_cpu-provider_${provider}-instance_${instanceId}`;
  return {
    name: `${PROVIDER_LABEL[provider]} ${instance.instance} Embodied CPU`,
    id: factorId([coefficients.id, coefficients.version, instances.id, instances.version, activityId, year]),
    activity_id: activityId,
    access_type: 'public',
    source: instances.source,
    source_dataset: instances.source_dataset,
    year,
    region: 'GLOBAL',
    category: 'Cloud Computing - Embodied CPU',
    source_lca_activity: 'upstream-end_of_life',
    data_quality_flags: [...CLOUD_DATA_QUALITY_FLAGS],
  };
}

export interface EmbodiedFactor extends EstimateTemplates {
  numerator: Decimal;
  denominator: Decimal;
  /** numerator / denominator, kg CO2e per instance-hour. */
  factor: Decimal;
  metadata: FactorMetadata;
  /**
   * For the double-double fast paths: the numerator as `numeratorHigh + numeratorLow` (NaNs where it has none), and
   * the denominator where it is a whole number that a double holds exactly (platform vCPUs × lifetime hours);
   * undefined otherwise, for the exact path.
   */
  numeratorHigh: number;
  numeratorLow: number;
  denominatorNumber: number | undefined;
}

/** Per instance record (of a provider, in an instance table) and year, under its coefficients. */
const embodiedFactors = createRecordCache<CloudInstance, EmbodiedFactor>();

/** The embodied factor of an instance with its metadata, derived once per dataset, instance and year. */
export function embodiedFactor(
  provider: CloudProvider,
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  year: number,
  datasets: CloudInstanceDatasets,
): EmbodiedFactor {
  return (
    embodiedFactors.find(instance, datasets.cloudCoefficients, datasets.cloudInstances, year) ??
    newEmbodiedFactor(provider, instance, coefficients, year, datasets)
  );
}

/** {@link embodiedFactor} on a miss: apart, so a hit allocates no closure. */
function newEmbodiedFactor(
  provider: CloudProvider,
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  year: number,
  datasets: CloudInstanceDatasets,
): EmbodiedFactor {
  return embodiedFactors.get(instance, datasets.cloudCoefficients, datasets.cloudInstances, year, () => {
    const { numerator, denominator } = embodiedPerInstanceHour(instance, coefficients);
    const denominatorPair = doubleDouble(denominator);
    const [numeratorHigh, numeratorLow] = doubleDoubleOrNaN(numerator);
    return {
      numerator,
      denominator,
      factor: div(numerator, denominator),
      metadata: embodiedMetadata(provider, instance, year, datasets),
      numeratorHigh,
      numeratorLow,
      denominatorNumber:
        denominatorPair !== undefined && denominatorPair[1] === 0 && Number.isInteger(denominatorPair[0])
          ? denominatorPair[0]
          : undefined,
      // Its estimate templates for the fast paths, per audit trail, made on first use.
      enabled: undefined,
      disabled: undefined,
    };
  });
}

/** `activity × TE · vCPU / (platform vCPU · lifetime)`, with a single rounding. */
export const embodiedCo2e = (instanceHours: Decimal, { numerator, denominator }: EmbodiedFactor): Decimal =>
  div(mul(instanceHours, numerator), denominator);

/**
 * How an instance's platform embodied figure was obtained: the row's `embodied_method`, else `published`.
 *
 * @example
 * ```ts
 * embodiedMethod({ provider: 'gcp', instance: 'c3-standard-4', embodied_method: 'derived from platform specs', ... });
 * // 'derived from platform specs'
 * ```
 */
export const embodiedMethod = (instance: CloudInstance): EmbodiedMethod =>
  instance.embodied_method ?? 'published';
