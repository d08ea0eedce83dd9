import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APPROXIMATION_BOUND,
  approximateProduct,
  dd,
  ddAdd,
  ddDivide,
  ddMul,
  decidedDouble,
  decides,
  decimalMagnitude,
  shortestDecimal,
} from '../../src/core/double-double';
import { Reference } from './big-reference';

/**
 * The double-double fast paths (issue 40 item 2) against big.js: every approximation within its stated bound of the
 * exact decimal, every decided rounding the double that Number() reads from the exact decimal's digits, and the
 * undecided cases left to the exact path rather than guessed.
 */
type Big = InstanceType<typeof Reference>;
/** The exact value of a double-double (each double's own exact binary value, as big.js reads its 17+ digits). */
const exactOf = (hi: number, lo: number): Big =>
  new Reference(exactText(hi)).plus(new Reference(exactText(lo)));
/** A double's exact binary value as a decimal string: m·2^e = m·5^−e·10^e for e < 0. */
function exactText(x: number): string {
  if (x === 0) return '0';
  let e = 0;
  let m = Math.abs(x);
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return `${x < 0 ? '-' : ''}${(BigInt(m) * 5n ** BigInt(-e)).toString()}e${e}`;
}
const relativeDistance = (approximate: Big, exact: Big): number =>
  // The difference is exact; its ratio to the value needs only a few digits.
  Math.abs(Number(approximate.minus(exact).toExponential(6)) / Number(exact.toExponential(6)));

/** Doubles from 2^-10 to 2^30 with uniformly drawn mantissas: mostly 16- and 17-digit decimals. */
const uniformDouble = fc
  .tuple(
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    fc.integer({ min: 0, max: 2 ** 21 - 1 }),
    fc.integer({ min: -10, max: 29 }),
  )
  .map(([high, low, exponent]) => (1 + (high * 2 ** 21 + low) / 2 ** 52) * 2 ** exponent);

/** Doubles of every length: short decimals, 16- and 17-digit ones, powers of two and ten, from 1e-8 to 1e16. */
const positive = fc.oneof(
  uniformDouble,
  fc.double({ min: 1e-8, max: 1e16, noNaN: true }).filter((x) => x > 0),
  fc
    .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 12 }))
    .map(([m, k]) => m / 10 ** k),
  fc.integer({ min: -26, max: 50 }).map((k) => 2 ** k),
  fc.integer({ min: -8, max: 15 }).map((k) => 10 ** k),
  fc.constantFrom(
    0.1,
    1 / 3,
    0.00000999999999999999,
    170597.26211294835,
    0.30000000000000004,
    9007199254740993,
    1e15 - 0.5,
  ),
);

/** The doubles just above and below a positive double. */
const nextUp = (x: number) => {
  const words = new Float64Array([x]);
  new BigUint64Array(words.buffer)[0]! += 1n;
  return words[0]!;
};
const nextDown = (x: number) => {
  const words = new Float64Array([x]);
  new BigUint64Array(words.buffer)[0]! -= 1n;
  return words[0]!;
};

