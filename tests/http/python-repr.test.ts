import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonListRepr, pythonStringRepr } from '../../src/http/python-repr';

/**
 * The text form of data_quality_flags is Python's repr() of the list, as the hosted API shows it. Goldens are
 * what CPython 3 prints for these values; the property decodes the text as a Python literal and gets the input back.
 */

describe('pythonListRepr goldens (CPython 3 repr)', () => {
  it.each([
    [[], '[]'],
    [['notable_methodological_variance'], "['notable_methodological_variance']"],
    [['a', 'b'], "['a', 'b']"],
    [["it's"], '["it\'s"]'],
    [['say "hi"'], '[\'say "hi"\']'],
    [['both \' and "'], "['both \\' and \"']"],
    [['back\\slash'], "['back\\\\slash']"],
    [['tab\there\nnew'], "['tab\\there\\nnew']"],
    [['\u0000\u007f\u00a0'], "['\\x00\\x7f\\xa0']"],
    [['café ✓'], "['café ✓']"],
  ])('%j → %s', (values, expected) => {
    expect(pythonListRepr(values)).toBe(expected);
  });
});

/** Reads a Python string literal (the subset repr produces). */
function decodePythonString(literal: string): string {
  const body = literal.slice(1, -1);
  return body.replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|.)/g, (_, escape: string) => {
    if (escape.startsWith('x') || escape.startsWith('u'))
      return String.fromCodePoint(parseInt(escape.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[escape] ?? escape;
  });
}

describe('pythonStringRepr properties', () => {
  it('decodes back to the input, quoted with one kind of quote that is escaped inside', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const literal = pythonStringRepr(text);
        const quote = literal[0] as string;
        expect(["'", '"']).toContain(quote);
        expect(literal.at(-1)).toBe(quote);
        expect(decodePythonString(literal)).toBe(text);
        // The quote character never appears unescaped inside
        expect(literal.slice(1, -1).replace(/\\./g, '')).not.toContain(quote);
      }),
      { numRuns: 500 },
    );
  });

  it('identifier-like flags are simply single-quoted', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z_]{1,30}$/), { maxLength: 5 }), (flags) => {
        expect(pythonListRepr(flags)).toBe(`[${flags.map((flag) => `'${flag}'`).join(', ')}]`);
      }),
    );
  });
});
