import { EmissionsError } from '../../core/errors';
import { type CsvRecord, parseRecords, salvageFields } from '../formats/csv/reader';
import { parseJsonLine } from '../formats/jsonl/reader';
import type { RowAdapter } from './row-adapter';
import { ENCODERS, type OutputRow, resultFields } from '../formats/index';
import type { FileFormat, RecordText } from '../formats/records';
import { RunSummary, type SummaryState } from './summary';

/**
 * A chunk of input records → its output text and summary. The same pure function runs in the main thread or in
 * a worker (pool.ts), so the output does not depend on `--jobs`.
 */

/** What every chunk of one run shares; plain data, so a worker can be given it. */
export interface ChunkContext {
  inputFormat: FileFormat;
  format: FileFormat;
  /** The CSV input's header ([] for JSON Lines). */
  header: readonly string[];
  /** The input columns the output keeps. */
  columns: readonly string[];
  neutraliseFormulas: boolean;
  /** The row adapter's own result columns, when it has them. */
  resultColumns?: readonly string[];
}

export interface ChunkResult {
  text: string;
  summary: SummaryState;
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof EmissionsError) return { code: error.error_code, message: error.message };
  // Not the row's fault: an engine bug. Reported in the row, and the run goes on.
  return {
    code: 'internal_error',
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}

export type DecodedRow = { values: Record<string, unknown>; error?: string };

/**
 * Row objects without `Object.prototype` in their chain: a column named `__proto__` (or `constructor`) is a column
 * like any other, and no absent column reads as an inherited member. Built with `new`, unlike
 * `Object.create(null)` (a dictionary from the start), so rows of one header share a hidden class and stay fast to
 * fill and read.
 */
const Values = function (this: object) {} as unknown as new () => Record<string, unknown>;
Values.prototype = Object.create(null) as object;

/** The header's leading columns filled from `fields`, for a row that could not be read whole. */
function byHeader(header: readonly string[], fields: readonly string[]): Record<string, unknown> {
  const values = new Values();
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
export function decode(record: RecordText, context: ChunkContext, parsed: CsvRecord | undefined): DecodedRow {
  const { header } = context;
  if (record.text === undefined) {
    const fields =
      context.inputFormat === 'csv' && record.salvage !== undefined ? salvageFields(record.salvage) : [];
    return { values: byHeader(header, fields), error: record.error ?? 'unreadable record' };
  }
  if (context.inputFormat === 'jsonl') {
    const parsed = parseJsonLine(record.text, record.line);
    return 'values' in parsed ? { values: parsed.values } : { values: {}, error: parsed.error };
  }
  if (parsed === undefined) return { values: {}, error: 'unreadable record' };
  if ('error' in parsed) return { values: byHeader(header, parsed.fields ?? []), error: parsed.error };
  if (parsed.fields.length !== header.length) {
    return {
      values: {},
      error: `line ${record.line}: expected ${header.length} fields as in the header, found ${parsed.fields.length}.`,
    };
  }
  return { values: byHeader(header, parsed.fields) };
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
): (records: readonly RecordText[]) => ChunkResult {
  const encoder = ENCODERS[context.format](context);
  const failed = (code: string, message: string) =>
    kind.errorFields?.(code, message) ?? resultFields(undefined, { code, message });
  return (records) => {
    const summary = new RunSummary(kind.groupings);
    const rows: OutputRow[] = new Array(records.length);
    let parsed: ReadonlyArray<CsvRecord | undefined> = [];
    if (context.inputFormat === 'csv') {
      const texts: Array<{ line: number; text: string }> = [];
      const at: number[] = [];
      records.forEach((record, index) => {
        if (record.text === undefined) return;
        texts.push(record as { line: number; text: string });
        at.push(index);
      });
      const results = parseRecords(texts);
      const byIndex: Array<CsvRecord | undefined> = new Array(records.length);
      at.forEach((index, position) => (byIndex[index] = results[position]));
      parsed = byIndex;
    }
    records.forEach((record, index) => {
      const { values, error } = decode(record, context, parsed[index]);
      if (error !== undefined) {
        summary.failure(record.line, 'invalid_request', error);
        rows[index] = { input: values, result: failed('invalid_request', error) };
        return;
      }
      try {
        const { outcome, groups, fields } = kind.compute(values, context.inputFormat);
        summary.success(outcome.co2e, groups);
        rows[index] = { input: values, result: fields ?? resultFields(outcome) };
      } catch (thrown) {
        const { code, message } = describeError(thrown);
        summary.failure(record.line, code, message);
        rows[index] = { input: values, result: failed(code, message) };
      }
    });
    return { text: encoder.encode(rows), summary: summary.toState() };
  };
}
