import fc from 'fast-check';
import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { allowedEdits, closestSpellings, editDistance, spellingKey } from '../../src/core/spelling';

/** "Did you mean" by edit distance (fastest-levenshtein, with a neighbour swap as one edit). */

describe('editDistance', () => {
  it.each([
    ['eru', 'eur', 1], // swap
    ['uecentral1', 'eucentral1', 1], // swap
    ['eru', 'ern', 1], // substitution
    ['8621', '8620', 1],
    ['171', '1701', 1], // insertion
    ['abc', 'abc', 0],
    ['abc', 'cab', 2], // not one neighbour swap
    ['', 'abc', 3],
  ])('%s → %s: %i', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
    expect(editDistance(b, a)).toBe(edits);
  });

  it('is Levenshtein’s distance, less one for exactly one neighbour swap', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const edits = editDistance(a, b);
        expect(edits).toBeLessThanOrEqual(distance(a, b));
        expect(edits).toBeGreaterThanOrEqual(distance(a, b) - 1);
        expect(edits === 0).toBe(a === b);
      }),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 2, maxLength: 12 }), fc.nat(), (text, at) => {
        const index = at % (text.length - 1);
        const swapped = text.slice(0, index) + text[index + 1] + text[index] + text.slice(index + 2);
        expect(editDistance(text, swapped)).toBe(swapped === text ? 0 : 1);
      }),
    );
  });
});

describe('closestSpellings', () => {
  it('finds a candidate again from any spelling with its case or separators changed, first', () => {
    const candidates = ['eu-central-1', 'eu-west-1', 'us-east-1', 'ap-south-1', 'Standard_D2s_v3'];
    fc.assert(
      fc.property(fc.constantFrom(...candidates), fc.boolean(), (candidate, upper) => {
        const spelling = (upper ? candidate.toUpperCase() : candidate).replaceAll('-', '_');
        expect(closestSpellings(candidates, spelling)[0]).toBe(candidate);
      }),
    );
  });

  it('suggests only within the allowance, at most `limit`, closest first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { maxLength: 30 }),
        fc.stringMatching(/^[a-z0-9]{1,10}$/),
        fc.integer({ min: 1, max: 5 }),
        (candidates, wanted, limit) => {
          const found = closestSpellings(candidates, wanted, spellingKey, limit);
          expect(found.length).toBeLessThanOrEqual(limit);
          const edits = found.map((candidate) => editDistance(candidate, wanted));
          for (const value of edits) expect(value).toBeLessThanOrEqual(allowedEdits(wanted.length));
          expect(edits).toEqual([...edits].sort((a, b) => a - b));
          // Nothing left out is closer than the last one given.
          const worst =
            edits.length === limit ? (edits[edits.length - 1] as number) : allowedEdits(wanted.length);
          for (const candidate of candidates)
            if (!found.includes(candidate))
              expect(editDistance(candidate, wanted)).toBeGreaterThanOrEqual(worst);
        },
      ),
    );
  });

  it('prefers a swap of the same letters, then a longer shared prefix', () => {
    expect(closestSpellings(['ern', 'mru', 'eur'], 'eru')).toEqual(['eur', 'ern', 'mru']);
    expect(closestSpellings(['xbcd', 'abcx'], 'abcd')).toEqual(['abcx', 'xbcd']);
  });

  it('suggests nothing for an empty spelling or one close to nothing', () => {
    expect(closestSpellings(['eur'], '')).toEqual([]);
    expect(closestSpellings(['us_east_1'], 'zz')).toEqual([]);
  });
});
