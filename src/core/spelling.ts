import { distance } from 'fastest-levenshtein';

/** How many leading characters two strings share: the tie-break between equally distant suggestions. */
export function commonPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** Whether `b` is `a` with one pair of neighbouring characters swapped (`eru` / `eur`). */
function isAdjacentSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let first = -1;
  for (let index = 0; index < a.length; index++) {
    if (a[index] === b[index]) continue;
    if (first !== -1)
      return (
        index === first + 1 &&
        a[first] === b[index] &&
        a[index] === b[first] &&
        a.slice(index + 1) === b.slice(index + 1)
      );
    first = index;
  }
  return false;
}

/**
 * The edit distance between two strings: Levenshtein's (insertions, deletions, substitutions; computed by
 * fastest-levenshtein), with one swap of neighbouring characters counting as one edit, the commonest typo.
 *
 * @example
 * ```ts
 * editDistance('eru', 'eur'); // 1
 * editDistance('uecentral1', 'eucentral1'); // 1
 * ```
 */
export function editDistance(a: string, b: string): number {
  const levenshtein = distance(a, b);
  return levenshtein === 2 && isAdjacentSwap(a, b) ? 1 : levenshtein;
}

const sortedLetters = (text: string): string => [...text].sort().join('');

/** The most edits a suggestion may be from a spelling of this length: 1 up to 4 characters, 2 up to 8, then a quarter. */
export const allowedEdits = (length: number): number =>
  length <= 4 ? 1 : length <= 8 ? 2 : Math.ceil(length / 4);

/** Compares spellings without case, word separators (`-`, `_`, `.`, space) or surrounding space. */
export const spellingKey = (spelling: string): string =>
  spelling
    .trim()
    .toLowerCase()
    .replace(/[-_. ]/g, '');

/**
 * Up to `limit` candidates closest to `wanted` by {@link editDistance} between their keys, closest first (ties: the
 * longer shared prefix, then the candidates' order); only those within {@link allowedEdits} of the wanted key's
 * length, so a spelling nothing is close to gets no suggestion. `key` defaults to {@link spellingKey}.
 *
 * @example
 * ```ts
 * closestSpellings(['eu_central_1', 'eu_west_1', 'us_east_1'], 'ue_central_1'); // ['eu_central_1']
 * closestSpellings(['eur', 'usd', 'gbp'], 'eru'); // ['eur']
 * ```
 */
export function closestSpellings(
  candidates: readonly string[],
  wanted: string,
  key: (spelling: string) => string = spellingKey,
  limit = 3,
): string[] {
  const target = key(wanted);
  if (target === '') return [];
  const allowed = allowedEdits(target.length);
  const letters = sortedLetters(target);
  const close: Array<{ candidate: string; edits: number; anagram: boolean; shared: number; order: number }> =
    [];
  const seen = new Set<string>();
  candidates.forEach((candidate, order) => {
    const candidateKey = key(candidate);
    // Lengths further apart than the allowance cannot be within it: skip the distance (most candidates).
    if (Math.abs(candidateKey.length - target.length) > allowed || seen.has(candidate)) return;
    const edits = editDistance(candidateKey, target);
    if (edits > allowed) return;
    seen.add(candidate);
    close.push({
      candidate,
      edits,
      anagram: sortedLetters(candidateKey) === letters,
      shared: commonPrefixLength(candidateKey, target),
      order,
    });
  });
  return close
    .sort(
      (a, b) =>
        a.edits - b.edits ||
        Number(b.anagram) - Number(a.anagram) ||
        b.shared - a.shared ||
        a.order - b.order,
    )
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
