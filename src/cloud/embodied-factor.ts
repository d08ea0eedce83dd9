import { type Decimal, decimal, div, mul } from '../core/decimal';
import type { CloudCoefficients, CloudInstance } from '../datasets/types';

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

/** `activity × TE · vCPU / (platform vCPU · lifetime)`, with a single rounding. */
export function embodiedCo2e(instanceHours: Decimal, instance: CloudInstance, coefficients: CloudCoefficients) {
  const { numerator, denominator } = embodiedPerInstanceHour(instance, coefficients);
  return { co2e: div(mul(instanceHours, numerator), denominator), factor: div(numerator, denominator) };
}
