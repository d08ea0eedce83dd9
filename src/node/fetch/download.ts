import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DownloadError } from './errors';

/** What the downloads call to reach a server: the global `fetch`, or one that goes through a proxy. */
export type FetchLike = (
  url: string,
  init: { headers: Record<string, string>; signal?: AbortSignal; redirect: 'follow' },
) => Promise<Response>;

/** Progress of a download, reported as bytes arrive. */
export interface DownloadProgress {
  /** Bytes of the file on disk so far, resumed part included. */
  bytes: number;
  /** The file's size, when the record or the server says it. */
  total: number | undefined;
  /** Bytes that were already on disk when this attempt started (a resumed partial). */
  resumedFrom: number;
}

/** Options of {@link downloadVerified}. */
export interface DownloadOptions {
  url: string;
  /** The cache entry to write. The part downloaded so far is kept beside it as `<path>.partial`. */
  path: string;
  /** The checksum the file must have, as Zenodo writes it: `md5:<hex>` (or `sha256:<hex>`). */
  checksum: string;
  /** The size in bytes, when known (the record lists it): a longer download is refused. */
  size?: number;
  /** Default: the global `fetch` (which ignores `HTTPS_PROXY`; pass one that honours it). */
  fetch?: FetchLike;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Further attempts, each resuming where the last broke off, when the connection drops. Default 0. */
  retries?: number;
  /** Milliseconds before each further attempt, times its number. Default 1000. */
  retryDelay?: number;
}

/** The result of {@link downloadVerified}. */
export interface Downloaded {
  path: string;
  /** True when the cache entry was there and matched its checksum: nothing was downloaded. */
  cached: boolean;
  /** Bytes received in this run. */
  received: number;
  /** Bytes of a partial download from an earlier run that this one resumed from (0: from the start). */
  resumedFrom: number;
  /** The requests made, with the `Range` each sent (undefined: the whole file). */
  requests: Array<{ range: string | undefined; status: number }>;
}

const ALGORITHMS = { md5: 'md5', sha256: 'sha256' } as const;

function parseChecksum(checksum: string, url: string): { algorithm: 'md5' | 'sha256'; hex: string } {
  const match = /^(md5|sha256):([0-9a-f]+)$/i.exec(checksum.trim());
  const algorithm = match?.[1]?.toLowerCase() as 'md5' | 'sha256' | undefined;
  const hex = match?.[2]?.toLowerCase() ?? '';
  if (algorithm === undefined || hex.length !== (algorithm === 'md5' ? 32 : 64))
    throw new DownloadError(
      `cannot verify ${url}: checksum "${checksum}" is not md5:<32 hex digits> or sha256:<64 hex digits>`,
      url,
    );
  return { algorithm, hex };
}

