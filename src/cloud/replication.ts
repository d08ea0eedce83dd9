import { type Decimal, decimal, mul } from '../core/decimal';
import type { Estimate } from '../core/estimate';

/**
 * Replication of memory and storage requests (`replication_factor`, issue 22 item 2): the activity is multiplied by
 * the number of copies, and a factor the request states is echoed in `calculation_details`. An absent factor is 1
 * and leaves the result exactly as it was before the field existed.
 */

/** The activity times the replication factor (unchanged when absent). */
export const replicated = (activity: Decimal, factor: number | undefined): Decimal =>
  factor === undefined ? activity : mul(activity, decimal(factor));

/** The estimate with the stated replication factor echoed (unchanged when absent). */
export function echoReplication(estimate: Estimate, factor: number | undefined): Estimate {
  if (factor !== undefined) estimate.calculation_details = { replication_factor: factor };
  return estimate;
}
