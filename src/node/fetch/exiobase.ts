import { join } from 'node:path';
import { defaultCacheDir } from './cache';
import { type Downloaded, type DownloadProgress, downloadVerified, type FetchLike } from './download';
import { DownloadError } from './errors';
import {
  EXIOBASE_ZENODO_RECORDS,
  type ExiobaseZenodoRelease,
  ZENODO_API,
  type ZenodoFile,
  zenodoRecordFiles,
  zenodoRecordUrl,
} from './zenodo';

/** Options of {@link fetchExiobaseRelease}. */
export interface FetchExiobaseOptions {
  /** The release (default `3.8.2`); `3.9` is the newest 3.9 release. */
  release?: ExiobaseZenodoRelease | '3.9';
  /** Another Zenodo record holding `IOT_<year>_pxp.zip` files; replaces the release's record. */
  record?: string;
  year: number;
  /** Default: {@link defaultCacheDir}. The archive is kept as `<cacheDir>/zenodo/<record>/IOT_<year>_pxp.zip`. */
  cacheDir?: string;
  /** Zenodo's API base (default {@link ZENODO_API}). */
  api?: string;
  fetch?: FetchLike;
  /** Called once the record has been read, before any byte is downloaded. */
  onFile?: (file: ZenodoFile & { path: string; record: string }) => void;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Further attempts when the connection drops, each resuming with `Range` (default 0). */
  retries?: number;
  retryDelay?: number;
}

/** The result of {@link fetchExiobaseRelease}: the verified archive in the cache. */
export interface FetchedExiobase extends Downloaded {
  release: string;
  record: string;
  file: ZenodoFile;
}

/** `3.9` → the newest 3.9 release. */
export function exiobaseReleaseOf(release: ExiobaseZenodoRelease | '3.9'): ExiobaseZenodoRelease {
  if (release === '3.9') return '3.9.6';
  if (!(release in EXIOBASE_ZENODO_RECORDS))
    throw new RangeError(
      `unknown EXIOBASE release ${String(release)}; known: ${Object.keys(EXIOBASE_ZENODO_RECORDS).join(', ')}, 3.9`,
    );
  return release;
}

/**
 * Downloads `IOT_<year>_pxp.zip` (the product-by-product tables) of an EXIOBASE 3 release from its Zenodo record
 * into the cache, resuming a partial download and verifying the checksum the record lists (see
 * {@link downloadVerified}). A verified archive already in the cache is reused. Pass the result's `path` to
 * `loadExiobaseRelease`.
 *
 * @example
 * ```ts
 * import { fetchExiobaseRelease, loadExiobaseRelease } from 'co2e-engine/node';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const { path } = await fetchExiobaseRelease({ release: '3.8.2', year: 2019, retries: 3 });
 * const release = loadExiobaseRelease(path, {
 *   year: 2019, version: '3.8.2', products: defaultTables.classifications.products,
 * });
 * ```
 * @throws {@link DownloadError} when the record cannot be read, has no archive for the year (the message lists the years
 *   it has), or the download breaks off or does not match its checksum.
 */
export async function fetchExiobaseRelease(options: FetchExiobaseOptions): Promise<FetchedExiobase> {
  const release = exiobaseReleaseOf(options.release ?? '3.8.2');
  const record = options.record ?? EXIOBASE_ZENODO_RECORDS[release];
  const api = options.api ?? ZENODO_API;
  const key = `IOT_${options.year}_pxp.zip`;
  const files = await zenodoRecordFiles(record, {
    api,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const file = files.find((each) => each.key === key);
  if (file === undefined) {
    const years = files
      .map((each) => /^IOT_(\d{4})_pxp\.zip$/.exec(each.key)?.[1])
      .filter((year): year is string => year !== undefined)
      .sort();
    throw new DownloadError(
      `Zenodo record ${record}${options.record === undefined ? ` (EXIOBASE ${release})` : ''} has no ${key}; ${
        years.length > 0
          ? `it has IOT_<year>_pxp.zip for ${years.length === 1 ? years[0] : `${years[0]}–${years[years.length - 1]}`}`
          : 'it has no IOT_<year>_pxp.zip at all'
      }`,
      zenodoRecordUrl(record, api),
    );
  }
  const path = join(options.cacheDir ?? defaultCacheDir(), 'zenodo', record, key);
  options.onFile?.({ ...file, path, record });
  const downloaded = await downloadVerified({
    url: file.url,
    path,
    checksum: file.checksum,
    ...(file.size === undefined ? {} : { size: file.size }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.retryDelay === undefined ? {} : { retryDelay: options.retryDelay }),
  });
  return { ...downloaded, release, record, file };
}
