import type { CloudProviderSpelling } from './spellings';
import { nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor } from './request.schema';
import { utilization } from './cpu.schema';

/** Request body of `POST /compute/{provider_id}/instance` (a whole virtual machine). */
export const InstanceRequest = cloudRequest({
  instance: nonEmptyString(),
  region: nonEmptyString(),
  ...durationFields(),
  /** The VM's average CPU load, 0..1 (default 0.5). */
  average_vcpu_utilization: utilization(),
});
/** A virtual-machine request as a caller writes it. */
export type InstanceRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof InstanceRequest,
  P
>;
