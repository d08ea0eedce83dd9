import * as z from 'zod/mini';
import type { CloudProviderSpelling, StorageTypeSpelling } from './spellings';
import { withInput } from '../core/validate';
import { shownInput } from '../core/errors';
import { dataOverTimeFields, readDataOverTime } from './memory.schema';
import { cloudRequest, fieldNames, type RequestFor } from './request.schema';
import { plainReader, plainStorageType } from '../core/plain-request';

/** Request body of `POST /compute/{provider_id}/storage`. */
export const StorageRequest = cloudRequest({
  storage_type: withInput<StorageTypeSpelling>()(
    z.pipe(
      z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }),
      z.transform((value: string, ctx) => {
        const type = value.toLowerCase();
        if (type === 'ssd' || type === 'hdd') return type;
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `'${shownInput(value)}' is not a storage type. Valid storage types: ssd, hdd`,
          params: { valid_values: ['ssd', 'hdd'] },
        });
        return z.NEVER;
      }),
    ),
  ),
  ...dataOverTimeFields(),
});
/** A storage request as a caller writes it. */
export type StorageRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = RequestFor<
  typeof StorageRequest,
  P
>;

/**
 * A plainly valid storage request read by hand into what {@link StorageRequest} would give; undefined for anything
 * else, which the schema then parses.
 *
 * @example
 * ```ts
 * readStorageRequest({ storage_type: 'SSD', region: 'us_east_1', data: 1, duration: 1 }); // storage_type 'ssd', …
 * ```
 */
export const readStorageRequest = /* @__PURE__ */ plainReader<z.output<typeof StorageRequest>>(
  /* @__PURE__ */ fieldNames(StorageRequest),
  (request, year, auditTrail) =>
    readDataOverTime(request, plainStorageType(request.storage_type), year, auditTrail) as z.output<
      typeof StorageRequest
    >,
);
