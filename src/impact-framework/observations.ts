import { ERRORS } from '@grnsft/if-core/utils/index.js'; // a file: see plugins.ts
import { EmissionsError } from '../core/errors';

/**
 * Reading an Impact Framework observation: its parameters by IF's names, each checked, and every failure thrown as
 * IF's own error class with the observation's index, as IF's built-in plugins word it
 * (`"cloud/region" parameter is required at index 3.`).
 */

const { InputValidationError } = ERRORS;

/** One observation as IF passes it: parameter name → value. */
export type Observation = Readonly<Record<string, unknown>>;

/**
 * IF's wording of a bad parameter, as IF's `InputValidationError`.
 *
 * @example
 * ```ts
 * throw badParameter('duration', 'not greater than 0', 2); // "duration" parameter is not greater than 0 at index 2.
 * ```
 */
export function badParameter(name: string, problem: string, index: number): Error {
  return new InputValidationError(`"${name}" parameter is ${problem} at index ${index}.`);
}

/**
 * A required non-empty string parameter.
 *
 * @example
 * ```ts
 * text({ 'cloud/region': 'eu-central-1' }, 'cloud/region', 0); // 'eu-central-1'
 * ```
 */
export function text(observation: Observation, name: string, index: number): string {
  const value = observation[name];
  if (value === undefined || value === null) throw badParameter(name, 'required', index);
  if (typeof value !== 'string' || value.trim() === '')
    throw badParameter(name, 'not a non-empty string', index);
  return value;
}

/**
 * A number parameter: required unless `fallback` is given; finite, and positive or at least zero as asked.
 *
 * @example
 * ```ts
 * quantity({ duration: 3600 }, 'duration', 0, { min: 'positive' }); // 3600
 * quantity({}, 'network/data-out', 0, { min: 'zero', fallback: 0 }); // 0
 * ```
 */
export function quantity(
  observation: Observation,
  name: string,
  index: number,
  { min, fallback }: { min: 'positive' | 'zero'; fallback?: number },
): number {
  const value = observation[name];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw badParameter(name, 'required', index);
  }
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw badParameter(name, 'not a finite number', index);
  if (min === 'positive' ? value <= 0 : value < 0)
    throw badParameter(name, min === 'positive' ? 'not greater than 0' : 'negative', index);
  return value;
}

/**
 * The library's message, or its first sentence when the whole would not fit in `room` characters (a long list of
 * valid regions, say): an error line stays at most 200 characters with the parameter and index.
 */
function brief(message: string, room: number): string {
  if (message.length <= room) return message;
  const first = /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;
  return first.length <= room ? first : `${first.slice(0, room - 1)}…`;
}

/**
 * Runs the library on one observation. An {@link EmissionsError} (unknown region, instance, …) becomes IF's
 * `InputValidationError` naming the IF parameter the library's field maps to and the observation's index; any
 * other error is a bug and propagates as it is.
 *
 * @example
 * ```ts
 * computeObservation(3, { region: 'cloud/region' }, () => calculateCpu('aws', request, datasets));
 * // an unknown region throws InputValidationError: "Region 'mars' is not … ("cloud/region" parameter) at index 3."
 * ```
 */
export function computeObservation<T>(
  index: number,
  parameterOf: Readonly<Record<string, string>>,
  compute: () => T,
): T {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    const field = error.path?.split(/[.[]/)[0] ?? '';
    const parameter = parameterOf[field];
    const where = parameter === undefined ? '' : ` ("${parameter}" parameter)`;
    throw new InputValidationError(
      `${brief(error.message, 200 - where.length - 20)}${where} at index ${index}.`,
    );
  }
}
