import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordText } from '../../src/cli/formats/records';
import { packRecords, unpackRecords } from '../../src/cli/pipeline/packed-records';

/** A chunk's records as the CSV and JSON Lines readers make them: mostly plain, some broken or cut. */
const recordArbitrary: fc.Arbitrary<RecordText> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ line: fc.nat(), text: fc.string({ unit: 'binary' }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ line: fc.nat(), error: fc.string(), salvage: fc.string({ unit: 'binary' }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ line: fc.nat(), error: fc.string(), fields: fc.array(fc.string()) }),
  },
  { weight: 1, arbitrary: fc.record({ line: fc.nat(), error: fc.string() }) },
);

describe('packRecords', () => {
  it('gives back equal records in their order, through a structured clone', () => {
    fc.assert(
      fc.property(fc.array(recordArbitrary, { maxLength: 60 }), (records) => {
        const packed = packRecords(records);
        expect(unpackRecords(structuredClone(packed, { transfer: [packed.lines.buffer] }))).toEqual(records);
      }),
    );
  });

  it('packs plain records as their texts and one buffer of lines, and keeps only the others as objects', () => {
    const records: RecordText[] = [
      { line: 2, text: 'a,1' },
      { line: 3, text: '' },
      { line: 4, error: 'line 4: the line is not valid UTF-8; save the file as UTF-8.', salvage: 'b,\uFFFD' },
      { line: 5, text: '"multi\nline",2' },
      { line: 7, text: 'ü,3' },
    ];
    const packed = packRecords(records);
    expect(packed.texts).toEqual(['a,1', '', '"multi\nline",2', 'ü,3']);
    expect([...packed.lines]).toEqual([2, 3, 4, 5, 7]);
    expect(packed.others).toEqual([[2, records[2]]]);
    expect(unpackRecords(packed)).toEqual(records);
  });

  it('packs an empty chunk', () => {
    const packed = packRecords([]);
    expect(packed.lines.length).toBe(0);
    expect(unpackRecords(packed)).toEqual([]);
  });
});
