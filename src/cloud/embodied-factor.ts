import { type Decimal, decimal, div, mul } from '../core/decimal';
import type { FactorMetadata } from '../core/estimate';
import { createMemo } from '../core/memo';
import type { CloudProvider } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets, CloudInstance } from '../datasets/types';
import { embodiedMetadata } from './common';

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

export interface EmbodiedFactor {
  numerator: Decimal;
  denominator: Decimal;
  /** numerator / denominator, kg CO2e per instance-hour. */
  factor: Decimal;
  metadata: FactorMetadata;
}

const embodiedFactors = createMemo<EmbodiedFactor>();

/** The embodied factor of an instance with its metadata, derived once per dataset, instance and year. */
export function embodiedFactor(
  provider: CloudProvider,
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  year: number,
  datasets: CloudDatasets,
): EmbodiedFactor {
  return embodiedFactors.get(
    [datasets.cloudCoefficients, datasets.cloudInstances],
    [provider, instance.instance, year],
    () => {
      const { numerator, denominator } = embodiedPerInstanceHour(instance, coefficients);
      return {
        numerator,
        denominator,
        factor: div(numerator, denominator),
        metadata: embodiedMetadata(provider, instance, year, datasets),
      };
    },
  );
}

/** `activity × TE · vCPU / (platform vCPU · lifetime)`, with a single rounding. */
export const embodiedCo2e = (instanceHours: Decimal, { numerator, denominator }: EmbodiedFactor): Decimal =>
  div(mul(instanceHours, numerator), denominator);
