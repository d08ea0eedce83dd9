import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approximateProductWith, shortestPair } from '../../src/core/double-double';
import { shortProduct } from '../../src/core/short-product';
import {
  DATA_UNITS,
  DURATION_UNITS,
  gigabytesRatio,
  hoursRatio,
  type UnitRatio,
  unitRatio,
} from '../../src/core/units';
import { Reference } from './big-reference';

/**
 * Short products (issue 40 item 2) against big.js: a request's activity held as a whole coefficient × 10^-places is
 * the double Number() reads from the exact decimal, and the shortest decimal it remembers for that double is the one
 * the estimate's co2e would read back.
 */
const ONE = unitRatio(1);
/** The exact ratio's value, as big.js computes it. */
const ratioOf = ({ times, per }: UnitRatio) => new Reference(times).div(per);
/** A quantity as requests state it: up to 6 places, from 0.000001 to 10^8. */
const quantity = fc
  .tuple(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 0, max: 6 }))
  .map(([coefficient, places]) => coefficient / 10 ** places);
/** Quantities as the yardstick's requests state them (512.125 GB, 1999.75 h): 5 digits, up to 3 places. */
const requestQuantity = fc
  .tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 3 }))
  .map(([coefficient, places]) => coefficient / 10 ** places);
const durationRatio = fc.constantFrom(...DURATION_UNITS).map(hoursRatio);
const dataRatio = fc.constantFrom(...DATA_UNITS).map(gigabytesRatio);
const per = fc.constantFrom(ONE, unitRatio(1, 1000));

describe('shortProduct', () => {
  // Worked by hand: 4 CPUs × 90 min = 6 CPU-hours; 12.5 GB × 36 h = 450 GB-hours; 7200 s = 2 h; 16 GiB =
  // 17.179869184 GB, × 24 h × 2 = 824.633720832; 2 TB × 720 h / 1000 = 1440 TB-hours; 1 s = 1/3600 h, no decimal.
  it.each([
    [90, hoursRatio('min'), 4, ONE, 1, ONE, 6],
    [12.5, gigabytesRatio('GB'), 36, hoursRatio('hour'), 1, ONE, 450],
    [7200, hoursRatio('sec'), 1, ONE, 1, ONE, 2],
    [16, gigabytesRatio('GiB'), 24, hoursRatio('hour'), 2, ONE, 824.633720832],
    [2, gigabytesRatio('TB'), 720, hoursRatio('hour'), 1, unitRatio(1, 1000), 1440],
    [0.1, ONE, 3, ONE, 1, ONE, 0.3],
    // 1 s = 1/3600 h: not a decimal, but 1 / 3600 is one correctly rounded division of whole doubles.
    [1, hoursRatio('sec'), 1, ONE, 1, ONE, 1 / 3600],
    // 90.5 min × 3 = 271.5 / 60 h = 4.525 (a decimal again); 90.1 min = 901 / 600 h.
    [90.5, hoursRatio('min'), 3, ONE, 1, ONE, 4.525],
    [90.1, hoursRatio('min'), 1, ONE, 1, ONE, 901 / 600],
  ])('%# gives the exact product as a double', (a, aRatio, b, bRatio, c, perRatio, expected) => {
    expect(shortProduct(a, aRatio, b, bRatio, c, perRatio)).toBe(expected);
  });

  it.each([
    ['zero', 0, ONE, 1],
    ['a quantity with 17 digits', 0.1 + 0.2, ONE, 1],
    ['a coefficient past 2^53', 123456.789, gigabytesRatio('PiB'), 98765.4321],
  ])('declines %s (NaN: the double-double path takes it)', (_, a, aRatio, b) => {
    expect(shortProduct(a, aRatio, b, ONE, 1, ONE)).toBeNaN();
  });

  it('splits each ratio into its factors 2 and 5 and the rest', () => {
    expect(unitRatio(1, 60)).toEqual({ times: 1, per: 60, residue: 3, scale: 5, shift: 2 });
    expect(unitRatio(1, 3_600_000)).toEqual({ times: 1, per: 3_600_000, residue: 9, scale: 25, shift: 7 });
    expect(unitRatio(24)).toEqual({ times: 24, per: 1, residue: 1, scale: 1, shift: 0 });
  });

  it('is the double Number() reads from the exact product wherever it decides one', () => {
    let decided = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        quantity,
        dataRatio,
        quantity,
        durationRatio,
        fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 5 }), quantity),
        per,
        (a, aRatio, b, bRatio, c, perRatio) => {
          runs++;
          const value = shortProduct(a, aRatio, b, bRatio, c, perRatio);
          const exact = new Reference(a)
            .times(ratioOf(aRatio))
            .times(b)
            .times(ratioOf(bRatio))
            .times(c)
            .div(perRatio.per);
          if (Number.isNaN(value)) {
            // Declined only where no short decimal can hold it: a quotient that does not end within 40 places, or
            // a coefficient past the whole doubles.
            return;
          }
          decided++;
          expect(value).toBe(Number(exact.toString()));
        },
      ),
      { numRuns: 20_000 },
    );
    // Binary units, quotients by 3 and 9, and coefficients past 2^53 decline (about 9 in 10 of these wide draws).
    expect(decided / runs).toBeGreaterThan(0.05);
  });

  it('decides every request in decimal units and whole hours with quantities of 5 digits', () => {
    fc.assert(
      fc.property(
        requestQuantity,
        fc.constantFrom('KB', 'MB', 'GB', 'TB').map(gigabytesRatio),
        requestQuantity,
        fc.constantFrom(hoursRatio('hour'), hoursRatio('day')),
        fc.integer({ min: 1, max: 5 }),
        per,
        (a, aRatio, b, bRatio, c, perRatio) => {
          expect(shortProduct(a, aRatio, b, bRatio, c, perRatio)).not.toBeNaN();
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("leaves the activity's shortest decimal for its co2e: the product with a factor is the exact one", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        requestQuantity,
        requestQuantity,
        fc.constantFrom(hoursRatio('hour'), hoursRatio('day')),
        fc.double({ min: 1e-4, max: 1e3, noNaN: true }),
        (a, b, bRatio, factor) => {
          const value = shortProduct(a, ONE, b, bRatio, 1, ONE);
          const pair = shortestPair(factor);
          if (Number.isNaN(value) || pair === undefined) return;
          const co2e = approximateProductWith(value, pair[0], pair[1]);
          if (co2e === undefined) return;
          checked++;
          // co2e is the published activity's shortest decimal × the factor's, rounded once.
          expect(co2e).toBe(Number(new Reference(String(value)).times(String(factor)).toString()));
        },
      ),
      { numRuns: 20_000 },
    );
    expect(checked).toBeGreaterThan(19_000);
  });
});
