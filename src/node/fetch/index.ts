/** Downloads of published source data into a local cache: Zenodo records (EXIOBASE) and Eurostat tables. */
export { defaultCacheDir } from './cache';
export {
  type Downloaded,
  type DownloadOptions,
  type DownloadProgress,
  downloadVerified,
  type FetchLike,
} from './download';
export { DownloadError } from './errors';
export {
  EUROSTAT_API,
  eurostatGeo,
  fetchNaioMargins,
  type FetchNaioOptions,
  naioMarginsUrl,
} from './eurostat';
export {
  exiobaseReleaseOf,
  type FetchedExiobase,
  type FetchExiobaseOptions,
  fetchExiobaseRelease,
} from './exiobase';
export {
  EXIOBASE_ZENODO_RECORDS,
  type ExiobaseZenodoRelease,
  ZENODO_API,
  type ZenodoFile,
  zenodoFileUrl,
  zenodoRecordFiles,
  zenodoRecordUrl,
} from './zenodo';
