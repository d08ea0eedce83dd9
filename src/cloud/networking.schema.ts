import type * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { plainDataUnit, plainQuantity, plainReader, plainText } from '../core/plain-request';
import { dataUnit, nonEmptyString, quantity } from '../core/validate';
import { cloudRequest, type RequestFor, fieldNames } from './request.schema';

/** Request body of `POST /compute/{provider_id}/networking`. */
export const NetworkingRequest = cloudRequest({
  region: nonEmptyString(),
  data: quantity(),
  data_unit: dataUnit(),
});
/** A networking request as a caller writes it. */
export type NetworkingRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof NetworkingRequest,
  P
>;

/**
 * A plainly valid networking request read by hand into what {@link NetworkingRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readNetworkingRequest({ region: 'us_east_1', data: 10 }); // { region, data: 10, data_unit: 'GB', audit_trail: 'enabled' }
 * ```
 */
export const readNetworkingRequest = /* @__PURE__ */ plainReader<z.output<typeof NetworkingRequest>>(
  /* @__PURE__ */ fieldNames(NetworkingRequest),
  (request, year, audit_trail) => {
    const region = plainText(request.region);
    const data = plainQuantity(request.data);
    const data_unit = plainDataUnit(request.data_unit);
    return year === undefined
      ? { region, data, data_unit, audit_trail }
      : { region, data, data_unit, year, audit_trail };
  },
);
