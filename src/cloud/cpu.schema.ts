import * as z from 'zod/mini';
import {
  plainCount,
  plainDurationUnit,
  plainQuantity,
  plainReader,
  plainText,
  plainUtilization,
} from '../core/plain-request';
import type { CloudProviderSpelling } from './spellings';
import { count, nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor, fieldNames } from './request.schema';

/** `average_vcpu_utilization`: 0..1, default 0.5. */
export const utilization = () =>
  z.pipe(
    z.optional(
      z
        .number({ error: 'must be a number' })
        .check(z.minimum(0, 'must be between 0 and 1'), z.maximum(1, 'must be between 0 and 1')),
    ),
    // `+ 0` turns -0 into 0, so the echoed load never prints as -0.
    z.transform((value: number | undefined) => (value === undefined ? 0.5 : value + 0)),
  );

/** Request body of `POST /compute/{provider_id}/cpu`. */
export const CpuRequest = cloudRequest({
  cpu_count: count(),
  region: nonEmptyString(),
  average_vcpu_utilization: utilization(),
  ...durationFields(),
});
/** A CPU request as a caller writes it. */
export type CpuRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof CpuRequest,
  P
>;

/**
 * A plainly valid CPU request read by hand into what {@link CpuRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readCpuRequest({ cpu_count: 2, region: 'us_east_1', duration: 3 }); // { …, duration_unit: 'hour', audit_trail: 'enabled' }
 * ```
 */
export const readCpuRequest = /* @__PURE__ */ plainReader<z.output<typeof CpuRequest>>(
  /* @__PURE__ */ fieldNames(CpuRequest),
  (request, year, audit_trail) => {
    const cpu_count = plainCount(request.cpu_count);
    const region = plainText(request.region);
    const average_vcpu_utilization = plainUtilization(request.average_vcpu_utilization);
    const duration = plainQuantity(request.duration);
    const duration_unit = plainDurationUnit(request.duration_unit);
    return year === undefined
      ? { cpu_count, region, average_vcpu_utilization, duration, duration_unit, audit_trail }
      : { cpu_count, region, average_vcpu_utilization, duration, duration_unit, year, audit_trail };
  },
);
