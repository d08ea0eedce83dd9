import * as z from 'zod';
import { EmissionsError, formatPath } from './errors';
import {
  closeDataUnits,
  closeDurationUnits,
  DATA_UNIT_SPELLINGS,
  DURATION_UNIT_SPELLINGS,
  type DataUnit,
  type DataUnitSpelling,
  type DurationUnit,
  type DurationUnitSpelling,
  parseDataUnit,
  parseDurationUnit,
} from './units';

/**
 * Shared request-schema pieces and the one place where a zod failure becomes an {@link EmissionsError}.
 */

/** Largest accepted quantity (money, duration, data, counts): keeps every result a finite JS number. */
export const MAX_QUANTITY = 1e15;

/** A finite, non-negative quantity no larger than {@link MAX_QUANTITY}. */
export const quantity = () =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
    .finite('must be a finite number')
    .nonnegative('must not be negative')
    .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`);

/** A non-negative whole number no larger than {@link MAX_QUANTITY}. */
export const count = () => quantity().int('must be a whole number');

/** A four-digit year. */
export const year = () =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
    .int('must be a whole number')
    .min(1900, 'must be 1900 or later')
    .max(2200, 'must be 2200 or earlier');

/**
 * The schema with its input type narrowed to `I` for TypeScript only: what callers may pass, so editors complete
 * it and a wrong literal is a type error. Validation is unchanged: untyped callers (JSON, the HTTP layer) still
 * reach the schema's own checks and messages.
 */
export const withInput =
  <I>() =>
  <S extends z.ZodType>(schema: S): S & { _zod: { input: I } } =>
    schema as S & { _zod: { input: I } };

const unitSchema = <U extends string>(
  parse: (spelling: string) => U | undefined,
  valid: readonly string[],
  close: (spelling: string) => string[],
) =>
  z.string({ error: 'must be a string' }).transform((spelling, ctx): U => {
    const unit = parse(spelling);
    if (unit === undefined) {
      const suggestions = close(spelling);
      ctx.issues.push({
        code: 'custom',
        input: spelling,
        message:
          `'${spelling}' is not a valid unit.` +
          (suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '') +
          ` Valid units: ${valid.join(', ')}`,
        params: { valid_values: valid },
      });
      return z.NEVER;
    }
    return unit;
  });

/**
 * `duration_unit`: hour (`hours`, `h`, `hr`), min (`minute`, `minutes`), sec (`s`, `second`, `seconds`), ms, day
 * (`days`, `d`), any case, canonicalised; defaults to hour. Not `m` (minutes or months?).
 */
export const durationUnit = () =>
  withInput<DurationUnitSpelling | undefined>()(
    unitSchema<DurationUnit>(parseDurationUnit, DURATION_UNIT_SPELLINGS, closeDurationUnits)
      .optional()
      .transform((unit): DurationUnit => unit ?? 'hour'),
  );

/**
 * `data_unit`: KB, MB, GB, TB, PB (decimal) and KiB, MiB, GiB, TiB, PiB (binary), also spelled out (`gigabytes`),
 * any case, canonicalised; defaults to GB.
 */
export const dataUnit = () =>
  withInput<DataUnitSpelling | undefined>()(
    unitSchema<DataUnit>(parseDataUnit, DATA_UNIT_SPELLINGS, closeDataUnits)
      .optional()
      .transform((unit): DataUnit => unit ?? 'GB'),
  );

/** `audit_trail`: enabled (default) or disabled. */
export const auditTrail = () =>
  z
    .enum(['enabled', 'disabled'], { error: "must be 'enabled' or 'disabled'" })
    .optional()
    .transform((value) => value ?? 'enabled');

/** A non-empty string; trims nothing, so the caller's spelling is echoed as given. */
export const nonEmptyString = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters');

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with zod's generated fast path in front (`z.compile`), built once per schema: a valid request is
 * checked by straight-line code, and anything else falls back to the ordinary parser, so errors are the same.
 * Where `new Function` is not allowed (a strict CSP), zod keeps the ordinary parser.
 */
function compiled<S extends z.ZodType>(schema: S): S {
  let fast = compiledSchemas.get(schema);
  if (fast === undefined) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast as S;
}

/**
 * Parses `input` with `schema`, or throws `invalid_request` naming the first problem and where it is.
 *
 * @throws {EmissionsError} `invalid_request`
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = compiled(schema).safeParse(input);
  if (result.success) return result.data;
  throw issueToError(result.error.issues[0]);
}

function issueToError(issue: z.core.$ZodIssue | undefined): EmissionsError {
  if (issue === undefined) return new EmissionsError('invalid_request', 'The request is not valid.');
  if (issue.code === 'unrecognized_keys') {
    const path = formatPath([...issue.path, issue.keys[0] ?? '']);
    return new EmissionsError(
      'invalid_request',
      `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}.`,
      { path },
    );
  }
  const path = formatPath(issue.path);
  const what = path === '' ? 'The request' : `'${path}'`;
  const validValues =
    issue.code === 'custom' ? (issue.params?.valid_values as string[] | undefined) : undefined;
  const message = issue.code === 'custom' ? issue.message : `${what} ${issue.message}.`;
  // A problem with the whole body has no path: the body itself is what is wrong.
  return new EmissionsError('invalid_request', path === '' ? 'The request must be a JSON object.' : message, {
    ...(path !== '' && { path }),
    ...(validValues && { valid_values: validValues }),
  });
}
