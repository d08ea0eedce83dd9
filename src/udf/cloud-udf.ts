import { CLOUD_CALCULATOR_IDS, CLOUD_CALCULATORS, type CloudCalculatorId } from '../cloud/calculators';
import type { InstanceEstimate } from '../cloud/instance';
import { EmissionsError, type ErrorBody } from '../core/errors';
import type { Estimate } from '../core/estimate';
import type { CloudDatasets } from '../datasets/types';
import { orErrorBody } from './error-body';
import { withoutNulls } from './sql-nulls';

/** `cloud(calculator, provider, request)`: one cloud estimate, or the error body of a bad row. Never throws. */
export type CloudUdf = (
  calculator: unknown,
  provider: unknown,
  request: unknown,
) => Estimate | InstanceEstimate | ErrorBody;

/**
 * The warehouse form of the cloud calculators: JSON-compatible values in and out, one row at a time; a `null`
 * request field counts as not supplied.
 *
 * @example
 * ```ts
 * const cloud = cloudUdf(cloudDatasets);
 * cloud('cpu', 'aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }).co2e; // 0.0041771632
 * cloud('gpu', 'aws', {}); // { error: 'bad_request', error_code: 'invalid_request', path: 'calculator', … }
 * ```
 */
export function cloudUdf(datasets: CloudDatasets): CloudUdf {
  return orErrorBody((calculator: unknown, provider: unknown, request: unknown) => {
    if (typeof calculator !== 'string' || !Object.hasOwn(CLOUD_CALCULATORS, calculator)) {
      throw new EmissionsError(
        'invalid_request',
        `Calculator '${String(calculator)}' is not known. Valid calculators: ${CLOUD_CALCULATOR_IDS.join(', ')}.`,
        { path: 'calculator', valid_values: CLOUD_CALCULATOR_IDS },
      );
    }
    const calculate = CLOUD_CALCULATORS[calculator as CloudCalculatorId].calculate as (
      provider: string,
      request: unknown,
      datasets: CloudDatasets,
    ) => Estimate | InstanceEstimate;
    return calculate(provider as string, withoutNulls(request), datasets);
  });
}
