import * as z from 'zod';
import { auditTrail, dataUnit, durationUnit, nonEmptyString, quantity, year } from '../core/validate';

/** Request body of `POST /compute/{provider_id}/memory`. */
export const MemoryRequest = z.strictObject(
  {
    region: nonEmptyString(),
    data: quantity(),
    data_unit: dataUnit(),
    duration: quantity(),
    duration_unit: durationUnit(),
    year: year().optional(),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** A memory request as a caller writes it. */
export type MemoryRequest = z.input<typeof MemoryRequest>;
