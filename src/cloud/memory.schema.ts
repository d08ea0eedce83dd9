import * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { dataUnit, MAX_QUANTITY, nonEmptyString, quantity } from '../core/validate';
import { cloudRequest, durationFields, fieldNames, type RequestFor } from './request.schema';
import {
  plainDataUnit,
  plainDurationUnit,
  plainQuantity,
  plainReader,
  plainReplication,
  plainText,
} from '../core/plain-request';

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

/**
 * A plainly valid memory request (`storageType` undefined) or storage request read by hand, in its schema's key
 * order: the field readers throw where a value is not plain (see core/plain-request.ts). Without a replication
 * factor, as most requests come, the object is one literal: built key by key, it would change shape at each key.
 *
 * @example
 * ```ts
 * readDataOverTime({ region: 'us_east_1', data: 16, duration: 1 }, undefined, undefined, 'enabled'); // { region, data: 16, … }
 * ```
 */
export function readDataOverTime(
  request: Record<string, unknown>,
  storageType: 'ssd' | 'hdd' | undefined,
  year: number | undefined,
  audit_trail: 'enabled' | 'disabled',
): object {
  const region = plainText(request.region);
  const data = plainQuantity(request.data);
  const data_unit = plainDataUnit(request.data_unit);
  const duration = plainQuantity(request.duration);
  const duration_unit = plainDurationUnit(request.duration_unit);
  const replication_factor = plainReplication(request.replication_factor);
  if (replication_factor === undefined) {
    if (storageType === undefined) {
      return year === undefined
        ? { region, data, data_unit, duration, duration_unit, audit_trail }
        : { region, data, data_unit, duration, duration_unit, year, audit_trail };
    }
    const storage_type = storageType;
    return year === undefined
      ? { storage_type, region, data, data_unit, duration, duration_unit, audit_trail }
      : { storage_type, region, data, data_unit, duration, duration_unit, year, audit_trail };
  }
  const fields = { region, data, data_unit, duration, duration_unit, replication_factor };
  const read: Record<string, unknown> =
    storageType === undefined ? fields : { storage_type: storageType, ...fields };
  if (year !== undefined) read.year = year;
  read.audit_trail = audit_trail;
  return read;
}

/**
 * A plainly valid memory request read by hand into what {@link MemoryRequest} would give; undefined for anything
 * else, which the schema then parses.
 *
 * @example
 * ```ts
 * readMemoryRequest({ region: 'us_east_1', data: 16, duration: 1 }); // { …, data_unit: 'GB', audit_trail: 'enabled' }
 * ```
 */
export const readMemoryRequest = /* @__PURE__ */ plainReader<z.output<typeof MemoryRequest>>(
  /* @__PURE__ */ fieldNames(MemoryRequest),
  (request, year, auditTrail) =>
    readDataOverTime(request, undefined, year, auditTrail) as z.output<typeof MemoryRequest>,
);
