import { describe, expect, it } from 'vitest';
import { batchWriter, JOINED_KEPT, joinedPiecesMade } from '../../src/http/json-writer';

/**
 * The byte writer joins pieces that follow each other twice or more into one, kept with the first: answers of the
 * same shape then copy one piece where they copied several. Varied answers make ever more of them, so their number
 * is capped: a long-running server must not grow by them.
 */

const written = (results: readonly unknown[]) => {
  const writer = batchWriter({ wire: true, maxLength: 1e9 });
  writer.add(results);
  const bytes = writer.end();
  writer.release();
  return Buffer.concat(bytes as Uint8Array[]).toString();
};

describe('joined pieces', () => {
  it('are made for members that follow each other again', () => {
    const before = joinedPiecesMade();
    const factor = Object.freeze({ name: 'a factor', id: 'f1' });
    const gases = Object.freeze({ co2e_total: 1 });
    written([{ factor, gases }]);
    written([{ factor, gases }]);
    expect(joinedPiecesMade()).toBeGreaterThan(before);
  });

  it(`are made at most ${JOINED_KEPT} times, however varied the answers`, () => {
    const results = Array.from({ length: JOINED_KEPT + 100 }, (_, index) => ({
      factor: Object.freeze({ name: `factor ${index}` }),
      gases: Object.freeze({ co2e_total: index }),
    }));
    for (const result of results) {
      const text = written([result, result]);
      expect(JSON.parse(text)).toEqual([result, result]);
    }
    expect(joinedPiecesMade()).toBeLessThanOrEqual(JOINED_KEPT);
  });
});
