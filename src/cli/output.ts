import { stringify } from 'csv-stringify/sync';
import type { Notice } from '../spend/notices';
import { RESULT_COLUMNS, type RowOutcome } from './outcome';

/** Output of a batch file: the input columns, then {@link RESULT_COLUMNS}; as CSV or JSON Lines. */

/** A text destination that honours backpressure: `write` resolves once the stream can take more. */
export interface TextSink {
  write(text: string): Promise<void>;
  /** Ends the stream when it is the sink's own (a file), and resolves when everything is flushed. */
  close(): Promise<void>;
}

export function streamSink(stream: NodeJS.WritableStream, ownsStream: boolean): TextSink {
  let failure: Error | undefined;
  stream.on('error', (error: Error) => {
    failure ??= error;
  });
  const settle = (event: string) =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('error', fail);
        resolve();
      };
      const fail = (error: Error) => {
        stream.off(event, done);
        reject(error);
      };
      stream.once(event, done);
      stream.once('error', fail);
    });
  return {
    async write(text) {
      if (failure !== undefined) throw failure;
      if (!stream.write(text)) await settle('drain');
    },
    async close() {
      if (failure !== undefined) throw failure;
      if (!ownsStream) return;
      const finished = settle('finish');
      stream.end();
      await finished;
    },
  };
}

/** The result columns of a row: an outcome, or an error. */
export type ResultFields = { [K in (typeof RESULT_COLUMNS)[number]]: unknown };

export function resultFields(
  outcome: RowOutcome | undefined,
  error?: { code: string; message: string },
): ResultFields {
  return {
    co2e: outcome?.co2e ?? null,
    co2e_unit: outcome?.co2e_unit ?? null,
    activity_value: outcome?.activity_value ?? null,
    activity_unit: outcome?.activity_unit ?? null,
    factor_id: outcome?.factor_id ?? null,
    factor_name: outcome?.factor_name ?? null,
    factor_source: outcome?.factor_source ?? null,
    notices: outcome?.notices ?? [],
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
  };
}

export interface RowWriter {
  write(input: Record<string, unknown>, result: ResultFields): Promise<void>;
  close(): Promise<void>;
}

const RESULT_NAMES: ReadonlySet<string> = new Set(RESULT_COLUMNS);

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** CSV: the notices column holds the notice codes, `;`-separated (JSON Lines has the full notices). */
const noticeCodes = (notices: unknown) => (notices as Notice[]).map((notice) => notice.code).join(';');

/**
 * CSV rows under one header: the input columns (those named like a result column are replaced by it), then the
 * result columns. The header is written with the first row, from `inputColumns()` at that moment.
 */
export function csvWriter(sink: TextSink, inputColumns: () => readonly string[]): RowWriter {
  let columns: string[] | undefined;
  const line = (cells: string[]) => stringify([cells], { record_delimiter: 'unix' });
  const start = async () => {
    if (columns !== undefined) return columns;
    columns = inputColumns().filter((name) => !RESULT_NAMES.has(name));
    await sink.write(line([...columns, ...RESULT_COLUMNS]));
    return columns;
  };
  return {
    async write(input, result) {
      const names = await start();
      const cells = names.map((name) => csvCell(input[name]));
      for (const name of RESULT_COLUMNS)
        cells.push(name === 'notices' ? noticeCodes(result.notices) : csvCell(result[name]));
      await sink.write(line(cells));
    },
    async close() {
      await start();
      await sink.close();
    },
  };
}

/** JSON Lines: each input object (result-named keys replaced) with the result fields after it. */
export function jsonlWriter(sink: TextSink): RowWriter {
  return {
    async write(input, result) {
      const row: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) if (!RESULT_NAMES.has(key)) row[key] = value;
      await sink.write(`${JSON.stringify({ ...row, ...result })}\n`);
    },
    close: () => sink.close(),
  };
}
