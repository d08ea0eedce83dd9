/**
 * `co2e-engine/node`: file and zip access for the loaders of `co2e-engine/loaders`, for Node.js. Each function
 * reads everything it needs, validates it whole, and returns tables for `createTableDatasets` or throws a
 * `DatasetError` naming the file, line, column and problem.
 *
 * @packageDocumentation
 */
export { loadExiobaseRelease, type LoadExiobaseReleaseOptions } from './load-exiobase-release';
export { loadTableFile, type LoadTableFileOptions } from './load-table-file';
export {
  loadCcfCoefficients,
  type LoadCcfCoefficientsOptions,
  type LoadedCcfCoefficients,
} from './load-ccf-coefficients';
export { loadMarginsCsv, type LoadMarginsCsvOptions } from './load-margins-csv';
export { loadDatasetsFile } from './load-datasets-file';
export { loadDatasets } from './load-datasets';
export { loadNaioMargins, readEurostatText, type LoadNaioMarginsOptions } from './load-naio-margins';
export { loadExiobaseMargins, type LoadExiobaseMarginsOptions } from './load-exiobase-margins';
export {
  defaultCacheDir,
  type Downloaded,
  DownloadError,
  type DownloadOptions,
  type DownloadProgress,
  downloadVerified,
  EUROSTAT_API,
  EXIOBASE_ZENODO_RECORDS,
  type ExiobaseZenodoRelease,
  type FetchedExiobase,
  type FetchExiobaseOptions,
  fetchExiobaseRelease,
  type FetchLike,
  fetchNaioMargins,
  type FetchNaioOptions,
  naioMarginsUrl,
  ZENODO_API,
  type ZenodoFile,
  zenodoFileUrl,
  zenodoRecordFiles,
  zenodoRecordUrl,
} from './fetch/index';
