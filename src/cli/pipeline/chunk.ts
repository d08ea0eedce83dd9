import { EmissionsError } from '../../core/errors';
import { type CsvRecord, delimiterName, parseRecords, salvageFields } from '../formats/csv/reader';
import { parseJsonLine } from '../formats/jsonl/reader';
import type { CellReading, CsvRecordResult, CsvResult, RowAdapter } from './row-adapter';
import { recordFields } from '../formats/csv/writer';
import {
  ENCODERS,
  type ErrorDetail,
  type OutputRow,
  passThroughColumns,
  resultFields,
  type ResultFields,
} from '../formats/index';
import type { FileFormat, ParquetAwareFormat, RecordText } from '../formats/records';
import { parquetRowValues } from '../adapters/cells';
import { RunSummary, type SummaryParts } from './summary';
import { outputBuffer, recycleBuffer } from './output-buffers';
import { keyReader } from './header';

/**
 * A chunk of input records → its output text and summary. The same pure function runs in the main thread or in
 * a worker (pool.ts), so the output does not depend on `--jobs`.
 */

/** What every chunk of one run shares; plain data, so a worker can be given it. */
export interface ChunkContext {
  inputFormat: ParquetAwareFormat;
  format: ParquetAwareFormat;
  /** The CSV input's header, a Parquet input's columns ([] for JSON Lines). */
  header: readonly string[];
  /** The input columns the output keeps. */
  columns: readonly string[];
  neutraliseFormulas: boolean;
  /** The row adapter's own result columns, when it has them. */
  resultColumns?: readonly string[];
  /** The CSV input's delimiter (default `,`). */
  delimiter?: string;
  /** How cells are read (decimal commas, credit notes): the command's options, given to every row. */
  reading?: CellReading;
  /**
   * Header columns the adapter reads under another name (`Money_Unit` → `money_unit`, an alias `Amount` → `money`):
   * header name → request name. The output keeps the header's names.
   */
  rename?: Readonly<Record<string, string>>;
  /** JSON Lines: the first object's keys, which {@link ChunkContext.rename} reads; a record with others is read by its own. */
  keys?: readonly string[];
  /** Whether each chunk keeps the adapter's own tally of its rows ({@link RowAdapter.newTally}): billing's `--summary`. */
  tally?: boolean;
}

export interface ChunkResult {
  /** The chunk's output rows, UTF-8 (a worker transfers the buffer rather than copying it); empty for Parquet. */
  bytes: Uint8Array;
  /** Parquet output: the chunk's rows, which the Parquet sink gathers into row groups. */
  rows?: OutputRow[];
  /** A worker's {@link SummaryParts}; the summary itself when the main thread computed the chunk. */
  summary: SummaryParts | RunSummary;
}

/** A chunk as {@link chunkProcessor} computes it, with its summary as an object. */
export interface ComputedChunk extends ChunkResult {
  summary: RunSummary;
}

/**
 * Counts in `summary` the keys of `values` that the output has no column for: neither one of `columns` (the first
 * record's) nor a result column's name (which the result replaces, as documented).
 */
function countDropped(
  values: Readonly<Record<string, unknown>>,
  columns: ReadonlySet<string>,
  resultColumns: readonly string[] | undefined,
  summary: RunSummary,
): void {
  let dropped: string[] | undefined;
  for (const key in values) if (!columns.has(key)) (dropped ??= []).push(key);
  if (dropped === undefined) return;
  const lost = passThroughColumns(dropped, resultColumns);
  if (lost.length > 0) summary.dropped(lost);
}

/** Texts up to this length are copied into a {@link ByteSink} by its own loop while they are ASCII. */
const SHORT_TEXT = 48;

/**
 * Output bytes of one chunk, written a row at a time into one buffer (from the thread's pool: output-buffers.ts).
 * Each row's text becomes garbage as soon as it is copied, so the chunk's output does not survive young-generation
 * collections as a rope of cell strings.
 */
