import type * as z from 'zod/mini';
import type { CloudProviderSpelling } from './spellings';
import {
  NOT_PLAIN,
  plainAuditTrail,
  plainObject,
  plainYear,
  plainCount,
  plainDurationUnit,
  plainQuantity,
  plainText,
} from '../core/plain-request';
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

const EMBODIED_FIELDS = /* @__PURE__ */ fieldNames(EmbodiedRequest);

/**
 * A plainly valid embodied request read by hand into what {@link EmbodiedRequest} would give; undefined for anything
 * else, which the schema then parses (see core/plain-request.ts).
 *
 * @example
 * ```ts
 * readEmbodiedRequest({ instance: 'm5.large', instance_count: 3, duration: 24 }); // { …, audit_trail: 'enabled' }
 * ```
 */
export function readEmbodiedRequest(request: unknown): z.output<typeof EmbodiedRequest> | undefined {
  if (!plainObject(request, EMBODIED_FIELDS)) return undefined;
  const instance = plainText(request.instance);
  const instance_count = plainCount(request.instance_count);
  const duration = plainQuantity(request.duration);
  const duration_unit = plainDurationUnit(request.duration_unit);
  const year = plainYear(request.year);
  const audit_trail = plainAuditTrail(request.audit_trail);
  if (
    instance === NOT_PLAIN ||
    instance_count === NOT_PLAIN ||
    duration === NOT_PLAIN ||
    duration_unit === NOT_PLAIN ||
    year === NOT_PLAIN ||
    audit_trail === NOT_PLAIN
  ) {
    return undefined;
  }
  return year === undefined
    ? { instance, instance_count, duration, duration_unit, audit_trail }
    : { instance, instance_count, duration, duration_unit, year, audit_trail };
}
