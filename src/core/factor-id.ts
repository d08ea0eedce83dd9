/**
 * Stable factor ids: a 128-bit hex digest of the factor's identity and its dataset's version, the same on every
 * machine and runtime (no crypto API needed, so it runs unchanged in browsers).
 */

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b] as const;

/** FNV-1a over UTF-16 code units with a per-lane seed, finished with a murmur3-style avalanche. */
function lane(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The id of a factor: 32 hex characters, derived from `parts` (identity fields and the dataset version).
 *
 * @example
 * ```ts
 * factorId(['ccf', '2024.03', 'cpu', 'aws', 'us_east_1', '2022']); // same string on every machine
 * ```
 */
export function factorId(parts: ReadonlyArray<string | number>): string {
  const text = parts.join('\u001f');
  return SEEDS.map((seed) => lane(text, seed)).join('');
}
