import type { CloudProviderSpelling } from './spellings';
import { dataUnit, nonEmptyString, quantity } from '../core/validate';
import { cloudRequest, type RequestFor } from './request.schema';

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
