import type { ErrorBody } from '../core/errors';
import type { SpendDatasets } from '../datasets/types';
import { calculateSpend, type SpendEstimate } from '../spend/spend';
import type { SpendRequest } from '../spend/spend.schema';
import { orErrorBody } from './error-body';
import { withoutNulls } from './sql-nulls';

/** `spend(request)`: one spend estimate, or the error body of a bad row. Never throws. */
export type SpendUdf = (request: unknown) => SpendEstimate | ErrorBody;

/**
 * The warehouse form of `calculateSpend`: a request object in (SPEC.md's body; a `null` field counts as not
 * supplied), the estimate or an error body out.
 *
 * @example
 * ```ts
 * const spend = spendUdf(spendDatasets);
 * spend({ activity: { classification_type: 'isic4', classification_code: '4711' },
 *   spend_year: 2019, spend_region: 'DE', money: 1000, money_unit: 'eur' });
 * ```
 */
export function spendUdf(datasets: SpendDatasets): SpendUdf {
  return orErrorBody((request: unknown) => calculateSpend(withoutNulls(request) as SpendRequest, datasets));
}
