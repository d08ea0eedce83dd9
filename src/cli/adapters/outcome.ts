import type { Estimate } from '../../core/estimate';
import type { Notice } from '../../spend/notices';
import type { RowOutcome } from '../pipeline/row-adapter';

/**
 * The result columns of one estimate: its co2e, the activity it multiplied and the factor's id, name and source
 * (null when the row asked for `audit_trail: disabled`), then the electricity behind it and the row's notices. One
 * literal, not spread into another: V8 makes a literal that adds keys after a spread on its slow path, about 1 µs a
 * key, on every row (bench/cli.md, "the first rows of each key").
 *
 * @example
 * ```ts
 * const outcome = estimateOutcome(calculateCpu('aws', request, datasets), 0.0035, []);
 * ```
 */
export function estimateOutcome(estimate: Estimate, energyKwh: number | null, notices: Notice[]): RowOutcome {
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
    energy_kwh: energyKwh,
    notices,
  };
}
