/**
 * Stable factor ids: a 128-bit hex digest of the factor's identity and its dataset's version, the same on every
 * machine and runtime (no crypto API needed, so it runs unchanged in browsers).
 */

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b] as const;
const SEPARATOR = '\u001f';

/** FNV-1a over UTF-16 code units, continuing from `hash`. */
function fnv(text: string, hash: number): number {
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/** The murmur3-style avalanche that finishes a lane, as 8 hex characters. */
function finish(hash: number): string {
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
  const text = parts.join(SEPARATOR);
  // The four lanes in one pass over the text (each exactly fnv(text, seed)): a new selection's metadata makes one.
  let [a, b, c, d] = SEEDS as readonly number[] as [number, number, number, number];
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193);
    c = Math.imul(c ^ unit, 0x01000193);
    d = Math.imul(d ^ unit, 0x01000193);
  }
  return finish(a) + finish(b) + finish(c) + finish(d);
}

/**
 * {@link factorId} of `[...parts, last]` for many values of `last` (factors that differ in one part, such as the CPU
 * utilisation): the shared parts are hashed once, each id then hashes only its last part.
 *
 * @example
 * ```ts
 * const idAt = factorIdWithLast(['ccf', '2024.03', 'cpu']);
 * idAt('u=0.5') === factorId(['ccf', '2024.03', 'cpu', 'u=0.5']); // true
 * ```
 */
export function factorIdWithLast(parts: ReadonlyArray<string | number>): (last: string | number) => string {
  // An empty prefix joins to nothing: the last part is then the whole text, with no separator before it.
  const prefix = parts.length === 0 ? '' : `${parts.join(SEPARATOR)}${SEPARATOR}`;
  const [a, b, c, d] = SEEDS.map((seed) => fnv(prefix, seed >>> 0)) as [number, number, number, number];
  return (last) => {
    const text = String(last);
    return finish(fnv(text, a)) + finish(fnv(text, b)) + finish(fnv(text, c)) + finish(fnv(text, d));
  };
}