/** The checksum of a file, read as a stream. */
export async function fileChecksum(path: string, algorithm: 'md5' | 'sha256'): Promise<string> {
  const hash = createHash(ALGORITHMS[algorithm]);
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

const sizeOf = async (path: string) => {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
};

/** `Content-Range: bytes 100-999/1000` → 100. */
const rangeStart = (header: string | null) => {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  return match === null ? undefined : Number(match[1]);
};

/**
 * Downloads `url` into the cache entry `path`, resuming a partial download with an HTTP `Range` request, and
 * verifies the checksum before the entry appears: the bytes go to `<path>.partial`, which is renamed to `path` only
 * when whole and matching. A connection that breaks off keeps the partial (the next call resumes it, as do
 * `retries` within this call); a wrong checksum or size removes it and throws, so the cache never holds a
 * half-written or wrong file. An entry already at `path` is checked and reused when it matches (`cached`), and
 * replaced when it does not.
 *
 * @example
 * ```ts
 * import { downloadVerified } from 'co2e-engine/node';
 * await downloadVerified({
 *   url: 'https://zenodo.org/api/records/5589597/files/IOT_2019_pxp.zip/content',
 *   path: 'cache/IOT_2019_pxp.zip',
 *   checksum: 'md5:…', // as the record lists it
 *   retries: 3,
 * });
 * ```
 * @throws {@link DownloadError} for an HTTP error, a connection that broke off on the last attempt (the partial is kept,
 *   and named), a checksum or size that does not match (nothing is kept).
 */
export async function downloadVerified(options: DownloadOptions): Promise<Downloaded> {
  const { url, path, size } = options;
  const { algorithm, hex } = parseChecksum(options.checksum, url);
  const doFetch: FetchLike = options.fetch ?? ((target, init) => fetch(target, init));
  const partial = `${path}.partial`;
  const name = basename(path);
  const requests: Downloaded['requests'] = [];
  await mkdir(dirname(path), { recursive: true });

  const existing = await sizeOf(path);
  if (existing !== undefined) {
    if ((size === undefined || existing === size) && (await fileChecksum(path, algorithm)) === hex)
      return { path, cached: true, received: 0, resumedFrom: 0, requests };
    await rm(path, { force: true }); // a damaged or stale entry: download it again
  }

  const retries = options.retries ?? 0;
  let received = 0;
  let firstResume: number | undefined;
  for (let attempt = 0; ; attempt += 1) {
    let offset = (await sizeOf(partial)) ?? 0;
    if (size !== undefined && offset > size) {
      await rm(partial, { force: true });
      offset = 0;
    }
    firstResume ??= offset;
    if (size !== undefined && offset === size) break; // whole already: only the check is left
    const range = offset > 0 ? `bytes=${offset}-` : undefined;
    let broke: unknown;
    try {
      const response = await doFetch(url, {
        headers: range === undefined ? {} : { Range: range },
        redirect: 'follow',
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      requests.push({ range, status: response.status });
      if (response.status === 416 && offset > 0) {
        // The server has nothing past the partial: it is whole (or wrong, which the check will tell).
        await response.body?.cancel();
        break;
      }
      if (response.status === 206) {
        const start = rangeStart(response.headers.get('content-range'));
        if (start !== offset) {
          await response.body?.cancel();
          await rm(partial, { force: true });
          throw new DownloadError(
            `${url} answered the request for bytes from ${offset} with Content-Range "${response.headers.get('content-range') ?? ''}"; the partial download was removed, run again to download from the start`,
            url,
          );
        }
      } else if (response.ok) {
        offset = 0; // the server sent the whole file (it ignores Range): start over
      } else {
        await response.body?.cancel();
        throw new DownloadError(
          `${url} answered HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
          url,
          offset > 0 ? partial : undefined,
        );
      }
      const total = size ?? contentTotal(response, offset);
      const handle = await open(partial, offset > 0 ? 'a' : 'w');
      let bytes = offset;
      try {
        if (response.body !== null) {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            if (size !== undefined && bytes + chunk.length > size) {
              await handle.close();
              await rm(partial, { force: true });
              throw new DownloadError(
                `${url} sent more than the ${size} bytes the record lists for ${name}; the download was removed`,
                url,
              );
            }
            await handle.write(chunk);
            bytes += chunk.length;
            received += chunk.length;
            options.onProgress?.({ bytes, total, resumedFrom: offset });
          }
        }
        await handle.sync();
      } catch (error) {
        if (error instanceof DownloadError) throw error;
        broke = error;
      } finally {
        await handle.close().catch(() => undefined);
      }
      if (broke === undefined && size !== undefined && bytes < size)
        broke = new Error(`the server ended the response after ${bytes} of ${size} bytes`);
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      if (options.signal?.aborted === true) throw error;
      broke = error;
    }
    if (broke === undefined) break;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the caught error, rethrown as it came
    if (options.signal?.aborted === true) throw broke; // stopped on purpose: keep the partial, do not retry
    const kept = (await sizeOf(partial)) ?? 0;
    if (attempt >= retries)
      throw new DownloadError(
        `the download of ${name} broke off after ${kept}${size === undefined ? '' : ` of ${size}`} bytes (${describe(broke)}); the part is kept in ${partial}: run the same command again to resume`,
        url,
        kept > 0 ? partial : undefined,
      );
    await sleep((options.retryDelay ?? 1000) * (attempt + 1));
  }

  const actual = await fileChecksum(partial, algorithm);
  if (actual !== hex) {
    await rm(partial, { force: true });
    throw new DownloadError(
      `checksum mismatch for ${name} from ${url}: the record lists ${algorithm}:${hex}, the download has ${algorithm}:${actual}. The download was removed and nothing was written to the cache; run again to download it afresh, and if it fails again the record or the server is at fault`,
      url,
    );
  }
  await rename(partial, path);
  return { path, cached: false, received, resumedFrom: firstResume ?? 0, requests };
}

/** The whole file's size from `Content-Range` (206) or `Content-Length` (200). */
function contentTotal(response: Response, offset: number): number | undefined {
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (range !== null) return Number(range[1]);
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  return Number.isFinite(length) ? length + (response.status === 206 ? offset : 0) : undefined;
}
