/**
 * `co2e-engine/loaders`: parsers that turn data files into the engine's tables: EXIOBASE 3 releases, ccf-coefficients
 * CSVs, and every table kind as CSV or JSON. Pure functions over text (no file access, no Node built-ins), so they
 * run in browsers too; `co2e-engine/node` reads the files. Every parser validates the whole input before it
 * returns anything and throws a `DatasetError` naming the file, line, column and problem.
 *
 * @packageDocumentation
 */
export {
  EXIOBASE_DEFAULT_IMPACT,
  EXIOBASE_GHG_IMPACTS,
  parseExiobaseRelease,
  type ExiobaseRelease,
  type ExiobaseReleaseInput,
  type OmittedMultiplier,
} from './parse-exiobase-release';
export { parseTableCsv, type ParseTableCsvOptions } from './parse-table-csv';
export { parseTableJson, type ParseTableJsonOptions } from './parse-table-json';
export { TABLE_CSV_COLUMNS } from './csv-formats';
export {
  META_SCHEMAS,
  TABLE_KINDS,
  TABLE_SCHEMAS,
  type TableKind,
  type TableMeta,
  type TableOf,
} from './table-kinds';
export {
  CCF_INSTANCE_FILES,
  parseCcfInstances,
  type CcfInstanceFiles,
  type CcfInstances,
  type DroppedInstance,
} from './parse-ccf-instances';
export {
  parseCcfUseCoefficients,
  type CcfUseCoefficientsOptions,
  type CcfUseWatts,
} from './parse-ccf-use-coefficients';
export { MARGINS_CSV_COLUMNS, parseMarginsCsv, type ParseMarginsCsvOptions } from './parse-margins-csv';
export { DATASETS_FILE_FORMAT, parseDatasetsFile, type DatasetsFile } from './parse-datasets-file';
export {
  detectMarginsFormat,
  parseNaioMargins,
  type MarginsFormat,
  type NaioLeftOut,
  type NaioMargins,
  type ParseNaioMarginsOptions,
} from './parse-naio-margins';
export { finestCodes, NACE_SECTIONS, parseCpaCode, type CpaCode } from './cpa';
export {
  EXIOBASE_MARGIN_FILES,
  EXIOBASE_MARGIN_LAYERS,
  parseExiobaseMargins,
  textLines,
  type ExiobaseMarginLayer,
  type ExiobaseMargins,
  type ExiobaseMarginsInput,
} from './parse-exiobase-margins';
