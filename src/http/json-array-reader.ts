/**
 * A large batch body parsed a group of elements at a time, so that parsing 10 MB of JSON lets other requests in
 * between groups instead of holding the event loop in one `JSON.parse`. Only the happy path is sliced: anything
 * this reader is not sure of goes back to one `JSON.parse` of the whole text, so a value, and an error's message,
 * are always exactly `JSON.parse`'s.
 */

/** Characters of elements parsed in one `JSON.parse` (plus one element). */
const GROUP_CHARACTERS = 1 << 15;

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const RETURN = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Past the JSON whitespace (RFC 8259: space, tab, line feed, carriage return) from `at`. */
function skipSpace(text: string, at: number): number {
  let index = at;
  for (;;) {
    const code = text.charCodeAt(index);
    if (code !== SPACE && code !== TAB && code !== LINE_FEED && code !== RETURN) return index;
    index++;
  }
}

/** Just past the string whose opening quote is at `at`, or -1 when it never closes. */
function stringEnd(text: string, at: number): number {
  let quote = at;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/**
 * The elements of `group` (the text between two of the top-level array's commas, or its brackets), which the
 * scan counted as `count`; undefined unless `JSON.parse` reads exactly that many there. An empty or malformed
 * group is caught here: then the whole text is not a well-formed array either, and its caller's one `JSON.parse`
 * gives the error.
 */
function parseGroup(group: string, count: number): unknown[] | undefined {
  try {
    const elements = JSON.parse(`[${group}]`) as unknown[];
    return elements.length === count ? elements : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value of `text` when it is a JSON array, parsed a group of about 32,768 characters at a time with
 * `pause()` awaited (when it returns a promise) between groups (`groupCharacters`: for tests); `undefined` when the text is anything else, or
 * not sure to be well-formed, for the caller to `JSON.parse` whole. The elements are those `JSON.parse(text)`
 * gives: the text is `[` g₁ `,` g₂ … `]` between whitespace, and each group parses as a non-empty list of exactly
 * the values it holds in the whole.
 *
 * @example
 * ```ts
 * await parseArrayInGroups('[{"a":1}, [2, "]"]]', () => undefined); // [{ a: 1 }, [2, ']']]
 * await parseArrayInGroups('[1,]', () => undefined); // undefined: JSON.parse gives the error
 * ```
 */
export async function parseArrayInGroups(
  text: string,
  pause: () => Promise<void> | undefined,
  groupCharacters = GROUP_CHARACTERS,
): Promise<unknown[] | undefined> {
  const open = skipSpace(text, 0);
  if (text.charCodeAt(open) !== OPEN_ARRAY) return undefined;
  const elements: unknown[] = [];
  let groupStart = open + 1;
  let count = 1;
  let depth = 0;
  for (let index = groupStart; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      const end = stringEnd(text, index);
      if (end < 0) return undefined;
      index = end - 1;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) depth++;
    else if (code === CLOSE_OBJECT || (code === CLOSE_ARRAY && depth > 0)) {
      if (depth === 0) return undefined;
      depth--;
    } else if (code === CLOSE_ARRAY) {
      // The top-level array closes: its last group, then nothing but whitespace.
      if (skipSpace(text, index + 1) !== text.length) return undefined;
      if (skipSpace(text, groupStart) === index && elements.length === 0) return undefined; // `[]`: JSON.parse
      const last = parseGroup(text.slice(groupStart, index), count);
      if (last === undefined) return undefined;
      for (const element of last) elements.push(element);
      return elements;
    } else if (code === COMMA && depth === 0) {
      if (index - groupStart < groupCharacters) {
        count++;
        continue;
      }
      const group = parseGroup(text.slice(groupStart, index), count);
      if (group === undefined) return undefined;
      for (const element of group) elements.push(element);
      groupStart = index + 1;
      count = 1;
      const waiting = pause();
      if (waiting !== undefined) await waiting;
    }
  }
  return undefined; // the array never closes
}
