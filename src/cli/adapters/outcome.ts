import type { Estimate } from '../../core/estimate';
import type { RowOutcome } from '../pipeline/row-adapter';

/**
 * The result columns of one estimate (all but `notices`, which the adapter adds): its co2e, the activity it
 * multiplied and the factor's id, name and source (null when the row asked for `audit_trail: disabled`).
 *
 * @example
 * ```ts
 * const outcome = { ...estimateOutcome(calculateCpu('aws', request, datasets)), notices: [] };
 * ```
 */
export function estimateOutcome(estimate: Estimate): Omit<RowOutcome, 'notices'> {
  return {
    co2e: estimate.co2e,
    co2e_unit: estimate.co2e_unit,
    activity_value: estimate.activity_data.activity_value,
    activity_unit: estimate.activity_data.activity_unit,
    factor_id: estimate.emission_factor?.id ?? null,
    factor_name: estimate.emission_factor?.name ?? null,
    factor_source: estimate.emission_factor?.source ?? null,
    factor_region: estimate.emission_factor?.region ?? null,
    factor_year: estimate.emission_factor?.year ?? null,
  };
}
