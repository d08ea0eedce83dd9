import * as z from 'zod/mini';
import { auditTrail, durationUnit, quantity, year } from '../core/validate';
import { type FieldNames, fieldNamesOf } from '../core/plain-request';
import type { CloudProviderSpelling, ForProvider } from './spellings';

/**
 * A cloud request body: the calculator's own fields, then the two every cloud request takes (`year` of the grid
 * factor, `audit_trail`); any other field is an error.
 *
 * @example
 * ```ts
 * const NetworkingRequest = cloudRequest({ region: nonEmptyString(), data: quantity(), data_unit: dataUnit() });
 * ```
 */
export const cloudRequest = <F extends z.core.$ZodLooseShape>(fields: F) =>
  z.strictObject(
    { ...fields, year: z.optional(year()), audit_trail: auditTrail() },
    { error: 'must be a JSON object' },
  );

/** `duration` and its `duration_unit` (default `hour`), as the requests over time take them. */
export const durationFields = () => ({ duration: quantity(), duration_unit: durationUnit() });

/** A cloud request as a caller writes it, with the provider's own spellings where the provider is known. */
export type RequestFor<S extends z.ZodMiniType, P extends CloudProviderSpelling> = ForProvider<z.input<S>, P>;

/**
 * The field names of a cloud request schema, for its plain reader's unknown-field check.
 *
 * @example
 * ```ts
 * const CPU_KEYS = fieldNames(CpuRequest); // cpu_count, region, …, year, audit_trail
 * ```
 */
export const fieldNames = (schema: z.ZodMiniObject): FieldNames => fieldNamesOf(Object.keys(schema.shape));
