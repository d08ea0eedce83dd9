import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import { auditTrail, durationUnit, nonEmptyString, quantity, year } from '../core/validate';
import { utilization } from './cpu.schema';

/** Request body of `POST /compute/{provider_id}/instance` (a whole virtual machine). */
export const InstanceRequest = z.strictObject(
  {
    instance: nonEmptyString(),
    region: nonEmptyString(),
    duration: quantity(),
    duration_unit: durationUnit(),
    /** The VM's average CPU load, 0..1 (default 0.5). */
    average_vcpu_utilization: utilization(),
    year: z.optional(year()),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** A virtual-machine request as a caller writes it. */
export type InstanceRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof InstanceRequest>,
  P
>;
