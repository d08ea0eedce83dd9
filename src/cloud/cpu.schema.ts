import * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { count, nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor } from './request.schema';

/** `average_vcpu_utilization`: 0..1, default 0.5. */
export const utilization = () =>
  z.pipe(
    z.optional(
      z
        .number({ error: 'must be a number' })
        .check(z.minimum(0, 'must be between 0 and 1'), z.maximum(1, 'must be between 0 and 1')),
    ),
    // `+ 0` turns -0 into 0, so the echoed load never prints as -0.
    z.transform((value: number | undefined) => (value === undefined ? 0.5 : value + 0)),
  );

/** Request body of `POST /compute/{provider_id}/cpu`. */
export const CpuRequest = cloudRequest({
  cpu_count: count(),
  region: nonEmptyString(),
  average_vcpu_utilization: utilization(),
  ...durationFields(),
});
/** A CPU request as a caller writes it. */
export type CpuRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof CpuRequest,
  P
>;
