import { InvalidArgumentError, Option } from 'commander';

/** Option parsers and options more than one command shares. */

/**
 * A commander parser for a whole number from `min` to `max`.
 *
 * @example
 * ```ts
 * program.option('--port <port>', 'port', integer('--port', 0, 65535), 8080);
 * ```
 */
export function integer(name: string, min: number, max: number) {
  return (text: string): number => {
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    }
    return value;
  };
}

/**
 * A commander parser for a four-digit year.
 *
 * @example
 * ```ts
 * program.option('--year <year>', 'year of the tables', fourDigitYear('--year'), 2019);
 * ```
 */
export function fourDigitYear(name: string) {
  return (text: string): number => {
    if (!/^\d{4}$/.test(text)) throw new InvalidArgumentError(`${name} must be a four-digit year.`);
    return Number(text);
  };
}

/**
 * A commander parser for a fraction from 0 to 1, written plainly (`0.4`, `.4`, `1`).
 *
 * @example
 * ```ts
 * program.option('--trade-share <fraction>', 'the part that is trade', fraction('--trade-share'));
 * ```
 */
export function fraction(name: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text) || !(value >= 0 && value <= 1))
      throw new InvalidArgumentError(`${name} must be a fraction from 0 to 1.`);
    return value;
  };
}

/** `--negative <what>` of the EXIOBASE builds: refuse a release with negative multipliers, or leave them out. */
export const negativeOption = () =>
  new Option('--negative <what>', 'negative multipliers: refuse the release, or leave them out')
    .choices(['error', 'omit'])
    .default('error');

/** A repeatable option's values, in order. */
export const collect = (value: string, previous: string[]) => [...previous, value];

/** `--datasets <preset|file>`, repeatable, on serve, spend and cloud. */
export const datasetsOption = () =>
  new Option(
    '--datasets <preset|file>',
    'preset (default, hosted-api-2021, ccf-grid, ccf-app, electricitymaps-grid, useeio, ceda) or dataset file (datasets build) over the embedded data; repeatable, in order',
  )
    .argParser(collect)
    .default([]);
