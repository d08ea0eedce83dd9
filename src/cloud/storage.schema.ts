import * as z from 'zod/mini';
import type { CloudProviderSpelling, ForProvider, StorageTypeSpelling } from './spellings';
import { withInput } from '../core/validate';
import { shownInput } from '../core/errors';
import { dataOverTimeFields } from './memory.schema';

/** Request body of `POST /compute/{provider_id}/storage`. */
export const StorageRequest = z.strictObject(
  {
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
  },
  { error: 'must be a JSON object' },
);
/** A storage request as a caller writes it. */
export type StorageRequest<P extends CloudProviderSpelling = CloudProviderSpelling> = ForProvider<
  z.input<typeof StorageRequest>,
  P
>;
