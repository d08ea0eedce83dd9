import type { CloudProviderSpelling } from './spellings';
import { count, nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor } from './request.schema';

/** Request body of `POST /compute/{provider_id}/embodied`. */
export const EmbodiedRequest = cloudRequest({
  instance: nonEmptyString(),
  instance_count: count(),
  ...durationFields(),
});
/** An embodied-CPU request as a caller writes it. */
export type EmbodiedRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof EmbodiedRequest,
  P
>;
