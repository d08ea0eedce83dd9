import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../../src/cli/formats/jsonl/reader';
import { cli, parseJsonl, tempFile } from './harness';

/**
 * A JSON Lines record that gives a key twice: JSON.parse keeps the last value without a word, so `"money":10 …
 * "money":20` was estimated for 20. As a CSV header naming a column twice is refused, the record fails alone.
 */

const SPEND =
  '"classification_type":"isic4","classification_code":"62","spend_year":2023,"spend_region":"GB"';

describe('parseJsonLine: a key given twice', () => {
  it.each([
    ['{"money":10,"money":20}', 'money'],
    ['{"money":10,"money":10}', 'money'],
    ['{ "money" : 10 , "money"\t:20 }', 'money'],
    ['{"money":10,"mon\\u0065y":20}', 'money'],
    [
      '{"activity":{"classification_code":"62","classification_code":"63"},"money":1}',
      'activity.classification_code',
    ],
    ['{"tags":[{"a":1},{"a":2,"a":3}]}', 'tags[].a'],
    ['{"x":[1,[2]],"y":{"z":[{"q":1,"q":2}]}}', 'y.z[].q'],
  ])('%s fails, naming %s', (text, key) => {
    expect(parseJsonLine(text, 4)).toEqual({
      line: 4,
      error: `line 4: the record gives the key '${key}' twice.`,
    });
  });

  it.each([
    [
      'the same key in sibling objects',
      '{"a":{"x":1},"b":{"x":2},"x":3}',
      { a: { x: 1 }, b: { x: 2 }, x: 3 },
    ],
    [
      'colons after quotes inside strings',
      '{"note":"say \\":\\" twice: \\":","when":"10:00"}',
      { note: 'say ":" twice: ":', when: '10:00' },
    ],
    ['a key that is a prefix of another', '{"money":1,"money_unit":"gbp"}', { money: 1, money_unit: 'gbp' }],
    ['an escaped backslash before a key quote', '{"path":"C:\\\\","x":1}', { path: 'C:\\', x: 1 }],
  ])('%s: read as before', (_, text, values) => {
    expect(parseJsonLine(text, 2)).toEqual({ line: 2, values });
  });
});

describe('spend JSON Lines: a record that gives a key twice', () => {
  it('fails alone with invalid_request naming the key; the others are answered', async () => {
    const lines = [
      `{"id":1,${SPEND},"money":10,"money_unit":"gbp"}`,
      `{"id":2,${SPEND},"money":10,"money_unit":"gbp","money":20}`,
      `{"id":3,${SPEND},"money":20,"money_unit":"gbp"}`,
    ];
    const run = await cli(['spend', tempFile('twice.jsonl', `${lines.join('\n')}\n`)]);
    expect(run.code).toBe(1);
    const rows = parseJsonl(run.stdout);
    expect(rows.map((row) => row.error_code ?? null)).toEqual([null, 'invalid_request', null]);
    expect(rows[1]?.error_message).toBe("line 2: the record gives the key 'money' twice.");
    expect(rows[2]?.co2e).toBeGreaterThan(rows[0]?.co2e);
  });
});
