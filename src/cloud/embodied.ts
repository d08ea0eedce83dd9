import { decimal, mul } from '../core/decimal';
import type { Estimate } from '../core/estimate';
import { hoursRatio, toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import type { CalculatorDatasets } from '../datasets/require';
import type { CloudInstanceDatasets } from '../datasets/types';
import {
  type CloudBatch,
  type CloudCalculator,
  cloudBatch,
  cloudCalculator,
  type ProviderCalculator,
} from './batch';
import { embodiedYear, resolveInstance } from './resolve';
import { decidedProduct } from './fast-activity';
import { embodiedCo2e, embodiedFactor, embodiedMethod } from './factors/embodied';
import { EmbodiedRequest, readEmbodiedRequest } from './embodied.schema';
import { embodiedEstimate, embodiedEstimateOfHours } from './estimate';

/** The dataset parts `calculateEmbodied` reads: the provider coefficients and the instance table (no grid). */
export const EMBODIED_DATASETS = {
  calculator: 'calculateEmbodied',
  parts: ['cloudCoefficients', 'cloudInstances'],
} as const satisfies CalculatorDatasets;

/** {@link calculateEmbodied} once its dataset parts and provider are checked. */
const embodiedOf: ProviderCalculator<CloudInstanceDatasets, Estimate> = (
  id,
  coefficients,
  request,
  datasets,
  options,
) => {
  const input = parseRequest(EmbodiedRequest, request, readEmbodiedRequest);
  const instance = resolveInstance(id, input.instance, datasets);
  const year = embodiedYear(input.year, datasets);
  const embodied = embodiedFactor(id, instance, coefficients, year, datasets);
  const hoursNumber =
    options?.significantDigits === undefined
      ? decidedProduct(input.duration, hoursRatio(input.duration_unit), input.instance_count)
      : undefined;
  // Which figure it rests on: the source's published platform figure or one derived (datasets/SOURCES.md).
  const details = { embodied_method: embodiedMethod(instance) };
  if (hoursNumber !== undefined) {
    return embodiedEstimateOfHours(
      hoursNumber,
      embodied,
      datasets.cloudInstances.gwp,
      input.audit_trail,
      details,
    );
  } else {
    const instanceHours = mul(
      decimal(input.instance_count),
      toHours(decimal(input.duration), input.duration_unit),
    );
    const estimate = embodiedEstimate(
      embodiedCo2e(instanceHours, embodied),
      instanceHours,
      embodied,
      datasets.cloudInstances.gwp,
      input.audit_trail,
      options,
    );
    estimate.calculation_details = details;
    return estimate;
  }
};

/**
 * Embodied (manufacturing and disposal) emissions of the CPUs behind instances: activity
 * `instance_count × hours` in `instance-hour`, factor `TE · (instance vCPU / platform vCPU) / 35040` kg per
 * instance-hour, with TE the host platform's embodied kg CO2e. `calculation_details.embodied_method` says whether
 * TE is the source's `published` figure or `derived from platform specs` (or from a predecessor family).
 *
 * @example
 * ```ts
 * calculateEmbodied('aws', { instance: 'm5.large', instance_count: 3, duration: 24 }, defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_instance`, `no_emission_factors_found` (year),
 *   `invalid_request`; `missing_dataset` (status 500) when `datasets` has no instance table.
 */
export const calculateEmbodied: CloudCalculator<EmbodiedRequest> = cloudCalculator(
  embodiedOf,
  EMBODIED_DATASETS,
);

/**
 * {@link calculateEmbodied} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateEmbodiedBatch('azure', [{ instance: 'Standard_D2s_v3', instance_count: 1, duration: 1 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateEmbodiedBatch: CloudBatch<EmbodiedRequest, Estimate> = cloudBatch(
  embodiedOf,
  EMBODIED_DATASETS,
);