class ByteSink {
  private buffer: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = outputBuffer(Math.max(capacity, 4096));
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const most = text.length * 3;
    if (this.length + most > this.buffer.length) this.grow(most);
    // A short cell is copied here while it is ASCII: cheaper than a call into Buffer.write for a few bytes.
    if (text.length <= SHORT_TEXT) {
      const { buffer } = this;
      let at = this.length;
      let index = 0;
      for (; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code >= 0x80) break;
        buffer[at++] = code;
      }
      if (index === text.length) {
        this.length = at;
        return;
      }
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  private grow(most: number): void {
    const grown = outputBuffer(Math.max(this.buffer.length * 2, this.length + most));
    this.buffer.copy(grown, 0, 0, this.length);
    recycleBuffer(this.buffer);
    this.buffer = grown;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

function describeError(error: unknown): { code: string; message: string; detail?: ErrorDetail } {
  if (error instanceof EmissionsError)
    return {
      code: error.error_code,
      message: error.message,
      ...(error.valid_values !== undefined && { detail: { valid_values: error.valid_values } }),
    };
  // Not the row's fault: an engine bug. Reported in the row, and the run goes on.
  return {
    code: 'internal_error',
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}

export type DecodedRow = { values: Record<string, unknown>; error?: string; detail?: ErrorDetail };

/**
 * Row objects for a header. Plain objects (`{}`, filled in header order, so rows of one header share a hidden class,
 * which V8 reads, copies and spreads fastest) unless a column is named like a member of `Object.prototype`
 * (`__proto__`, `constructor`, `toString`, …): then objects with no `Object.prototype` in their chain, so such a
 * column is a column like any other and no absent column reads as an inherited member.
 */
const Values = function (this: object) {} as unknown as new () => Record<string, unknown>;
Values.prototype = Object.create(null) as object;
const guardedObject = (): Record<string, unknown> => new Values();
const rowObjectFor = (header: readonly string[]): (() => Record<string, unknown>) => {
  if (header.some((name) => name in Object.prototype)) return guardedObject;
  // A copy of an object that has the header's keys already: made at its full size at once, where an empty object
  // filled key by key grows its property store several times (garbage on every row). Same keys, same order.
  const shape: Record<string, unknown> = {};
  for (const name of header) shape[name] = undefined;
  return () => ({ ...shape });
};

/** The header's leading columns filled from `fields`, for a row that could not be read whole. */
function byHeader(header: readonly string[], fields: readonly string[]): Record<string, unknown> {
  const values = guardedObject();
  const count = header.length < fields.length ? header.length : fields.length;
  for (let index = 0; index < count; index++) values[header[index] as string] = fields[index];
  return values;
}

/** {@link byHeader} with the row object of `newRow` (one per header: see {@link rowObjectFor}). */
function byHeaderWith(
  newRow: () => Record<string, unknown>,
  header: readonly string[],
  fields: readonly string[],
): Record<string, unknown> {
  const values = newRow();
  const count = header.length < fields.length ? header.length : fields.length;
  for (let index = 0; index < count; index++) values[header[index] as string] = fields[index];
  return values;
}

/**
 * A record's values by column, or why it could not be read (then the leading values that could be).
 *
 * @example
 * ```ts
 * decode({ line: 2, text: 'a,1' }, { ...context, header: ['id', 'money'] }, parseRecord('a,1', 2));
 * ```
 */
export function decode(
  record: RecordText,
  context: ChunkContext,
  parsed: CsvRecord | undefined,
  newRow: () => Record<string, unknown> = guardedObject,
): DecodedRow {
  const { header } = context;
  if (record.values !== undefined) return { values: record.values };
  if (record.text === undefined) {
    const fields =
      context.inputFormat === 'csv' && record.salvage !== undefined
        ? salvageFields(record.salvage, context.delimiter, header.length)
        : (record.fields ?? []);
    return { values: byHeader(header, fields), error: record.error ?? 'unreadable record' };
  }
  if (context.inputFormat === 'jsonl') {
    const parsed = parseJsonLine(record.text, record.line);
    return 'values' in parsed ? { values: parsed.values } : { values: {}, error: parsed.error };
  }
  if (parsed === undefined) return { values: {}, error: 'unreadable record' };
  if ('error' in parsed)
    return {
      values: byHeader(header, salvageFields(record.text, context.delimiter, header.length)),
      error: parsed.error,
    };
  if (parsed.fields.length !== header.length) {
    // The row fails, but its cells pass through in order, so that it can still be found by its ids (an invoice id
    // comes before the description whose unquoted comma shifted the rest); the message says they are in order.
    return {
      values: byHeader(header, parsed.fields),
      error: fieldCountMessage(record.line, header.length, parsed.fields.length, context.delimiter),
      ...(parsed.fields.length > header.length && {
        detail: { extra_fields: parsed.fields.slice(header.length) },
      }),
    };
  }
  return { values: byHeaderWith(newRow, header, parsed.fields) };
}

/**
 * The message of a record with more or fewer fields than the header. One field where the header has several is
 * most often a file written with another delimiter (a `;` file read as `,`), so the message says which was used.
 */
export function fieldCountMessage(line: number, expected: number, found: number, delimiter = ','): string {
  const hint =
    found === 1 && expected > 1
      ? ` (read with the delimiter ${delimiterName(delimiter)}; set another with --delimiter)`
      : '';
  const kept = hint === '' ? '; the cells are passed through in order' : '';
  return `line ${line}: expected ${expected} fields as in the header, found ${found}${hint}${kept}.`;
}

/**
 * A row's values under the names the adapter reads ({@link ChunkContext.rename}); the row itself is unchanged.
 *
 * @example
 * ```ts
 * renamed({ Amount: '12', id: 'a' }, { Amount: 'money' }); // { money: '12', id: 'a' }
 * ```
 */
export function renamed(
  values: Record<string, unknown>,
  rename: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const copy = guardedObject();
  for (const key in values) copy[Object.hasOwn(rename, key) ? (rename[key] as string) : key] = values[key];
  return copy;
}

/**
 * A record's row from its text ({@link RowAdapter.csvRecordResult}), or undefined where the adapter declines; one
 * that throws, which it must not, is declined too, so that the row's usual path reports what is wrong with it.
 */
function answeredFromText(
  answer: CsvRecordResult,
  text: string,
  spans: Int32Array,
  reading: CellReading,
): CsvResult | undefined {
  try {
    return answer(text, spans, reading);
  } catch {
    return undefined;
  }
}

/**
 * A row's line: its input cells (`input`, the record's text or the encoder's cells, with the comma after them), its
 * result cells ({@link CsvResult.cells}) and its line end, joined into one string and encoded with one call. A call
 * per cell cost more than the copy the join makes (see bench/cli.md).
 */
function writeRow(sink: ByteSink, input: string, cells: CsvResult['cells']): void {
  let line = input;
  for (let index = 0; index < cells.length; index++) line += cells[index] as string;
  sink.write(`${line}\n`);
}

/**
 * The names under which the adapter reads a header's columns ({@link ChunkContext.rename}), or undefined where two
 * columns come to one name: which cell a row's values then hold under it is the values object's business, so such a
 * header is left to it.
 */
function readNames(
  header: readonly string[],
  rename: Readonly<Record<string, string>> | undefined,
): readonly string[] | undefined {
  const names = header.map((name) =>
    rename !== undefined && Object.hasOwn(rename, name) ? (rename[name] as string) : name,
  );
  return new Set(names).size === names.length ? names : undefined;
}

/** Records parsed together (one csv-parse call for those with quotes); see {@link chunkProcessor}. */
const PARSE_SLICE = 100;

/** The parsed fields of each CSV record of `records` (undefined for a record that has no text), by index. */
function parseSlice(records: readonly RecordText[], delimiter = ','): Array<CsvRecord | undefined> {
  const texts: Array<{ line: number; text: string }> = [];
  const at: number[] = [];
  records.forEach((record, index) => {
    if (record.text === undefined) return;
    texts.push(record as { line: number; text: string });
    at.push(index);
  });
  const results = parseRecords(texts, delimiter);
  const byIndex = new Array<CsvRecord | undefined>(records.length);
  at.forEach((index, position) => (byIndex[index] = results[position]));
  return byIndex;
}

/**
 * Makes the function that computes and encodes one chunk of a run.
 *
 * @example
 * ```ts
 * const process = chunkProcessor(spendRows(defaultDatasets), context);
 * const { text, summary } = process([{ line: 2, text: 'isic4,4711,2019,DE,100,eur' }]);
 * ```
 */
export function chunkProcessor(
  kind: RowAdapter,
  context: ChunkContext,
): (records: readonly RecordText[]) => ComputedChunk {
  // A comma-separated input whose columns the output keeps in order: its records' text may be copied whole.
  const copiesRecords =
    context.inputFormat === 'csv' &&
    (context.delimiter ?? ',') === ',' &&
    context.columns.length === context.header.length &&
    context.columns.every((name, index) => name === context.header[index]);
  const encoder =
    context.format === 'parquet' ? undefined : ENCODERS[context.format]({ ...context, copiesRecords });
  // Parquet cells are typed, as JSON values are; its text cells of request numbers are read as numbers.
  const source: FileFormat = context.inputFormat === 'csv' ? 'csv' : 'jsonl';
  const parquet = context.inputFormat === 'parquet';
  const failed = (code: string, message: string, detail?: ErrorDetail) =>
    kind.errorFields?.(code, message) ?? resultFields(undefined, { code, message, detail });
  // The next chunk's buffer is sized from the last one's output, so it is rarely grown.
  let capacity = 64 * 1024;
  const newRow = rowObjectFor(context.header);
  const rename =
    context.rename !== undefined && Object.keys(context.rename).length > 0 ? context.rename : undefined;
  const reading = context.reading ?? {};
  // JSON Lines records name their own keys: one whose keys differ from the first's is checked as a header is.
  const readKeys =
    context.inputFormat === 'jsonl' && kind.columns !== undefined
      ? keyReader(kind.columns, context.keys ?? [], rename)
      : undefined;
  // JSON Lines into CSV or Parquet: the output's input columns are the first record's keys, so a later record's
  // other keys have no column; they are counted for the end report's warning rather than lost without a word.
  const outputColumns =
    context.inputFormat === 'jsonl' && context.format !== 'jsonl' ? new Set(context.columns) : undefined;
  const newTally = context.tally === true ? kind.newTally : undefined;
  // CSV output of the generic result columns: rows the adapter writes itself (RowAdapter.csvResult) skip the outcome.
  const resultInput = newTally === undefined ? encoder?.resultInput : undefined;
  const csvResult = resultInput === undefined ? undefined : kind.csvResult;
  const hasInput = context.columns.length > 0;
  // A record the output copies whole may be answered from its text (RowAdapter.csvRecordResult), unparsed.
  const readAs = csvResult === undefined || !copiesRecords ? undefined : readNames(context.header, rename);
  const recordResult = readAs === undefined ? undefined : kind.csvRecordResult?.(readAs);
  const spans = new Int32Array(2 * context.header.length);
  const { neutraliseFormulas } = context;
  return (records) => {
    const summary = new RunSummary(kind.groupings, newTally?.call(kind));
    const sink = new ByteSink(encoder === undefined ? 0 : capacity);
    const rows: OutputRow[] = [];
    const emit = (values: Record<string, unknown>, result: ResultFields, record?: string) => {
      if (encoder === undefined) rows.push({ input: values, result });
      else sink.write(encoder.line(values, result, record));
    };
    // Records are parsed a slice at a time, just before their rows are computed: a chunk's parsed fields never all
    // live at once, so few survive a young-generation collection and old-space garbage stays small (peak RSS).
    for (let from = 0; from < records.length; from += PARSE_SLICE) {
      const slice = records.slice(from, from + PARSE_SLICE);
      // Parsed when a record of the slice is not answered from its text (then all of it, in one go).
      let parsed: Array<CsvRecord | undefined> | undefined;
      // Each row is computed and encoded before the next is decoded: nothing of a row but its bytes outlives it.
      slice.forEach((record, index) => {
        const { text } = record;
        if (recordResult !== undefined && text !== undefined) {
          const written =
            recordFields(text, neutraliseFormulas, spans) === context.header.length
              ? answeredFromText(recordResult, text, spans, reading)
              : undefined;
          if (written !== undefined) {
            summary.success(written.co2e, written.groups, undefined, written.co2eText);
            writeRow(sink, `${text},`, written.cells);
            return;
          }
        }
        parsed ??= context.inputFormat === 'csv' ? parseSlice(slice, context.delimiter) : [];
        const { values, error, detail } = decode(record, context, parsed[index], newRow);
        if (outputColumns !== undefined) countDropped(values, outputColumns, context.resultColumns, summary);
        const keys = error === undefined ? readKeys?.(values) : undefined;
        const problem = keys !== undefined && 'error' in keys ? `line ${record.line}: ${keys.error}.` : error;
        if (problem !== undefined) {
          summary.failure(record.line, 'invalid_request', problem);
          emit(values, failed('invalid_request', problem, detail));
          return;
        }
        const names = keys === undefined ? rename : (keys as { rename: typeof rename }).rename;
        let result: ResultFields;
        let input: Record<string, unknown> | undefined;
        try {
          const read = parquet ? parquetRowValues(values) : values;
          input = names === undefined ? read : renamed(read, names);
          const written = csvResult?.call(kind, input, source, reading);
          if (written !== undefined) {
            summary.success(written.co2e, written.groups, undefined, written.co2eText);
            const cells = (resultInput as NonNullable<typeof resultInput>)(
              values,
              copiesRecords ? record.text : undefined,
            );
            writeRow(sink, hasInput ? `${cells},` : cells, written.cells);
            return;
          }
          const { outcome, groups, fields, tallied } = kind.compute(input, source, reading);
          summary.success(outcome.co2e, groups, tallied);
          result = fields ?? outcome;
        } catch (thrown) {
          const { code, message, detail } = describeError(thrown);
          summary.failure(
            record.line,
            code,
            message,
            input === undefined ? undefined : kind.failureHint?.(input, source, thrown, reading),
          );
          result = failed(code, message, detail);
        }
        // Read whole (its fields are the header's): the record's text is its input cells.
        emit(values, result, copiesRecords ? record.text : undefined);
      });
    }
    const bytes = sink.bytes();
    capacity = Math.ceil(bytes.length * 1.25);
    return encoder === undefined ? { bytes, rows, summary } : { bytes, summary };
  };
}
