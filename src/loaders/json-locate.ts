/**
 * Finds where a value sits in JSON text, by path, so that validation issues of a JSON table can name a line and
 * column. Only called for tables that failed validation; the text has already been parsed, so it is valid JSON.
 */
export function locateJson(text: string, path: readonly PropertyKey[]): number | undefined {
  let index = 0;
  const whitespace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index++;
  };
  const skipString = () => {
    index++; // opening quote
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index++; // closing quote
  };
  const readKey = (): string => {
    const start = index;
    skipString();
    return JSON.parse(text.slice(start, index)) as string;
  };
  const skipValue = () => {
    whitespace();
    const first = text[index];
    if (first === '"') return skipString();
    if (first !== '{' && first !== '[') {
      while (index < text.length && !',}] \t\n\r'.includes(text[index] as string)) index++;
      return;
    }
    let depth = 0;
    do {
      const char = text[index];
      if (char === '"') {
        skipString();
        continue;
      }
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') depth--;
      index++;
    } while (depth > 0 && index < text.length);
  };
  /** Moves past a separating comma, if any; true when the container continues. */
  const next = (close: string): boolean => {
    whitespace();
    if (text[index] === ',') {
      index++;
      return true;
    }
    return text[index] !== close && index < text.length;
  };

  whitespace();
  for (const key of path) {
    whitespace();
    if (text[index] === '{') {
      index++;
      for (;;) {
        whitespace();
        if (text[index] === '}' || index >= text.length) return undefined;
        const name = readKey();
        whitespace();
        index++; // colon
        whitespace();
        if (name === String(key)) break;
        skipValue();
        if (!next('}')) return undefined;
      }
    } else if (text[index] === '[') {
      index++;
      for (let position = 0; ; position++) {
        whitespace();
        if (text[index] === ']' || index >= text.length) return undefined;
        if (position === key) break;
        skipValue();
        if (!next(']')) return undefined;
      }
    } else {
      return undefined;
    }
  }
  whitespace();
  return index;
}

const JSON_NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON (RFC 8259 §7) forbids unescaped control characters in a string; the class names them to exclude them.
// eslint-disable-next-line no-control-regex
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * The offset of the first syntax error in text that `JSON.parse` refused, for engines whose message does not say
 * where (V8 reports `Unexpected token` without a position). Undefined if no error is found.
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let index = 0;
  const whitespace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index++;
  };
  const match = (pattern: RegExp): boolean => {
    pattern.lastIndex = index;
    if (!pattern.test(text)) return false;
    index = pattern.lastIndex;
    return true;
  };
  // Each returns false at the offending character, leaving `index` there.
  const value = (): boolean => {
    whitespace();
    const char = text[index];
    if (char === '{') return container('}', true);
    if (char === '[') return container(']', false);
    if (char === '"') return match(JSON_STRING);
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, index)) {
        index += literal.length;
        return true;
      }
    }
    return match(JSON_NUMBER);
  };
  const container = (close: string, object: boolean): boolean => {
    index++;
    whitespace();
    if (text[index] === close) {
      index++;
      return true;
    }
    for (;;) {
      if (object) {
        whitespace();
        if (!match(JSON_STRING)) return false;
        whitespace();
        if (text[index] !== ':') return false;
        index++;
      }
      if (!value()) return false;
      whitespace();
      if (text[index] === close) {
        index++;
        return true;
      }
      if (text[index] !== ',') return false;
      index++;
    }
  };
  if (!value()) return Math.min(index, text.length);
  whitespace();
  return index < text.length ? index : undefined;
}
