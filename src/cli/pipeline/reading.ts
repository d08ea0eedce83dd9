import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { type Delimiter, delimiterName } from '../formats/csv/reader';
import { type ParquetAwareFormat, readRecords } from '../formats/records';
import { UsageError } from '../io';
import { checkHeader, HEADER_WORDS, HeaderError, type HeaderWords } from './header';
import type { CellReading, RowAdapter } from './row-adapter';

/**
 * How a file command reads its input beyond the records themselves, the same for every format (run-file.ts): the
 * cells (decimal commas, credit notes) and the header.
 */

/** The options that change how cells are read. */
export interface ReadingOptions {
  /** CSV input: numbers have a decimal comma; when omitted, on for a `;` file. */
  decimalComma?: boolean;
  /** Negative amounts (credit notes): refused (default), or estimated as negative emissions. */
  credits?: 'refuse' | 'net';
}

/**
 * How the cells of a run are read: decimal commas (given, else on for a `;` CSV file) and credit notes, and what
 * the end report says about it (a reading the user did not ask for is always stated).
 *
 * @example
 * ```ts
 * readingOf({ delimiter: ';', delimiterFrom: 'header' }, 'csv', {}).cells; // { decimalComma: true }
 * ```
 */
export function readingOf(
  source: { delimiter: Delimiter; delimiterFrom: string },
  inputFormat: ParquetAwareFormat,
  options: ReadingOptions,
): { cells: CellReading; notes: string[] } {
  const csv = inputFormat === 'csv';
  const decimalComma = csv && (options.decimalComma ?? source.delimiter === ';');
  const notes: string[] = [];
  if (csv && source.delimiterFrom !== 'option' && source.delimiter !== ',') {
    notes.push(
      `read with the delimiter ${delimiterName(source.delimiter)} (from the ${source.delimiterFrom}; --delimiter to change)`,
    );
  }
  if (decimalComma) {
    notes.push(
      options.decimalComma === true
        ? 'numbers read with a decimal comma (--decimal-comma)'
        : "numbers read with a decimal comma, as usual in ';' files (--no-decimal-comma for points)",
    );
  }
  if (options.credits === 'net')
    notes.push('negative amounts estimated as negative emissions (--credits net)');
  return {
    cells: { ...(decimalComma && { decimalComma }), ...(options.credits === 'net' && { credits: 'net' }) },
    notes,
  };
}

/**
 * The header (CSV, a Parquet file's columns, or the keys of a JSON Lines input's first object) matched to the adapter's
 * columns before any row: the names to read differently and the notes for the end report.
 *
 * @throws {@link UsageError} for a required column missing (naming it and the nearest header name) or named twice.
 */
export function headerReading(
  kind: RowAdapter,
  file: string,
  header: readonly string[],
  words: HeaderWords = HEADER_WORDS,
): { rename: Record<string, string>; notes: string[] } {
  // An empty file has no header and no rows: nothing to check.
  if (kind.columns === undefined || header.length === 0) return { rename: {}, notes: [] };
  try {
    return checkHeader(header, kind.columns, words);
  } catch (error) {
    if (error instanceof HeaderError) throw new UsageError(`${file}: ${error.message}.`);
    throw error;
  }
}

/**
 * Whether the pipeline reads `file` with decimal commas: as given, else when it is a `;` CSV file. The passes that
 * read a file again (billing's cost ratios, the summaries read back from the output) read its cells the same way.
 *
 * @example
 * ```ts
 * await readsDecimalCommas('ledger-de.csv', 'csv', {}); // true for a `;` file
 * ```
 */
export async function readsDecimalCommas(
  file: string,
  format: string,
  reading: { delimiter?: Delimiter; decimalComma?: boolean },
): Promise<boolean> {
  if (reading.decimalComma !== undefined) return reading.decimalComma;
  if (format !== 'csv' || file === '-') return false;
  if (reading.delimiter !== undefined) return reading.delimiter === ';';
  const stream = createReadStream(file);
  try {
    const bytes = file.toLowerCase().endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
    return (await readRecords(bytes, 'csv')).delimiter === ';';
  } finally {
    stream.destroy();
  }
}
