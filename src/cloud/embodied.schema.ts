import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import { auditTrail, count, durationUnit, nonEmptyString, quantity, year } from '../core/validate';

/** Request body of `POST /compute/{provider_id}/embodied`. */
export const EmbodiedRequest = z.strictObject(
  {
    instance: nonEmptyString(),
    instance_count: count(),
    duration: quantity(),
    duration_unit: durationUnit(),
    year: z.optional(year()),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** An embodied-CPU request as a caller writes it. */
export type EmbodiedRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof EmbodiedRequest>,
  P
>;
