import type { RowOutcome } from '../formats/output-row';
import type { FileFormat } from '../formats/records';

export type { RowOutcome } from '../formats/output-row';

/** How a row's cells are read, from the command's options; plain data, as worker threads are given it. */
export interface CellReading {
  /** CSV: numbers are written with a decimal comma (`1234,50`), as spreadsheets save them in much of Europe. */
  decimalComma?: boolean;
  /** Negative amounts (credit notes): refused (the default), or estimated as negative emissions (`net`). */
  credits?: 'refuse' | 'net';
}

/** A row's result as {@link RowAdapter.csvResult} writes it. */
export interface CsvResult {
  /**
   * The result cells of RESULT_COLUMNS (formats/output-row.ts) as CSV, comma-separated, without a line end, in pieces
   * (joined, they are the cells): the adapter keeps the pieces shared by many rows and makes only the rest per row.
   * The adapter may reuse the array for its next row.
   */
  cells: readonly string[];
  /** The row's kg, and its `numberText` (what the run summary sums). */
  co2e: number;
  co2eText: string;
  /** The row's summary groups, as `compute` gives them. */
  groups: Record<string, string>;
}

/**
 * A row's result cells from a CSV record's text and its cells' bounds (`spans`, see formats/csv/writer.ts,
 * recordFields): see {@link RowAdapter.csvRecordResult}.
 */
export type CsvRecordResult = (
  text: string,
  spans: Int32Array,
  reading: CellReading,
) => CsvResult | undefined;

/**
 * The columns an adapter reads, for the header check before the first row (pipeline/header.ts): what it needs,
 * what else it knows, and other names people give them.
 */
export interface ColumnSpec {
  /** Each entry is needed; an entry of several names is met by the first group whose names are all present. */
  readonly required: ReadonlyArray<ReadonlyArray<readonly string[]>>;
  /** Every column the adapter reads, required ones included. */
  readonly known: readonly string[];
  /** Other names for known columns, as ledgers write them (`amount` → `money`), in normalised form. */
  readonly aliases: Readonly<Record<string, string>>;
  /** JSON Lines keys whose object value holds columns of its own (spend's nested `activity`). */
  readonly objects?: readonly string[];
}

/**
 * The one interface between the row pipeline and a kind of ledger row (spend, cloud, billing, …): how a row's
 * cells become a request, what its result adds to the row, and which summary groups it joins. The pipeline reads
 * the file, decodes each record into `values` (column → cell, for any input format), calls {@link RowAdapter.compute}
 * once per row, writes `outcome` after the row's own columns and adds the row to the summary under `groups`. It
 * knows nothing else about the rows: a new kind is a new adapter in adapters/ (plus a command), no pipeline change.
 *
 * @example
 * ```ts
 * // adapters/spend.ts, in short: cells → request → calculator → result columns and summary group.
 * const rows: RowAdapter = {
 *   name: 'spend',
 *   groupings: { category: 'by classification' },
 *   compute(values, source) {
 *     const result = calculateSpend(pickFields(values, SPEND_REQUEST_COLUMNS, source) as SpendRequest, datasets);
 *     const outcome = estimateOutcome(result.estimate, null, result.notices);
 *     return { outcome, groups: { category: String(values.classification_code) } };
 *   },
 * };
 * ```
 */
