import { deepFreeze } from '../../core/freeze';
import type { FetchLike } from './download';
import { DownloadError } from './errors';

/** Zenodo's REST API; `CO2E_ENGINE_ZENODO_API` or `--zenodo-api` replaces it on the command line. */
export const ZENODO_API = 'https://zenodo.org/api';

/**
 * The Zenodo records of the EXIOBASE 3 monetary releases (DOI `10.5281/zenodo.<record>`), each with one
 * `IOT_<year>_pxp.zip` per year. `3.9` is the newest 3.9 release.
 */
export const EXIOBASE_ZENODO_RECORDS = /* @__PURE__ */ deepFreeze({
  '3.8.2': '5589597',
  '3.9.4': '14614930',
  '3.9.5': '14869924',
  '3.9.6': '15689391',
} as const);

/** A release of {@link EXIOBASE_ZENODO_RECORDS}. */
export type ExiobaseZenodoRelease = keyof typeof EXIOBASE_ZENODO_RECORDS;

/** One file of a Zenodo record, as its record API lists it. */
export interface ZenodoFile {
  key: string;
  size: number | undefined;
  /** `md5:<hex>`, as Zenodo writes it. */
  checksum: string;
  /** Where its bytes are: `<api>/records/<record>/files/<key>/content`. */
  url: string;
}

/**
 * The record API's address of a Zenodo record.
 *
 * @example
 * ```ts
 * zenodoRecordUrl('5589597'); // 'https://zenodo.org/api/records/5589597'
 * ```
 */
export const zenodoRecordUrl = (record: string, api: string = ZENODO_API) =>
  `${api.replace(/\/+$/, '')}/records/${encodeURIComponent(record)}`;

/**
 * The address of a file's bytes in a Zenodo record.
 *
 * @example
 * ```ts
 * zenodoFileUrl('5589597', 'IOT_2019_pxp.zip');
 * // 'https://zenodo.org/api/records/5589597/files/IOT_2019_pxp.zip/content'
 * ```
 */
export const zenodoFileUrl = (record: string, key: string, api: string = ZENODO_API) =>
  `${zenodoRecordUrl(record, api)}/files/${encodeURIComponent(key)}/content`;

interface RawFile {
  key?: unknown;
  size?: unknown;
  checksum?: unknown;
}

/**
 * The files of a Zenodo record, from its record API (`GET <api>/records/<record>`). Zenodo answers with `files` as
 * a list of `{ key, size, checksum: "md5:…", links }`; the InvenioRDM form, `files.entries` keyed by name, is read
 * too. Each file's address is built from `api`, so a replaced API base serves the bytes as well.
 *
 * @example
 * ```ts
 * const files = await zenodoRecordFiles('5589597');
 * files.find((file) => file.key === 'IOT_2019_pxp.zip')?.checksum; // 'md5:…'
 * ```
 * @throws {@link DownloadError} when the record cannot be read or lists no files.
 */
export async function zenodoRecordFiles(
  record: string,
  options: { api?: string; fetch?: FetchLike; signal?: AbortSignal } = {},
): Promise<ZenodoFile[]> {
  const api = options.api ?? ZENODO_API;
  const url = zenodoRecordUrl(record, api);
  const doFetch: FetchLike = options.fetch ?? ((target, init) => fetch(target, init));
  let body: unknown;
  try {
    const response = await doFetch(url, {
      headers: { Accept: 'application/json' },
      redirect: 'follow',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new DownloadError(
        `Zenodo record ${record}: ${url} answered HTTP ${response.status}${response.status === 404 ? ' (no such record)' : ''}`,
        url,
      );
    }
    body = await response.json();
  } catch (error) {
    if (error instanceof DownloadError || options.signal?.aborted === true) throw error;
    const cause = error instanceof Error ? ((error as { cause?: unknown }).cause ?? error) : error;
    throw new DownloadError(
      `cannot read Zenodo record ${record} from ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
      url,
    );
  }
  const files = (body as { files?: unknown } | null)?.files;
  const raw: RawFile[] = Array.isArray(files)
    ? (files as RawFile[])
    : typeof files === 'object' &&
        files !== null &&
        typeof (files as { entries?: unknown }).entries === 'object'
      ? Object.values((files as { entries: Record<string, RawFile> }).entries)
      : [];
  const listed = raw
    .filter((file): file is RawFile & { key: string; checksum: string } => {
      return typeof file?.key === 'string' && typeof file.checksum === 'string';
    })
    .map((file) => ({
      key: file.key,
      size: typeof file.size === 'number' ? file.size : undefined,
      checksum: file.checksum,
      url: zenodoFileUrl(record, file.key, api),
    }));
  if (listed.length === 0)
    throw new DownloadError(
      `Zenodo record ${record} (${url}) lists no files with checksums (expected "files": [{"key", "size", "checksum"}])`,
      url,
    );
  return listed;
}
