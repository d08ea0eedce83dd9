import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider } from './spellings';
import {
  auditTrail,
  dataUnit,
  durationUnit,
  MAX_QUANTITY,
  nonEmptyString,
  quantity,
  year,
} from '../core/validate';

/**
 * `replication_factor`: how many copies of the data the provider keeps (CCF multiplies EBS by 2, S3 by 3, …);
 * a positive number, at most {@link MAX_QUANTITY}. Absent means 1 (and is not echoed).
 */
export const replicationFactor = () =>
  z
    .number({ error: 'must be a number' })
    .check(z.positive('must be greater than 0'), z.maximum(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`));

/** Fields of a request for data held over time (memory allocated, data stored), shared by memory and storage. */
export const dataOverTimeFields = () => ({
  region: nonEmptyString(),
  data: quantity(),
  data_unit: dataUnit(),
  duration: quantity(),
  duration_unit: durationUnit(),
  replication_factor: z.optional(replicationFactor()),
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
