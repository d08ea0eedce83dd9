/**
 * Thrown when a dataset table is invalid: names the table (or file), where in it, and what is wrong.
 *
 * @example
 * ```ts
 * try { createTableDatasets({ fx: myFx }); } catch (error) {
 *   if (error instanceof DatasetError) console.error(error.table, error.location, error.problem);
 * }
 * ```
 */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';
  constructor(
    /** The table or file, e.g. `fx` or `rates.csv`. */
    readonly table: string,
    /** Where in it: a path such as `rates.eur.2019`, or `line 12, column 3`. */
    readonly location: string,
    /** What is wrong. */
    readonly problem: string,
  ) {
    super(`${table}${location === '' ? '' : ` at ${location}`}: ${problem}`);
  }
}
