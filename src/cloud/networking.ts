import { decimal } from '../core/decimal';
import { toGigabytes } from '../core/units';
import type { CalculationOptions, Estimate } from '../core/estimate';
import type { CalculatorDatasets } from '../datasets/require';
import type { CloudDatasets } from '../datasets/types';
import { type CloudBatch, cloudBatch } from './batch';
import type { CloudProviderSpelling } from './spellings';
import { USE_PHASE_PARTS } from './resolve';
import type * as z from 'zod/mini';
import { exactQuantity, type Quantity, usePhaseCalculator, type UsePhaseSpec } from './use-phase-calculator';
import { NetworkingRequest } from './networking.schema';

/** The dataset parts `calculateNetworking` reads: the provider coefficients and the region grid factors. */
export const NETWORKING_DATASETS = {
  calculator: 'calculateNetworking',
  parts: USE_PHASE_PARTS,
} as const satisfies CalculatorDatasets;

/** A networking request after its schema, its quantity a number or an exact decimal. */
export type NetworkingInput = Omit<z.output<typeof NetworkingRequest>, 'data'> & { data: Quantity };

/**
 * `calculateNetworking` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const NETWORKING_USE_PHASE = {
  kind: 'networking',
  datasets: NETWORKING_DATASETS,
  schema: NetworkingRequest,
  unit: 'GB',
  activity: (input) => toGigabytes(exactQuantity(input.data), input.data_unit),
  energyPerUnit: (coefficients) => decimal(coefficients.networking_kwh_per_gb),
  published: () => 'networking',
} satisfies UsePhaseSpec<NetworkingInput, typeof NetworkingRequest>;

const networking = /* @__PURE__ */ usePhaseCalculator(NETWORKING_USE_PHASE);

/**
 * Use-phase emissions of data transferred between data centres: activity in `GB`, factor
 * `networking kWh per GB · PUE · grid(region, year)`. Traffic to end users is out of scope, as in CCF.
 *
 * @example
 * ```ts
 * calculateNetworking('aws', { region: 'us_east_1', data: 100, data_unit: 'GB' }, defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found`, `invalid_request`.
 */
export function calculateNetworking<P extends CloudProviderSpelling>(
  provider: P,
  request: NetworkingRequest<P>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): Estimate {
  return networking.calculate(provider, request, datasets, options);
}

/** `calculateNetworking` for a request already resolved (engine-internal: the billing reader). */
export const networkingResolved = networking.resolved;

/**
 * {@link calculateNetworking} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateNetworkingBatch('gcp', [{ region: 'europe_west1', data: 5, data_unit: 'TB' }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateNetworkingBatch: CloudBatch<NetworkingRequest, Estimate> = cloudBatch(
  calculateNetworking,
  NETWORKING_DATASETS,
);
