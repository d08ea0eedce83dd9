/**
 * `String(value)`: a number's shortest round-trip decimal text (`0.1`, `1e+21`, `1e-7`), as a string that V8
 * allocates in the young generation.
 *
 * V8 keeps the text that `String`, `toString` and template literals give a number in its number-string cache, and so
 * allocates that text straight in the old generation, where only a full collection reclaims it. The engine turns
 * numbers into decimals (and a file run turns results into CSV cells) millions of times, each text garbage at once:
 * through `String` they filled the old generation. `JSON.stringify` writes a finite number by the same rule (ECMA-262
 * SerializeJSONProperty: ToString) without the cache; NaN and the infinities, which it writes as `null`, go through
 * `String`.
 *
 * @example
 * ```ts
 * numberText(0.1); // '0.1'
 * numberText(4.1771632e-10); // '4.1771632e-10'
 * numberText(-0); // '0'
 * numberText(Number.NaN); // 'NaN'
 * ```
 */
export const numberText = (value: number): string =>
  Number.isFinite(value) ? JSON.stringify(value) : String(value);
