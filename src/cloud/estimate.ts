import type { Decimal } from '../core/decimal';
import { type AuditTrail, buildEstimate, type CalculationOptions, type Estimate } from '../core/estimate';
import type { CloudDatasets } from '../datasets/types';
import { gridMethod } from './factors/provenance';
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
