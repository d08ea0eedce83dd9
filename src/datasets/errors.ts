/** Where in a text file a problem is: 1-based line and, where known, 1-based column (and the column's name). */
export interface FilePosition {
  line: number;
  column?: number;
  /** Header name of the column, for CSV files. */
  columnName?: string;
}

/**
 * One problem found in a table or file: the same fields as a {@link DatasetError}.
 *
 * @example
 * ```ts
 * // error.problems of a ccf-coefficients read with two contradictions:
 * // [{ table: 'coefficients-aws-embodied.csv', location: 'line 2', problem: 'aws/m5.large: vcpu 200 > platform 96', line: 2 },
 * //  { table: 'gcp-instances.csv', location: 'line 2', problem: 'GCP e2-standard-2: instance specs differ …', line: 2 }]
 * ```
 */
export interface DatasetProblem {
  readonly table: string;
  readonly location: string;
  readonly problem: string;
  readonly line?: number;
  readonly column?: number;
}

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
  /** 1-based line in the file, when the problem was found in a text file. */
  readonly line?: number;
  /** 1-based column in the file, when known. */
  readonly column?: number;
  /**
   * Every problem found, first to last (this error's own first), where a loader checked the whole input before
   * failing; its `problem` then says how many more there are.
   */
  readonly problems?: readonly DatasetProblem[];
  constructor(
    /** The table or file, e.g. `fx` or `rates.csv`. */
    readonly table: string,
    /** Where in it: a path such as `rates.eur.2019`, or `line 12, column 3`. */
    readonly location: string,
    /** What is wrong. */
    readonly problem: string,
    /** Line and column, when the table was read from a file. */
    position?: FilePosition,
    problems?: readonly DatasetProblem[],
  ) {
    super(`${table}${location === '' ? '' : ` at ${location}`}: ${problem}`);
    if (position !== undefined) {
      this.line = position.line;
      if (position.column !== undefined) this.column = position.column;
    }
    if (problems !== undefined) this.problems = problems;
  }
}
