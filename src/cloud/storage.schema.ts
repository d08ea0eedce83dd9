import * as z from 'zod/mini';
import type { CloudProviderSpelling, StorageTypeSpelling } from './spellings';
import { withInput } from '../core/validate';
import { shownInput } from '../core/errors';
import { dataOverTimeFields } from './memory.schema';
import { cloudRequest, type RequestFor } from './request.schema';

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
