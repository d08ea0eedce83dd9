import { decimal } from '../core/decimal';
import { gigabytesRatio, toGigabytes } from '../core/units';
import type { CloudBatch, CloudCalculator } from './batch';
import type * as z from 'zod/mini';
import { exactQuantity, usePhaseForms, type UsePhaseSpec, type WithQuantities } from './use-phase-calculator';
import { decidedProduct } from './fast-activity';
import { USE_PHASE_PARTS } from './resolve';
import { NetworkingRequest, readNetworkingRequest } from './networking.schema';

/** A networking request after its schema, its quantity a number or an exact decimal. */
export type NetworkingInput = WithQuantities<z.output<typeof NetworkingRequest>, 'data'>;

/**
 * `calculateNetworking` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const NETWORKING_USE_PHASE = {
  kind: 'networking',
  datasets: { calculator: 'calculateNetworking', parts: USE_PHASE_PARTS },
  schema: NetworkingRequest,
  read: readNetworkingRequest,
  activity: (input) => toGigabytes(exactQuantity(input.data), input.data_unit),
  fastActivity: (input) => decidedProduct(input.data, gigabytesRatio(input.data_unit)),
  unit: 'GB',
  energyPerUnit: (coefficients) => decimal(coefficients.networking_kwh_per_gb),
  published: () => 'networking',
} satisfies UsePhaseSpec<NetworkingInput, typeof NetworkingRequest>;

const networking = /* @__PURE__ */ usePhaseForms(NETWORKING_USE_PHASE);

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
export const calculateNetworking: CloudCalculator<NetworkingRequest> = networking.calculate;

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
export const calculateNetworkingBatch: CloudBatch<NetworkingRequest> = networking.batch;