describe('shortestDecimal', () => {
  it('is within 2^-100 of the decimal String() prints, or declines', () => {
    fc.assert(
      fc.property(positive, (x) => {
        if (!shortestDecimal(x)) return;
        expect(relativeDistance(exactOf(dd.hi, dd.lo), new Reference(String(x)))).toBeLessThan(2 ** -100);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads a value of three places or fewer as its shortest decimal m / 10^k, to the bit', () => {
    // Whatever the step that found it, the double-double is the one ddDivide gives for String()'s own digits.
    const fewPlaces = fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.double({ min: 1e-3, max: 2e12, noNaN: true }))
      .map(([places, x]) => Number(x.toFixed(places)))
      .filter((x) => x > 0 && !Number.isInteger(x));
    fc.assert(
      fc.property(fewPlaces, (x) => {
        expect(shortestDecimal(x)).toBe(true);
        const [hi, lo] = [dd.hi, dd.lo];
        const [whole, fraction = ''] = String(x).split('.');
        ddDivide(Number(`${whole}${fraction}`), 0, 10 ** fraction.length);
        expect([hi, lo]).toEqual([dd.hi, dd.lo]);
      }),
      { numRuns: 20_000 },
    );
  });

  it("finds the decimal magnitude from the exponent: the exact value's, one high only on a double nearest 10^-k below it", () => {
    const checkMagnitude = (x: number) => {
      // The exponent of x's exact decimal value (big.js keeps it as `e`).
      const exact = exactOf(x, 0).e;
      const power = Number(`1e${exact + 1}`);
      const nearestPowerBelow = x === power && exactOf(power, 0).lt(new Reference(`1e${exact + 1}`));
      expect(decimalMagnitude(x)).toBe(nearestPowerBelow ? exact + 1 : exact);
    };
    for (let k = -6; k <= 14; k++) {
      for (let steps = -3; steps <= 3; steps++) {
        let x = Number(`1e${k}`);
        for (let step = 0; step < Math.abs(steps); step++) x = steps > 0 ? nextUp(x) : nextDown(x);
        if (x > 1e-6 && x < 1e15) checkMagnitude(x);
      }
    }
    fc.assert(fc.property(fc.double({ min: 1.000001e-6, max: 9.99e14, noNaN: true }), checkMagnitude), {
      numRuns: 5_000,
    });
  });

  it('takes the doubles next to every power of ten in its range, where the magnitude from the exponent may be one off', () => {
    let tried = 0;
    let taken = 0;
    for (let k = -6; k <= 14; k++) {
      for (let steps = -60; steps <= 60; steps++) {
        let x = Number(`1e${k}`);
        for (let step = 0; step < Math.abs(steps); step++) x = steps > 0 ? nextUp(x) : nextDown(x);
        // Its range: above 10^-6 and below 10^15.
        if (!(x > 1e-6 && x < 1e15)) continue;
        tried++;
        if (!shortestDecimal(x)) continue;
        taken++;
        expect(relativeDistance(exactOf(dd.hi, dd.lo), new Reference(String(x)))).toBeLessThan(2 ** -100);
      }
    }
    expect(tried).toBeGreaterThan(2_400);
    // The few it declines are 17-digit decimals whose coefficient rounds up to the next power of ten.
    expect(taken / tried).toBeGreaterThan(0.99);
  });

  it('takes the usual 16- and 17-digit values, declines zero, negatives and powers of two', () => {
    expect(shortestDecimal(170597.26211294835)).toBe(true);
    expect(shortestDecimal(0.30000000000000004)).toBe(true);
    expect(shortestDecimal(0)).toBe(false);
    expect(shortestDecimal(-1.5)).toBe(false);
    expect(shortestDecimal(2 ** -30)).toBe(false);
    expect(shortestDecimal(1e-7 / 3)).toBe(false); // 17 digits past 22 places
  });
});

describe('decidedDouble', () => {
  // A value a few units in the last place of hi away from a rounding boundary, within the bound or not.
  const nearBoundary = fc.tuple(
    fc.double({ min: 1e-30, max: 1e30, noNaN: true }),
    fc.integer({ min: -3, max: 3 }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  it('gives the double nearest the exact value, or declines, for values next to rounding boundaries', () => {
    fc.assert(
      fc.property(nearBoundary, ([base, step, wiggle]) => {
        // hi + lo: lo half a unit of hi plus a tiny multiple of the bound, on either side.
        const ulp = Math.abs(base) * 2 ** -52;
        const lo = 0.5 * ulp * (step / 2) + wiggle * APPROXIMATION_BOUND * base * 4;
        const hi = base + 0;
        const sum = hi + lo;
        const normalisedLo = lo - (sum - hi);
        const got = decidedDouble(sum, normalisedLo);
        if (got === undefined) return;
        const exact = exactOf(sum, normalisedLo);
        expect(got).toBe(Number(exact.toPrecision(40)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('decides only where every value within the bound of hi + lo rounds to hi, powers of two included', () => {
    // hi + lo next to either edge of hi's rounding interval (below a power of two the spacing halves), lo placed
    // within a few bounds of the edge, where the test is tight; both ends of the interval the bound allows, exactly.
    const nearEdge = fc.tuple(
      fc.oneof(
        fc.double({ min: 1e-30, max: 1e30, noNaN: true }),
        fc.integer({ min: -90, max: 90 }).map((power) => 2 ** power),
      ),
      fc.constantFrom(-1, 1),
      fc.double({ min: -8, max: 8, noNaN: true }),
    );
    let decided = 0;
    let declined = 0;
    fc.assert(
      fc.property(nearEdge, ([hi, side, wiggle]) => {
        const powerOfTwo = Number.isInteger(Math.log2(hi));
        const gap = hi * 2 ** -52 * (side < 0 && powerOfTwo ? 0.5 : 1);
        const lo = side * (0.5 * gap) + wiggle * APPROXIMATION_BOUND * hi;
        if (hi + lo !== hi) return; // not normalised: hi is not the double nearest hi + lo
        const y = exactOf(hi, lo);
        const reach = y.times(new Reference(exactText(APPROXIMATION_BOUND)));
        const bothEndsRound = (ends: Big) =>
          Number(y.plus(ends).toString()) === hi && Number(y.minus(ends).toString()) === hi;
        if (decides(hi, lo)) {
          decided++;
          expect(bothEndsRound(reach)).toBe(true);
        } else {
          // Not needlessly cautious: where four bounds either side still round to hi, it decides.
          declined++;
          expect(bothEndsRound(reach.times(4))).toBe(false);
        }
      }),
      { numRuns: 20_000 },
    );
    // Both answers drawn often, so neither branch's check is idle.
    expect(Math.min(decided, declined)).toBeGreaterThan(100);
  });

  it('declines ties, non-positive values and values beyond its range', () => {
    expect(decidedDouble(1, 2 ** -53)).toBeUndefined(); // 1 + half a unit: a tie
    expect(decidedDouble(0, 0)).toBeUndefined();
    expect(decidedDouble(-1, 0)).toBeUndefined();
    expect(decidedDouble(2 ** 950, 0)).toBeUndefined();
    expect(decidedDouble(1.5, 0)).toBe(1.5);
  });

  it('has a boolean form for hot paths (decides: hi is the double), with the same answers', () => {
    expect(decides(1, 2 ** -53)).toBe(false); // a tie: 1 + 2^-53 lies halfway between 1 and the next double
    expect(decides(-1, 0)).toBe(false);
    expect(decides(2 ** 950, 0)).toBe(false);
    expect(decides(1.5, 0)).toBe(true);
    ddDivide(1, 0, 3);
    expect(decides(dd.hi, dd.lo)).toBe(true);
    expect(dd.hi).toBe(1 / 3);
  });
});

describe('double-double operations', () => {
  const operand = fc.tuple(
    fc.double({ min: 1e-20, max: 1e20, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  const of = ([hi, t]: [number, number]): [number, number] => {
    const lo = t * hi * 2 ** -54;
    const sum = hi + lo;
    return [sum, lo - (sum - hi)];
  };
  it('multiply, add and divide within 2^-102 of the exact results', () => {
    fc.assert(
      fc.property(operand, operand, fc.integer({ min: 1, max: 3_600_000 }), (x, y, divisor) => {
        const [ah, al] = of(x);
        const [bh, bl] = of(y);
        const a = exactOf(ah, al);
        const b = exactOf(bh, bl);
        ddMul(ah, al, bh, bl);
        expect(relativeDistance(exactOf(dd.hi, dd.lo), a.times(b))).toBeLessThan(2 ** -102);
        ddAdd(ah, al, bh, bl);
        expect(relativeDistance(exactOf(dd.hi, dd.lo), a.plus(b))).toBeLessThan(2 ** -102);
        ddDivide(ah, al, divisor);
        // (hi + lo) / divisor against the exact quotient: the approximation times the divisor against the dividend.
        expect(relativeDistance(exactOf(dd.hi, dd.lo).times(divisor), a)).toBeLessThan(2 ** -102);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('approximateProduct', () => {
  it('is the double of the exact product of the two shortest decimals, or declines', () => {
    fc.assert(
      fc.property(positive, positive, (a, b) => {
        const got = approximateProduct(a, b);
        if (got === undefined) return;
        expect(got).toBe(Number(new Reference(String(a)).times(new Reference(String(b))).toString()));
      }),
      { numRuns: 30_000 },
    );
  });
});

describe('how often the fast path decides', () => {
  it('decides nearly every activity × factor product of 17-digit activities', () => {
    let decided = 0;
    const runs = 20_000;
    fc.assert(
      fc.property(uniformDouble, fc.integer({ min: 1, max: 99_999 }), (a, f) => {
        if (approximateProduct(a, f / 1e7) !== undefined) decided++;
      }),
      { numRuns: runs },
    );
    expect(decided / runs).toBeGreaterThan(0.999);
  });
});
