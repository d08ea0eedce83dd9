import { csvEncoder } from './csv/writer';
import { jsonlEncoder } from './jsonl/writer';
import type { EncoderOptions, RowEncoder } from './output-row';

/**
 * The text output formats (Parquet, which writes bytes a row group at a time, is parquet/writer.ts). Output rows
 * of a batch file are the input columns, then the result columns (output-row.ts), encoded a chunk at a time. An
 * encoder only turns rows into text; where the text goes (atomically, resumably) is the pipeline's business
 * (pipeline/output-file.ts), so those guarantees hold for every format. A new text format is a folder here with its
 * reader and writer, and one more entry in {@link ENCODERS}.
 */

export { csvField, neutraliseFormula, plainDecimal, plainDecimalText, resultTextCell } from './csv/writer';
export {
  type ErrorDetail,
  type OutputRow,
  passThroughColumns,
  resultFields,
  type ResultFields,
} from './output-row';

/** Output formats by name. */
export const ENCODERS = {
  csv: csvEncoder,
  jsonl: jsonlEncoder,
} as const satisfies Record<string, (options: EncoderOptions) => RowEncoder>;
