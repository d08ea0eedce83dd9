import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import { auditTrail, dataUnit, nonEmptyString, quantity, year } from '../core/validate';

/** Request body of `POST /compute/{provider_id}/networking`. */
export const NetworkingRequest = z.strictObject(
  {
    region: nonEmptyString(),
    data: quantity(),
    data_unit: dataUnit(),
    year: z.optional(year()),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** A networking request as a caller writes it. */
export type NetworkingRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof NetworkingRequest>,
  P
>;
