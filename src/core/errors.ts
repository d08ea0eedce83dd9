import { deepFreeze } from './freeze';
/**
 * The engine's one error type and every message it produces. Codes are stable API; messages may improve.
 */

/** Stable machine-readable error codes. */
export const ERROR_CODES = /* @__PURE__ */ deepFreeze([
  'invalid_request',
  'unsupported_provider',
  'unknown_region',
  'unknown_instance',
  'unsupported_currency',
  'unknown_classification_code',
  'no_emission_factors_found',
  'batch_too_large',
  // The datasets lack a part the calculator reads (status 500): a deployment problem, not bad input.
  'missing_dataset',
  // Used by the HTTP adapter only.
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_json',
  'internal_error',
  // Answered by a node:http server for a request its parser refused or timed out (co2e-engine/http's answerClientError).
  'request_timeout',
  'headers_too_large',
] as const);
export type ErrorCode = (typeof ERROR_CODES)[number];

const ERROR_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'request_header_fields_too_large',
  500: 'internal_server_error',
};

/** The wire body of an error, as the hosted API sends it; also what a failed batch element becomes. */
export interface ErrorBody {
  error: string;
  error_code: ErrorCode;
  message: string;
  /** Where in the request the problem is, e.g. `requests[3].region` or `activity.classification_code`. */
  path?: string;
  /** The values that would have been accepted, where there is a short list of them. */
  valid_values?: Array<string | number>;
}

export interface EmissionsErrorDetails {
  path?: string;
  valid_values?: ReadonlyArray<string | number>;
  status?: number;
}

/**
 * Thrown by every single calculator for bad input, and (`missing_dataset`, status 500) for datasets that lack a
 * part the calculator reads; never for anything else.
 *
 * @example
 * ```ts
 * try {
 *   calculateCpu('aws', { cpu_count: 1, region: 'mars_1', duration: 1 }, defaultDatasets);
 * } catch (error) {
 *   if (error instanceof EmissionsError) console.log(error.error_code, error.path); // unknown_region region
 * }
 * ```
 */
export class EmissionsError extends Error {
  override readonly name = 'EmissionsError';
  /** HTTP status the error maps to (400 for bad input). */
  readonly status: number;
  /** Short status name, e.g. `bad_request`. */
  readonly error: string;
  readonly error_code: ErrorCode;
  readonly path: string | undefined;
  readonly valid_values: ReadonlyArray<string | number> | undefined;

  constructor(error_code: ErrorCode, message: string, details: EmissionsErrorDetails = {}) {
    super(message);
    this.error_code = error_code;
    this.status = details.status ?? 400;
    this.error = ERROR_BY_STATUS[this.status] ?? 'error';
    this.path = details.path;
    this.valid_values = details.valid_values;
  }

  /** The same error with its path placed under `prefix` (`requests[3]` + `region` → `requests[3].region`). */
  withPathPrefix(prefix: string): EmissionsError {
    const path = this.path === undefined || this.path === '' ? prefix : joinPath(prefix, this.path);
    return new EmissionsError(this.error_code, this.message, {
      path,
      status: this.status,
      ...(this.valid_values && { valid_values: this.valid_values }),
    });
  }

  /** The wire body `{ error, error_code, message, path?, valid_values? }`. */
  toJSON(): ErrorBody {
    const body: ErrorBody = { error: this.error, error_code: this.error_code, message: this.message };
    if (this.path !== undefined) body.path = this.path;
    if (this.valid_values !== undefined) body.valid_values = [...this.valid_values];
    return body;
  }
}

/**
 * The same error again, for a failure kept under a key and thrown for each later request of that key: its code,
 * message, path, status and valid values (copied), with the kept error's stack, which says where the failure was
 * found. Not a new stack: capturing one was most of what a kept failure cost a file run's row (bench/cli.md,
 * "failing rows once").
 *
 * @internal
 * @example
 * ```ts
 * const kept = new EmissionsError('unsupported_currency', "Currency 'xyz' is not supported.");
 * const again = errorAgain(kept); // again !== kept; again.message === kept.message
 * ```
 */
export function errorAgain(error: EmissionsError): EmissionsError {
  const { error_code, message, path, status, valid_values, stack } = error;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let again: EmissionsError;
  try {
    again = new EmissionsError(error_code, message, {
      path,
      status,
      ...(valid_values !== undefined && { valid_values: [...valid_values] }),
    });
  } finally {
    Error.stackTraceLimit = limit;
  }
  Object.defineProperty(again, 'stack', { value: stack, writable: true, configurable: true });
  return again;
}

const joinPath = (prefix: string, path: string) =>
  path.startsWith('[') ? prefix + path : `${prefix}.${path}`;

