import * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { dataUnit, MAX_QUANTITY, nonEmptyString, quantity } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor } from './request.schema';

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
  ...durationFields(),
  replication_factor: z.optional(replicationFactor()),
});

/** Request body of `POST /compute/{provider_id}/memory`. */
export const MemoryRequest = cloudRequest(dataOverTimeFields());
/** A memory request as a caller writes it. */
export type MemoryRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof MemoryRequest,
  P
>;
