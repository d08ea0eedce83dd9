/**
 * The caps on decompression for every zip and gzip the loaders read (issue 39): a zip bomb (600 MB of zeros in a
 * 612 KB release) is refused as "too large" before its bytes are inflated, and an entry that inflates past the size
 * it declares is refused as it goes, so memory never grows past the cap.
 */

const MIB = 1 << 20;

/** Largest entry inflated into memory (EXIOBASE's impacts/M.txt is about 30 MB). */
export const MAX_INFLATED_BYTES = 512 * MIB;
/** Highest compression ratio accepted above {@link RATIO_FREE_BYTES}; text tables compress 5–20:1. */
export const MAX_RATIO = 200;
/** Entries up to this size are accepted at any ratio (a small file of repeated cells compresses very well). */
export const RATIO_FREE_BYTES = 64 * MIB;

/**
 * The most bytes an entry of `compressed` bytes may inflate to: {@link MAX_INFLATED_BYTES}, and
 * {@link MAX_RATIO} × `compressed` beyond {@link RATIO_FREE_BYTES}.
 *
 * @example
 * ```ts
 * inflateCap(612_000); // 122,400,000: 200 × 612 KB (above the 64 MiB a small entry may always have)
 * ```
 */
export const inflateCap = (compressed: number): number =>
  Math.min(MAX_INFLATED_BYTES, Math.max(RATIO_FREE_BYTES, MAX_RATIO * compressed));

const megabytes = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString('en-US')} MB`;

/**
 * The "too large" message of an entry that would inflate past its cap (≤ 200 characters).
 *
 * @example
 * ```ts
 * tooLargeMessage(600_000_000, 612_000); // 'too large: inflates to 600 MB from 1 MB (980:1); the cap is …'
 * ```
 */
export function tooLargeMessage(size: number, compressed: number): string {
  const ratio = compressed > 0 ? `${Math.round(size / compressed).toLocaleString('en-US')}:1` : 'unbounded';
  return `too large: inflates to ${megabytes(size)} from ${megabytes(compressed)} (${ratio}); the cap is ${megabytes(inflateCap(compressed))} (at most 512 MiB, ${MAX_RATIO}:1 above 64 MiB): a zip bomb or a corrupt file?`;
}
