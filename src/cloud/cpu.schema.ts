import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import { auditTrail, count, durationUnit, nonEmptyString, quantity, year } from '../core/validate';

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
export const CpuRequest = z.strictObject(
  {
    cpu_count: count(),
    region: nonEmptyString(),
    average_vcpu_utilization: utilization(),
    duration: quantity(),
    duration_unit: durationUnit(),
    year: z.optional(year()),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** A CPU request as a caller writes it. */
export type CpuRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof CpuRequest>,
  P
>;
