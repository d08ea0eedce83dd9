import * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { dataUnit, MAX_QUANTITY, nonEmptyString, quantity } from '../core/validate';
import { cloudRequest, durationFields, fieldNames, type RequestFor } from './request.schema';
import {
  NOT_PLAIN,
  plainAuditTrail,
  plainDataUnit,
  plainDurationUnit,
  plainObject,
  plainQuantity,
  plainReplication,
  plainText,
  plainYear,
} from '../core/plain-request';
import type { DataUnit, DurationUnit } from '../core/units';

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

/** A memory or storage request as its schema gives it, its storage type where it has one. */
interface DataOverTime {
  storage_type?: 'ssd' | 'hdd';
  region: string;
  data: number;
  data_unit: DataUnit;
  duration: number;
  duration_unit: DurationUnit;
  replication_factor?: number;
  year?: number;
  audit_trail: 'enabled' | 'disabled';
}

/**
 * The data-over-time fields of a plainly valid memory or storage request, in its schema's order (after the storage
 * type, where there is one); undefined where any is not plain, for the schema to parse (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readDataOverTime({ region: 'us_east_1', data: 16, duration: 1 }, undefined); // { …, data_unit: 'GB', … }
 * ```
 */
export function readDataOverTime(
  request: Record<string, unknown>,
  storageType: 'ssd' | 'hdd' | undefined,
): DataOverTime | undefined {
  const region = plainText(request.region);
  const data = plainQuantity(request.data);
  const data_unit = plainDataUnit(request.data_unit);
  const duration = plainQuantity(request.duration);
  const duration_unit = plainDurationUnit(request.duration_unit);
  const replication = plainReplication(request.replication_factor);
  const year = plainYear(request.year);
  const audit_trail = plainAuditTrail(request.audit_trail);
  if (
    region === NOT_PLAIN ||
    data === NOT_PLAIN ||
    data_unit === NOT_PLAIN ||
    duration === NOT_PLAIN ||
    duration_unit === NOT_PLAIN ||
    replication === NOT_PLAIN ||
    year === NOT_PLAIN ||
    audit_trail === NOT_PLAIN
  ) {
    return undefined;
  }
  // Built in the schema's order, `audit_trail` last, as the schema's output has it.
  const read: Omit<DataOverTime, 'audit_trail'> & { audit_trail?: DataOverTime['audit_trail'] } =
    storageType === undefined
      ? { region, data, data_unit, duration, duration_unit }
      : { storage_type: storageType, region, data, data_unit, duration, duration_unit };
  if (replication !== undefined) read.replication_factor = replication;
  if (year !== undefined) read.year = year;
  read.audit_trail = audit_trail;
  return read as DataOverTime;
}

const MEMORY_FIELDS = /* @__PURE__ */ fieldNames(MemoryRequest);

/**
 * A plainly valid memory request read by hand into what {@link MemoryRequest} would give; undefined for anything
 * else, which the schema then parses.
 *
 * @example
 * ```ts
 * readMemoryRequest({ region: 'us_east_1', data: 16, duration: 1 }); // { …, data_unit: 'GB', audit_trail: 'enabled' }
 * ```
 */
export const readMemoryRequest = (request: unknown): z.output<typeof MemoryRequest> | undefined =>
  plainObject(request, MEMORY_FIELDS) ? readDataOverTime(request, undefined) : undefined;
