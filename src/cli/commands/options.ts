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

/** A repeatable option's values, in order. */
export const collect = (value: string, previous: string[]) => [...previous, value];

/** `--datasets <preset|file>`, repeatable, on serve, spend and cloud. */
export const datasetsOption = () =>
  new Option(
    '--datasets <preset|file>',
    'preset (default, hosted-api-2021, ccf-grid, electricitymaps-grid, useeio) or dataset file (datasets build) over the embedded data; repeatable, in order',
  )
    .argParser(collect)
    .default([]);
