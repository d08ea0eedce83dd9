import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { factorId, factorIdWithLast } from '../../src/core/factor-id';

const HEX_ID = /^[0-9a-f]{32}$/;

describe('factorId', () => {
  it('is a known value for a fixed input (regression pin)', () => {
    // Regression pin: computed once from the implementation when this test was written. The id is part of every
    // estimate, so a change here changes every published factor id; change the pin only together with a changeset.
    expect(factorId(['ccf', '2024.03', 'cpu', 'aws', 'us_east_1', '2022'])).toBe(
      '9dd15211e8db8b9b9e9d3b1801a3d834',
    );
  });

  it('is 32 lowercase hex characters for any input', () => {
    for (const parts of [[], [''], ['a'], [2022], ['ü', '😀', 'x'.repeat(10_000)]]) {
      expect(factorId(parts)).toMatch(HEX_ID);
    }
  });

  it('is the same for the same input and differs for a different one', () => {
    const base = ['ccf', '2024.03', 'cpu', 'aws', 'us_east_1', 2022];
    expect(factorId([...base])).toBe(factorId(base));
    const variants = [
      ['ccf', '2024.03', 'cpu', 'aws', 'us_east_1', 2023],
      ['ccf', '2024.03', 'cpu', 'aws', 'us_east_2', 2022],
      ['ccf', '2024.04', 'cpu', 'aws', 'us_east_1', 2022],
      ['ccf', '2024.03', 'memory', 'aws', 'us_east_1', 2022],
      ['ccf', '2024.03', 'cpu', 'us_east_1', 'aws', 2022], // order matters
      ['ccf', '2024.03', 'cpu', 'aws', 'us_east_1'],
      ['ccf2024.03', 'cpu', 'aws', 'us_east_1', 2022], // part boundaries matter
    ];
    const ids = new Set([factorId(base), ...variants.map((parts) => factorId(parts))]);
    expect(ids.size).toBe(variants.length + 1);
  });

  it('has no collisions over many similar inputs', () => {
    const ids = new Set<string>();
    for (let region = 0; region < 200; region++) {
      for (let year = 2015; year < 2030; year++) ids.add(factorId(['ds', 'v1', `region_${region}`, year]));
    }
    expect(ids.size).toBe(200 * 15);
  });
});

describe('factorIdWithLast', () => {
  it('is factorId of the parts and the last part, for any parts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.integer()), { maxLength: 6 }),
        fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.double({ noNaN: true })),
        (parts, last) => {
          expect(factorIdWithLast(parts)(last)).toBe(factorId([...parts, last]));
        },
      ),
      { numRuns: 5_000 },
    );
    expect(factorIdWithLast(['ccf', '2024.03', 'cpu', 'aws', 'us_east_1'])('2022')).toBe(
      '9dd15211e8db8b9b9e9d3b1801a3d834',
    );
  });
});