/** Formats a path of keys and indices as `a.b[3].c`. */
export function formatPath(segments: ReadonlyArray<PropertyKey>): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path === '' ? String(segment) : `.${String(segment)}`;
  }
  return path;
}

/** Lists at most `max` values for a message, saying how many more there are. */
export function listForMessage(values: ReadonlyArray<string | number>, max = 12): string {
  const shown = values.slice(0, max).join(', ');
  return values.length > max ? `${shown} (and ${values.length - max} more)` : shown;
}

/** The longest message an error may have; longer detail (valid values, lists) goes in its own field. */
export const MAX_MESSAGE_CHARS = 200;

/**
 * An input value as a message quotes it: at most `max` characters, then `…`, so a message stays short whatever was
 * sent.
 *
 * @example
 * ```ts
 * shownInput('x'.repeat(100)); // 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
 * ```
 */
export const shownInput = (value: string, max = 40): string =>
  value.length > max ? `${value.slice(0, max)}…` : value;

/**
 * As many of `values` as fit in `room` characters, saying how many more there are (all of them are in the error's
 * `valid_values`); '' when not even one fits.
 *
 * @example
 * ```ts
 * listWithin(['eastus', 'westus', 'northeurope'], 30); // 'eastus, westus (and 1 more)'
 * ```
 */
export function listWithin(values: ReadonlyArray<string | number>, room: number): string {
  for (let count = values.length; count > 0; count--) {
    const more = count < values.length ? ` (and ${values.length - count} more)` : '';
    const text = values.slice(0, count).join(', ') + more;
    if (text.length <= room) return text;
  }
  return '';
}

/** `text`, cut to `room` characters with `…` when longer. */
const within = (text: string, room: number) =>
  text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`;

/** ` Did you mean: a, b?` for the suggestions, or nothing when there are none. */
export const didYouMean = (suggestions: readonly string[]): string =>
  suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';

/** Message builders, kept together so wording stays consistent. */
export const messages = {
  unsupportedProvider: (provider: string, valid: readonly string[]) =>
    `Provider '${shownInput(provider)}' is not supported. Valid providers: ${valid.join(', ')}.`,
  missingProvider: (valid: readonly string[]) => `Provider is missing. Valid providers: ${valid.join(', ')}.`,
  /** `kind`: what was given instead, `an object`, `a number`. */
  providerNotAString: (kind: string, valid: readonly string[]) =>
    `Provider must be a string, got ${kind}. Valid providers: ${valid.join(', ')}.`,
  unknownRegion: (
    provider: string,
    region: string,
    valid: readonly string[],
    suggestions: readonly string[] = [],
  ) => {
    // The valid regions as many as fit; all of them are in valid_values.
    const head =
      `Region '${shownInput(region)}' is not a known ${provider} region.` +
      didYouMean(suggestions.slice(0, 3));
    const listed = listWithin(valid, MAX_MESSAGE_CHARS - head.length - ' Valid regions: .'.length);
    return listed === '' ? head : `${head} Valid regions: ${listed}.`;
  },
  /** A region or type the datasets name as unsupported: the reason they give (cut to fit) instead of a list. */
  listedUnsupported: (what: 'region' | 'instance type', provider: string, id: string, reason: string) => {
    const head = `The ${provider} ${what} '${shownInput(id)}' is not supported by these datasets: `;
    return `${head}${within(reason, MAX_MESSAGE_CHARS - head.length - 1)}.`;
  },
  unknownInstance: (provider: string, instance: string, suggestions: readonly string[]) =>
    `Instance type '${shownInput(instance)}' is not a known ${provider} instance type.` +
    didYouMean(suggestions.slice(0, 3).map((suggestion) => shownInput(suggestion))),
  noFactorForYear: (what: string, year: number, valid: readonly number[]) =>
    `No emission factor for ${what} in year ${year}. Valid years: ${valid.join(', ')}.`,
  batchTooLarge: (size: number, max: number) => `The batch has ${size} elements; at most ${max} are allowed.`,
  notABatch: () => 'A batch must be a JSON array of request objects.',
  /** A request whose reading threw (a getter, a revoked Proxy): what was thrown, cut short. */
  unreadableRequest: (reason: string) =>
    `The request could not be read: ${shownInput(reason, 120).replace(/\.$/, '')}.`,
  /** A batch whose length could not be read (a Proxy's getter): what was thrown, cut short. */
  unreadableBatch: (reason: string) =>
    `The batch could not be read: ${shownInput(reason, 120).replace(/\.$/, '')}.`,
} as const;

/**
 * What a value thrown while reading a caller's input says, as far as it can be read itself (it may be a Proxy
 * too).
 *
 * @example
 * ```ts
 * thrownReason(new Error('boom')); // 'boom'
 * ```
 */
export function thrownReason(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    return 'reading it threw';
  }
}
