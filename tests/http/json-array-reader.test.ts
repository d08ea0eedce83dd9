import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArrayInGroups } from '../../src/http/json-array-reader';
import { createHandler } from '../../src/http/index';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * Issue 39 item 5: a large batch body is parsed a group of elements at a time, so one 10 MB body does not hold
 * the event loop; the value, and every error, must stay exactly JSON.parse's.
 */

const never = () => undefined;
/** What JSON.parse says of a text: its value, or its error's message. */
const parsed = (text: string): { value: unknown } | { error: string } => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

// JSON texts of arrays, with strings full of the characters the scanner watches: quotes, backslashes, brackets.
const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', 'a', ' ', 'é', '\n') });
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    tricky,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  ),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie('node'), { maxKeys: 4 }),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
})).node;
const spacing = fc.constantFrom('', ' ', '\n\t', '\r\n  ');
const arrayText = fc
  .tuple(fc.array(value, { minLength: 1, maxLength: 12 }), spacing, spacing)
  .map(
    ([elements, before, after]) =>
      `${before}${JSON.stringify(elements, null, before.length > 1 ? 1 : 0)}${after}`,
  );

describe('a large array parsed in groups (issue 39 item 5)', () => {
  it("gives JSON.parse's value for any array, whatever the group size", async () => {
    await fc.assert(
      fc.asyncProperty(arrayText, fc.integer({ min: 1, max: 40 }), async (text, group) => {
        expect(await parseArrayInGroups(text, never, group)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('never gives a value JSON.parse would not: a damaged text is left to JSON.parse', async () => {
    const damaged = fc
      .tuple(arrayText, fc.nat(), fc.constantFrom('', ',', ']', '[', '"', '\\', '}', 'x', ',,'))
      .map(([text, at, insert]) => {
        const index = at % (text.length + 1);
        return text.slice(0, index) + insert + text.slice(index + 1);
      });
    await fc.assert(
      fc.asyncProperty(damaged, fc.integer({ min: 1, max: 40 }), async (text, group) => {
        const result = await parseArrayInGroups(text, never, group);
        if (result !== undefined) expect(parsed(text)).toEqual({ value: result });
      }),
    );
  });

  it.each([
    ['[1,,2]'],
    ['[1,2,]'],
    ['[,1]'],
    ['[1 2]'],
    ['[1,2]x'],
    ['[1,2'],
    ['["a\\"]'],
    ['[{"a":1],2]'],
    ['[1,2]]'],
    ['{"a":[1,2]}'],
    ['[]'],
    [' [ ] '],
  ])('%j is left to JSON.parse', async (text) => {
    expect(await parseArrayInGroups(text, never, 1)).toBeUndefined();
  });

  it('awaits the pause between groups', async () => {
    let pauses = 0;
    const text = JSON.stringify(
      Array.from({ length: 10 }, (_, index) => ({ index, name: 'x'.repeat(index) })),
    );
    const result = await parseArrayInGroups(
      text,
      () => {
        pauses++;
        return Promise.resolve();
      },
      1,
    );
    expect(result).toEqual(JSON.parse(text));
    expect(pauses).toBe(9); // a group per element: a pause after each but the last
  });

  // Over 64 KB, the server reads a batch body in groups: its statuses, codes and messages must stay JSON.parse's.
  describe('through the handler, for a body over 64 KB', () => {
    const handler = createHandler({
      datasets: defaultDatasets,
      maxBatchSize: 10_000,
      maxBodyBytes: 10_000_000,
    });
    const element = '{"cpu_count":1,"region":"us_east_1","duration":1}';
    const elements = Array.from({ length: 2_000 }, () => element).join(',');
    const post = async (body: string | Uint8Array<ArrayBuffer>) => {
      const response = await handler(
        new Request('http://localhost/compute/aws/cpu/batch', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('a valid body is answered as a whole one is (2,000 elements, 100,001 bytes)', async () => {
      const text = `[${elements}]`;
      expect(text.length).toBe(100_001);
      const { status, body } = await post(text);
      expect(status).toBe(200);
      expect(body).toHaveLength(2_000);
    });

    it.each([
      ['a trailing comma', `[${elements},]`],
      ['a doubled comma', `[${elements.replace('},{', '},,{')}]`],
      ['no closing bracket', `[${elements}`],
      ['text after the array', `[${elements}] x`],
      ['a bad escape in the last element', `[${elements},"\\q"]`],
      ['an object', `{"a":[${elements}]}`],
    ])("%s: 400 invalid_json with JSON.parse's own message", async (_name, text) => {
      const { status, body } = await post(text);
      const expected = parsed(text);
      expect(status).toBe(400);
      if ('error' in expected) {
        expect(body.error_code).toBe('invalid_json');
        expect(body.message).toBe(`The request body is not valid JSON: ${expected.error}`);
      } else expect(body.error_code).toBe('invalid_request'); // the object: valid JSON, not a batch
    });

    it('bytes that are not UTF-8 past the first megabyte: the same message as a small body', async () => {
      const bytes = new TextEncoder().encode(`["${'a'.repeat(1_100_000)}"]`);
      bytes[1_050_000] = 0xff;
      const { status, body } = await post(bytes);
      expect(status).toBe(400);
      expect(body.message).toBe('The request body is not valid UTF-8.');
    });

    it('a body of whitespace only: the empty-body message', async () => {
      const { status, body } = await post(' '.repeat(70_000));
      expect(status).toBe(400);
      expect(body.message).toBe('The request body is empty; send a JSON value.');
    });
  });
});
