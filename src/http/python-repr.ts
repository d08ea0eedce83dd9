/**
 * The text form of a list of strings as the hosted API shows it in the per-resource cloud endpoints: Python's
 * `repr()` of a list, e.g. `['notable_methodological_variance']`, `[]`.
 */

/** Python's `repr()` of one string: single quotes unless the text holds a single quote and no double quote. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = '';
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (character === '\\') body += '\\\\';
    else if (character === quote) body += `\\${quote}`;
    else if (character === '\n') body += '\\n';
    else if (character === '\r') body += '\\r';
    else if (character === '\t') body += '\\t';
    // Python escapes C0, DEL and C1 controls and the non-breaking space as \xhh.
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0))
      body += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code === 0x2028 || code === 0x2029) body += `\\u${code.toString(16)}`;
    else body += character;
  }
  return quote + body + quote;
}

/** Python's `repr()` of a list of strings: `['a', 'b']`. */
export function pythonListRepr(values: readonly string[]): string {
  return `[${values.map(pythonStringRepr).join(', ')}]`;
}
