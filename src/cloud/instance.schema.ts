import type * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import {
  NOT_PLAIN,
  plainAuditTrail,
  plainObject,
  plainYear,
  plainDurationUnit,
  plainQuantity,
  plainText,
  plainUtilization,
} from '../core/plain-request';
import { nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor, fieldNames } from './request.schema';
import { utilization } from './cpu.schema';

/** Request body of `POST /compute/{provider_id}/instance` (a whole virtual machine). */
export const InstanceRequest = cloudRequest({
  instance: nonEmptyString(),
  region: nonEmptyString(),
  ...durationFields(),
  /** The VM's average CPU load, 0..1 (default 0.5). */
  average_vcpu_utilization: utilization(),
});
/** A virtual-machine request as a caller writes it. */
export type InstanceRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof InstanceRequest,
  P
>;

const INSTANCE_FIELDS = /* @__PURE__ */ fieldNames(InstanceRequest);

/**
 * A plainly valid instance request read by hand into what {@link InstanceRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readInstanceRequest({ instance: 't3.micro', region: 'us_east_1', duration: 1 }); // { …, audit_trail: 'enabled' }
 * ```
 */
export function readInstanceRequest(request: unknown): z.output<typeof InstanceRequest> | undefined {
  if (!plainObject(request, INSTANCE_FIELDS)) return undefined;
  const instance = plainText(request.instance);
  const region = plainText(request.region);
  const duration = plainQuantity(request.duration);
  const duration_unit = plainDurationUnit(request.duration_unit);
  const average_vcpu_utilization = plainUtilization(request.average_vcpu_utilization);
  const year = plainYear(request.year);
  const audit_trail = plainAuditTrail(request.audit_trail);
  if (
    instance === NOT_PLAIN ||
    region === NOT_PLAIN ||
    duration === NOT_PLAIN ||
    duration_unit === NOT_PLAIN ||
    average_vcpu_utilization === NOT_PLAIN ||
    year === NOT_PLAIN ||
    audit_trail === NOT_PLAIN
  ) {
    return undefined;
  }
  return year === undefined
    ? { instance, region, duration, duration_unit, average_vcpu_utilization, audit_trail }
    : { instance, region, duration, duration_unit, average_vcpu_utilization, year, audit_trail };
}
