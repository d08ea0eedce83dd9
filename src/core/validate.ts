import * as z from 'zod/mini';
import {
  didYouMean,
  EmissionsError,
  formatPath,
  listForMessage,
  listWithin,
  MAX_MESSAGE_CHARS,
  messages,
  shownInput,
  thrownReason,
} from './errors';
import { fastParser } from './fast-parse';
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

/** The message of a number or string field that is missing or of another type. */
const requiredOr = (wrongType: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : wrongType;

/** A finite, non-negative quantity no larger than {@link MAX_QUANTITY}. */
export const quantity = () =>
  z
    .number({ error: requiredOr('must be a number') })
    .check(z.nonnegative('must not be negative'), z.maximum(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`));

/** A non-negative whole number no larger than {@link MAX_QUANTITY}. */
export const count = () => quantity().check(z.int('must be a whole number'));

/** A four-digit year. */
export const year = () =>
  z
    .number({ error: requiredOr('must be a number') })
    .check(
      z.int('must be a whole number'),
      z.minimum(1900, 'must be 1900 or later'),
      z.maximum(2200, 'must be 2200 or earlier'),
    );

/**
 * The schema with its input type narrowed to `I` for TypeScript only: what callers may pass, so editors complete
 * it and a wrong literal is a type error. Validation is unchanged: untyped callers (JSON, the HTTP layer) still
 * reach the schema's own checks and messages.
 */
export const withInput =
  <I>() =>
  <S extends z.ZodMiniType>(schema: S): S & { _zod: { input: I } } =>
    schema as S & { _zod: { input: I } };

const unitSchema = <U extends string>(
  parse: (spelling: string) => U | undefined,
  valid: readonly string[],
  close: (spelling: string) => string[],
) =>
  z.pipe(
    z.string({ error: 'must be a string' }),
    z.transform((spelling: string, ctx): U => {
      const unit = parse(spelling);
      if (unit === undefined) {
        const suggestions = close(spelling);
        ctx.issues.push({
          code: 'custom',
          input: spelling,
          message:
            `'${shownInput(spelling)}' is not a valid unit.` +
            didYouMean(suggestions) +
            ` Valid units: ${listForMessage(valid, 10)}`,
          params: { valid_values: valid },
        });
        return z.NEVER;
      }
      return unit;
    }),
  );

/** An optional field and the value it takes when absent. */
export const withDefault = <S extends z.ZodMiniType, D extends z.output<S>>(schema: S, fallback: D) =>
  z.pipe(
    z.optional(schema),
    z.transform((value: z.output<S> | undefined): z.output<S> | D => value ?? fallback),
  );

/**
 * `duration_unit`: hour (`hours`, `h`, `hr`), min (`minute`, `minutes`), sec (`s`, `second`, `seconds`), ms, day
 * (`days`, `d`), any case, canonicalised; defaults to hour. Not `m` (minutes or months?).
 */
export const durationUnit = () =>
  withInput<DurationUnitSpelling | undefined>()(
    withDefault(
      unitSchema<DurationUnit>(parseDurationUnit, DURATION_UNIT_SPELLINGS, closeDurationUnits),
      'hour',
    ),
  );

/**
 * `data_unit`: KB, MB, GB, TB, PB (decimal) and KiB, MiB, GiB, TiB, PiB (binary), also spelled out (`gigabytes`),
 * any case, canonicalised; defaults to GB.
 */
export const dataUnit = () =>
  withInput<DataUnitSpelling | undefined>()(
    withDefault(unitSchema<DataUnit>(parseDataUnit, DATA_UNIT_SPELLINGS, closeDataUnits), 'GB'),
  );

/** `audit_trail`: enabled (default) or disabled. */
export const auditTrail = () =>
  withDefault(z.enum(['enabled', 'disabled'], { error: "must be 'enabled' or 'disabled'" }), 'enabled');

/** A non-empty string; trims nothing, so the caller's spelling is echoed as given. */
export const nonEmptyString = () =>
  z
    .string({ error: requiredOr('must be a string') })
    .check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters'));

const fastParsers = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/** The schema's fastest parser in this build (see fast-parse.ts), made once per schema. */
function compiled<S extends z.ZodMiniType>(schema: S): S {
  let fast = fastParsers.get(schema);
  if (fast === undefined) {
    fast = fastParser(schema);
    fastParsers.set(schema, fast);
  }
  return fast as S;
}

/**
 * Parses `input` with `schema`, or throws `invalid_request` naming the first problem and where it is. With a plain
 * reader for the schema (core/plain-request.ts), a plainly valid request is read by it and the schema parses the
 * rest.
 *
 * @example
 * ```ts
 * parseRequest(CpuRequest, { cpu_count: 2, region: 'us_east_1', duration: 3 }, readCpuRequest);
 * ```
 * @throws {@link EmissionsError} `invalid_request`
 */
export function parseRequest<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  readPlain?: (input: unknown) => z.output<S> | undefined,
): z.output<S> {
  let result: ReturnType<S['safeParse']>;
  // The one step that reads the caller's request: what it throws, other than our own errors, comes from reading the
  // request (a getter that throws, a revoked Proxy), as the readers and the schema's checks are pure functions of the
  // values read. It is the request's fault, so `invalid_request` (a batch's element then becomes its error body, as
  // DESIGN §2 promises), not an engine bug. One try around the step, none per field.
  try {
    const plain = readPlain?.(input);
    if (plain !== undefined) return plain;
    result = compiled(schema).safeParse(input) as ReturnType<S['safeParse']>;
  } catch (thrown) {
    if (thrown instanceof EmissionsError) throw thrown;
    throw new EmissionsError('invalid_request', messages.unreadableRequest(thrownReason(thrown)));
  }
  if (result.success) return result.data as z.output<S>;
  throw issueToError(result.error.issues[0]);
}

function issueToError(issue: z.core.$ZodIssue | undefined): EmissionsError {
  if (issue === undefined) return new EmissionsError('invalid_request', 'The request is not valid.');
  if (issue.code === 'unrecognized_keys') {
    // The names are the client's: each quoted to its first characters, as many as fit (a 500,000-character name,
    // or thousands of names, gave a megabyte of message).
    const path = formatPath([...issue.path, shownInput(issue.keys[0] ?? '')]);
    const opening = `Unknown field${issue.keys.length > 1 ? 's' : ''} `;
    const names = issue.keys.map((key) => `'${shownInput(key)}'`);
    return new EmissionsError(
      'invalid_request',
      `${opening}${listWithin(names, MAX_MESSAGE_CHARS - opening.length - 1)}.`,
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