export interface RowAdapter {
  /** The command's name, as messages and the resume identity of an output file show it (`spend`, `cloud`). */
  readonly name: string;
  /**
   * Computes one row from its cells. `source` says how the cells were read: CSV cells are text (numbers to be
   * parsed strictly, empty meaning absent), JSON Lines and Parquet cells are typed values (adapters/cells.ts reads both).
   *
   * @throws {@link EmissionsError} for a bad row; the pipeline writes its code and message in the row and goes on.
   */
  compute(
    values: Record<string, unknown>,
    source: FileFormat,
    reading?: CellReading,
  ): {
    outcome: RowOutcome;
    groups: Record<string, string>;
    fields?: Readonly<Record<string, unknown>>;
    /** What the row adds to the adapter's own tally ({@link RowAdapter.newTally}), when the run keeps one. */
    tallied?: unknown;
  };
  /**
   * A faster way to the same row for CSV output with the generic result columns: the row's result cells written as
   * CSV, byte for byte what {@link RowAdapter.compute} and the CSV writer would make of it, or undefined where it
   * declines (then `compute`, which also reports every error). It must not throw. The result may be reused by the
   * next call: the pipeline reads it at once.
   */
  csvResult?(
    values: Record<string, unknown>,
    source: FileFormat,
    reading?: CellReading,
  ): CsvResult | undefined;
  /**
   * The shortest way to a CSV row, for a comma-separated input whose records the output copies whole: made once per
   * run for its header (the names the adapter reads, each once), it answers a record the output copies as it is from
   * the record's text and its cells' bounds, without a values object or any cell it does not read. The same bytes
   * as {@link RowAdapter.csvResult}, or undefined where it declines (then csvResult, then compute, which reports every
   * error); it must not throw. Undefined where the header does not suit it.
   */
  csvRecordResult?(header: readonly string[]): CsvRecordResult | undefined;
  /**
   * Result columns of this adapter's own, written instead of the generic ones (billing's `co2e_*`): `compute`
   * then returns `fields` for them (`outcome` still feeds the summary), and {@link RowAdapter.errorFields} fills
   * them for a row that failed.
   */
  readonly resultColumns?: readonly string[];
  /** Parquet types of {@link RowAdapter.resultColumns} (`DOUBLE` or `STRING`; default `STRING`). */
  readonly resultTypes?: Readonly<Record<string, 'DOUBLE' | 'STRING'>>;
  /** The result fields of a failed row, for an adapter with {@link RowAdapter.resultColumns}. */
  errorFields?(code: string, message: string): Readonly<Record<string, unknown>>;
  /**
   * For a row `compute` failed on: another way that answers it (`--datasets ceda`), or undefined. The summary
   * counts the failed rows per hint (summary.ts, {@link RunSummary.failure}).
   */
  failureHint?(
    values: Record<string, unknown>,
    source: FileFormat,
    error: unknown,
    reading?: CellReading,
  ): string | undefined;
  /** Summary groupings: group key → heading, e.g. `{ provider: 'by provider' }`; `groups` gives each row's. */
  readonly groupings: Readonly<Record<string, string>>;
  /**
   * Set when worker threads can build the same adapter themselves: its name in the registry the CLI's entry hands
   * to the workers (adapters/index.ts, `ROW_ADAPTERS`). Without it, rows are computed in the main thread.
   */
  readonly worker?: string;
  /**
   * The command's options that change this adapter's rows, canonical (option → value, e.g.
   * `{ '--datasets': 'hosted-api-2021', '--export-format': 'focus' }`). Recorded when an `--out` run starts, so
   * `--resume` refuses a partial whose rows were computed with other values. Options that do not change rows
   * (`--jobs`, progress) are left out.
   */
  readonly rowOptions?: Readonly<Record<string, string>>;
  /** Dataset files (`--datasets`) the workers merge over the defaults, in order, to build the same datasets. */
  readonly workerDatasets?: readonly string[];
  /** The columns the rows read, for the header check; an adapter without them (billing) checks its own. */
  readonly columns?: ColumnSpec;
  /**
   * A new, empty tally of the adapter's own (billing's `--summary`), for a run that asks for one
   * ({@link ChunkContext.tally}): each chunk keeps one beside its {@link RunSummary}, and the run merges them in
   * input order, so the command's summary is made as the rows are computed, not read back from the output.
   */
  newTally?(): RowTally;
}

/**
 * An adapter's own running summary of a run's rows (see {@link RowAdapter.newTally}). Its state is plain data, as a
 * worker posts it and a resumable output saves it.
 *
 * @example
 * ```ts
 * const tally = billingRows(datasets).newTally!();
 * tally.add(rows.compute(values, 'csv').tallied);
 * tally.merge(otherChunk.state());
 * ```
 */
export interface RowTally {
  /** Adds a computed row: the `tallied` its {@link RowAdapter.compute} returned. */
  add(tallied: unknown): void;
  /**
   * A row the tally cannot take as it stands (a record that could not be read, a row that failed): the tally is
   * then no longer {@link RowTally.whole}, and the command makes its summary another way.
   */
  miss(): void;
  /** Whether every row of the run is in the tally. */
  readonly whole: boolean;
  /** Adds a later part of the same run: another chunk's tally, or its {@link RowTally.state} (a worker's, a saved one). */
  merge(other: RowTally | unknown): void;
  /** The tally as plain data (structured-cloneable, JSON). */
  state(): unknown;
}
