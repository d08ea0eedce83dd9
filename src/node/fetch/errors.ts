/**
 * Thrown when a download cannot be completed or verified: the server refused or broke off, the record does not list
 * the file, or the bytes do not match the record's checksum. `url` is the address asked, `partial` the part kept
 * for a later resume (absent when nothing was kept).
 *
 * @example
 * ```ts
 * try { await fetchExiobaseRelease({ release: '3.8.2', year: 2019 }); } catch (error) {
 *   if (error instanceof DownloadError) console.error(error.message, error.partial ?? 'nothing kept');
 * }
 * ```
 */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    message: string,
    /** The address that failed. */
    readonly url: string,
    /** The partial download kept beside the cache entry, for a resume; undefined when none was kept. */
    readonly partial?: string,
  ) {
    super(message);
  }
}
