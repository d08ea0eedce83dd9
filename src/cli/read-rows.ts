import { readCsvRecords } from './csv-records';
import { readJsonlRecords } from './jsonl-records';
import { MAX_LINE_CHARS, readLines } from './lines';

/** Input rows of a batch file, CSV or JSON Lines, streamed. */

export type FileFormat = 'csv' | 'jsonl';

/** One input row: its values by column (CSV cells are strings), or why the line could not be read. */
export type InputRow =
  | { line: number; values: Record<string, unknown>; error?: undefined }
  | { line: number; error: string; values?: undefined };

/** A problem with the file as a whole (a malformed or duplicated header): a usage error. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}

export interface RowSource {
  rows: AsyncGenerator<InputRow>;
  /** The input columns known so far: the CSV header, or the keys of the first JSON object. */
  columns(): readonly string[];
}

export interface ReadRowsOptions {
  onChunk?: (bytes: number) => void;
  maxRecordChars?: number;
}

export function readRows(
  source: AsyncIterable<Uint8Array | string>,
  format: FileFormat,
  options: ReadRowsOptions = {},
): RowSource {
  const max = options.maxRecordChars ?? MAX_LINE_CHARS;
  const lines = readLines(source, max, options.onChunk);
  let columns: string[] = [];

  async function* csvRows(): AsyncGenerator<InputRow> {
    let header: string[] | undefined;
    for await (const record of readCsvRecords(lines, max)) {
      if (header === undefined) {
        if ('error' in record) throw new InputFileError(`the header is not valid CSV (${record.error})`);
        header = record.fields;
        const duplicate = header.find((name, index) => header?.indexOf(name) !== index);
        if (duplicate !== undefined)
          throw new InputFileError(`the header names the column '${duplicate}' twice`);
        columns = header;
        continue;
      }
      if ('error' in record) {
        yield record;
        continue;
      }
      if (record.fields.length !== header.length) {
        yield {
          line: record.line,
          error: `line ${record.line}: expected ${header.length} fields as in the header, found ${record.fields.length}.`,
        };
        continue;
      }
      const values: Record<string, string> = {};
      header.forEach((name, index) => {
        values[name] = record.fields[index] as string;
      });
      yield { line: record.line, values };
    }
  }

  async function* jsonlRows(): AsyncGenerator<InputRow> {
    for await (const record of readJsonlRecords(lines, max)) {
      if ('values' in record && columns.length === 0) columns = Object.keys(record.values);
      yield record;
    }
  }

  return { rows: format === 'csv' ? csvRows() : jsonlRows(), columns: () => columns };
}
