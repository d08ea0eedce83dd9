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

/** `--delimiter` values: the character, or a name for those awkward to type. */
const DELIMITER_NAMES: Readonly<Record<string, ',' | ';' | '\t' | '|'>> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  '\t': '\t',
  '\\t': '\t',
  tab: '\t',
  '|': '|',
  pipe: '|',
};

/**
 * `--delimiter <char>` of the file commands: the CSV input's delimiter, instead of the one detected from its header.
 *
 * @example
 * ```ts
 * command.addOption(delimiterOption()); // --delimiter ';' or --delimiter semicolon
 * ```
 */
export const delimiterOption = () =>
  new Option(
    '--delimiter <char>',
    'CSV input delimiter: , ; tab | (or comma, semicolon, pipe); default: detected from the header',
  ).argParser((text: string) => {
    const delimiter = DELIMITER_NAMES[text.toLowerCase()];
    if (delimiter === undefined)
      throw new InvalidArgumentError('--delimiter must be one of , ; tab | (or comma, semicolon, pipe).');
    return delimiter;
  });

/**
 * `--decimal-comma` and `--no-decimal-comma` of the file commands: whether CSV numbers are written `1234,50`.
 * Neither given: on for a `;` file (as spreadsheets save them where the comma is the decimal mark), off otherwise.
 *
 * @example
 * ```ts
 * for (const option of decimalCommaOptions()) command.addOption(option);
 * ```
 */
export const decimalCommaOptions = () => [
  new Option('--decimal-comma', 'CSV numbers have a decimal comma (1234,50); default: on for ; files'),
  new Option('--no-decimal-comma', 'CSV numbers have a decimal point, even in a ; file'),
];

/**
 * `--credits <mode>` of `spend`: a negative amount (a credit note) is refused (`refuse`, the default) or estimated
 * as negative emissions (`net`), labelled in its row.
 *
 * @example
 * ```ts
 * command.addOption(creditsOption());
 * ```
 */
export const creditsOption = () =>
  new Option(
    '--credits <mode>',
    'negative amounts (credit notes): refuse them, or net: estimate them as negative emissions',
  )
    .choices(['refuse', 'net'])
    .default('refuse');
