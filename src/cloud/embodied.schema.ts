import type * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import { plainCount, plainDurationUnit, plainQuantity, plainReader, plainText } from '../core/plain-request';
import { count, nonEmptyString } from '../core/validate';
import { cloudRequest, durationFields, type RequestFor, fieldNames } from './request.schema';

/** Request body of `POST /compute/{provider_id}/embodied`. */
export const EmbodiedRequest = cloudRequest({
  instance: nonEmptyString(),
  instance_count: count(),
  ...durationFields(),
});
/** An embodied-CPU request as a caller writes it. */
export type EmbodiedRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof EmbodiedRequest,
  P
>;

/**
 * A plainly valid embodied request read by hand into what {@link EmbodiedRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readEmbodiedRequest({ instance: 'm5.large', instance_count: 3, duration: 24 }); // { …, audit_trail: 'enabled' }
 * ```
 */
export const readEmbodiedRequest = /* @__PURE__ */ plainReader<z.output<typeof EmbodiedRequest>>(
  /* @__PURE__ */ fieldNames(EmbodiedRequest),
  (request, year, audit_trail) => {
    const instance = plainText(request.instance);
    const instance_count = plainCount(request.instance_count);
    const duration = plainQuantity(request.duration);
    const duration_unit = plainDurationUnit(request.duration_unit);
    return year === undefined
      ? { instance, instance_count, duration, duration_unit, audit_trail }
      : { instance, instance_count, duration, duration_unit, year, audit_trail };
  },
);
