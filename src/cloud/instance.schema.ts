import type * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import {
  plainDurationUnit,
  plainQuantity,
  plainReader,
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

/**
 * A plainly valid instance request read by hand into what {@link InstanceRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readInstanceRequest({ instance: 't3.micro', region: 'us_east_1', duration: 1 }); // { …, audit_trail: 'enabled' }
 * ```
 */
export const readInstanceRequest = /* @__PURE__ */ plainReader<z.output<typeof InstanceRequest>>(
  /* @__PURE__ */ fieldNames(InstanceRequest),
  (request, year, audit_trail) => {
    const instance = plainText(request.instance);
    const region = plainText(request.region);
    const duration = plainQuantity(request.duration);
    const duration_unit = plainDurationUnit(request.duration_unit);
    const average_vcpu_utilization = plainUtilization(request.average_vcpu_utilization);
    return year === undefined
      ? { instance, region, duration, duration_unit, average_vcpu_utilization, audit_trail }
      : { instance, region, duration, duration_unit, average_vcpu_utilization, year, audit_trail };
  },
);
