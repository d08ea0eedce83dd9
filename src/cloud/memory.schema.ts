import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import { auditTrail, dataUnit, durationUnit, nonEmptyString, quantity, year } from '../core/validate';

/** Fields of a request for data held over time (memory allocated, data stored), shared by memory and storage. */
export const dataOverTimeFields = () => ({
  region: nonEmptyString(),
  data: quantity(),
  data_unit: dataUnit(),
  duration: quantity(),
  duration_unit: durationUnit(),
  year: z.optional(year()),
  audit_trail: auditTrail(),
});

/** Request body of `POST /compute/{provider_id}/memory`. */
export const MemoryRequest = z.strictObject(dataOverTimeFields(), { error: 'must be a JSON object' });
/** A memory request as a caller writes it. */
export type MemoryRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof MemoryRequest>,
  P
>;
