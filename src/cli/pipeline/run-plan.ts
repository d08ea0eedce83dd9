import { extname } from 'node:path';
import type { Delimiter } from '../formats/csv/reader';
import type { ParquetAwareFormat } from '../formats/records';
import { UsageError } from '../io';
import type { RowTally } from './row-adapter';
import { inputStats, refuseReservedInput, refuseSameFile } from './output-file';

/**
 * The first stage of a file run: the options as given, turned into what the run does (its input and output
 * formats), and every refusal that needs no reading (an unknown format, `--resume` without `--out`, an output that
 * is the input) made before anything is opened.
 */

export interface FileCommandOptions {
  out?: string;
  /** Output format; default from the `--out` extension, else the input format. */
  format?: ParquetAwareFormat;
  /** Input format; default from the file extension (`.csv`; `.jsonl`, `.ndjson`; `.parquet`), `csv` for stdin. */
  inputFormat?: ParquetAwareFormat;
  /** Replace an existing `--out` file. */
  force?: boolean;
  /** Continue the partial output an interrupted run of the same input and options left. */
  resume?: boolean;
  /**
   * Threads computing rows (the main thread and `jobs - 1` workers); 1 computes in the main thread. Default: the
   * cores available, with workers started only for a long input (pipeline/pool.ts, `expectsLongRun`).
   */
  jobs?: number;
  /** CSV output: make formula-like pass-through cells inert (default true). */
  neutraliseFormulas?: boolean;
  /** CSV input: the delimiter; detected from the header when omitted. */
  delimiter?: Delimiter;
  /** CSV input: numbers have a decimal comma; when omitted, on for a `;` file. */
  decimalComma?: boolean;
  /** Negative amounts (credit notes): refused (default), or estimated as negative emissions. */
  credits?: 'refuse' | 'net';
  /**
   * Keeps the adapter's own tally of the rows as they are computed ({@link RowAdapter.newTally}) and hands it over
   * when the run ends (not when interrupted): billing's `--summary`, made without reading the output back.
   */
  tallied?: (tally: RowTally) => void;
}

/** A run's options with its formats settled; `out` is undefined for stdout (`--out -` included). */
export interface RunPlan extends FileCommandOptions {
  file: string;
  inputFormat: ParquetAwareFormat;
  format: ParquetAwareFormat;
}

const FORMAT_BY_EXTENSION: Readonly<Record<string, ParquetAwareFormat>> = {
  '.csv': 'csv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
};

/**
 * Whether a path names a gzipped file (`.csv.gz`, `.jsonl.gz`): read through gunzip, written as gzip members.
 *
 * @example
 * ```ts
 * isGzip('ledger.csv.gz'); // true
 * ```
 */
export const isGzip = (path: string): boolean => path.toLowerCase().endsWith('.gz');

/** The format an extension names (the one before `.gz` for a gzipped file). */
const formatOf = (path: string): ParquetAwareFormat | undefined =>
  FORMAT_BY_EXTENSION[extname(isGzip(path) ? path.slice(0, -3) : path).toLowerCase()];

/**
 * The run `given` asks for on `file`.
 *
 * @throws {@link UsageError} for a format the extensions do not tell, `--resume` without `--out` or with Parquet
 *   output, Parquet on stdin, or an output that is the input (or its partial, lock or state).
 *
 * @example
 * ```ts
 * planRun('ledger.csv', { out: 'ledger-co2e.parquet' }); // { inputFormat: 'csv', format: 'parquet', … }
 * ```
 */
export function planRun(file: string, given: FileCommandOptions): RunPlan {
  // `--out -` is stdout, as `-` is stdin for the input: never a file named `-`.
  const { out, ...rest } = given;
  const options: FileCommandOptions = out === '-' || out === undefined ? rest : given;
  const inputFormat = options.inputFormat ?? (file === '-' ? 'csv' : formatOf(file));
  if (inputFormat === undefined)
    throw new UsageError(
      `cannot tell the format of ${file} from its extension; use --input-format csv|jsonl|parquet.`,
    );
  const format =
    options.format ?? (options.out !== undefined ? formatOf(options.out) : undefined) ?? inputFormat;
  if (options.resume === true && options.out === undefined) throw new UsageError('--resume needs --out.');
  refuseSameFile(inputStats(file), options.out);
  refuseReservedInput(file, options.out);
  if (inputFormat === 'parquet' && file === '-')
    throw new UsageError(
      'Parquet input must be a file: it is read from its footer, which a pipe cannot seek to.',
    );
  if (format === 'parquet' && options.resume === true)
    throw new UsageError('--resume does not apply to Parquet output, which is written whole or not at all.');
  return { ...options, file, inputFormat, format };
}
