import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, decimal, toPlainString, ZERO } from '../../src/core/decimal';
import { DecimalReading, DecimalSum } from '../../src/core/decimal-sum';

describe('DecimalSum', () => {
  it('sums decimal strings exactly, in every notation', () => {
    const sum = new DecimalSum();
    for (const text of ['0.1', '2e-1', '-0.05', '+3', '.5', '5.', '1.5E+2', '-1e-35', '7e40'])
      expect(sum.add(text)).toBe(true);
    expect(toPlainString(sum.total())).toBe(
      '70000000000000000000000000000000000000158.74999999999999999999999999999999999',
    );
  });

  it('refuses what is not a plain decimal, adding nothing', () => {
    const sum = new DecimalSum();
    for (const text of ['', '1,5', 'NaN', 'e5', '.', '1e', '--1']) expect(sum.add(text)).toBe(false);
    expect(toPlainString(sum.total())).toBe('0');
  });

  it('property: equals decimal addition of the same strings', () => {
    const text = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc
        .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: -45, max: 45 }))
        .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
    );
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), (texts) => {
        const sum = new DecimalSum();
        let expected = ZERO;
        for (const each of texts) {
          expect(sum.add(each)).toBe(true);
          expected = add(expected, decimal(each));
        }
        expect(toPlainString(sum.total())).toBe(toPlainString(expected));
        // text() writes the same digits without a decimal, and a reading per value (as the billing summary keeps one
        // for several sums) sums as add() does, in the limbs or not.
        expect(sum.text()).toBe(toPlainString(expected));
        const viaReadings = new DecimalSum();
        for (const each of texts) {
          const reading = new DecimalReading();
          reading.read(each);
          viaReadings.addReading(reading);
        }
        expect(viaReadings.text()).toBe(toPlainString(expected));
        // parts() cloned into another thread's sum, twice over a sum that already holds a rest, adds up the same.
        const { scaled, rest } = structuredClone(sum.parts());
        const viaParts = new DecimalSum();
        viaParts.add('1e-40');
        viaParts.addParts(scaled, rest);
        viaParts.addParts(scaled, rest);
        expect(viaParts.text()).toBe(toPlainString(add(decimal('1e-40'), add(expected, expected))));
      }),
    );
  });

  it('scale() reads a value as a count of 10^-30 or leaves it to the decimal path', () => {
    expect(DecimalSum.scale('1.5')).toBe(15n * 10n ** 29n);
    expect(DecimalSum.scale('-2e-30')).toBe(-2n);
    expect(DecimalSum.scale('1e-31')).toBeUndefined(); // digits below 10^-30
    expect(DecimalSum.scale('1,5')).toBeUndefined();
    const sum = new DecimalSum();
    sum.add('1e-31');
    sum.add('-0.5');
    expect(sum.text()).toBe('-0.4999999999999999999999999999999');
    expect(new DecimalSum().text()).toBe('0');
  });

  it('parts() gives the count of 10^-30 and the rest below it as text, which addParts() takes back', () => {
    const sum = new DecimalSum();
    sum.add('0.5');
    expect(sum.parts()).toEqual({ scaled: 5n * 10n ** 29n, rest: undefined });
    sum.add('1e-31');
    expect(sum.parts()).toEqual({ scaled: 5n * 10n ** 29n, rest: '0.0000000000000000000000000000001' });
    const copy = new DecimalSum();
    copy.addParts(sum.parts().scaled, sum.parts().rest);
    expect(copy.text()).toBe('0.5000000000000000000000000000001');
  });

  // The limbs hold 15 digits each: values at their edges make every carry and borrow happen.
  const edgy = fc.oneof(
    fc.constantFrom(
      '999999999999999.999999999999999',
      '-999999999999999.999999999999999',
      '0.000000000000001',
      '-0.000000000000001',
      '0.000000000000000000000000000001',
      '-0.000000000000000000000000000001',
      '99999999999999999999999999999',
      '-99999999999999999999999999999',
      '1e29',
      '-1e-30',
      '0',
      '-0',
      '5.',
      '.5',
      '3',
    ),
    fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -32, max: 32 }))
      .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  );

  it('property: readings added to several sums, and sums added to sums, equal decimal addition', () => {
    fc.assert(
      fc.property(fc.array(edgy, { maxLength: 40 }), fc.nat({ max: 40 }), (texts, cut) => {
        const reading = new DecimalReading();
        const whole = new DecimalSum();
        const [first, second] = [new DecimalSum(), new DecimalSum()];
        let expected = ZERO;
        texts.forEach((text, index) => {
          reading.read(text);
          whole.addReading(reading);
          (index < cut ? first : second).addReading(reading);
          expected = add(expected, decimal(text));
        });
        expect(whole.text()).toBe(toPlainString(expected));
        // Summed in two halves, then one into the other: directly, and through the limbs another thread gets.
        const direct = new DecimalSum();
        direct.addSum(first);
        direct.addSum(second);
        expect(direct.text()).toBe(toPlainString(expected));
        const viaLimbs = new DecimalSum();
        for (const part of [first, second]) {
          const limbs: number[] = [];
          const big = part.pushLimbs(limbs);
          const { big: cloned, limbs: clonedLimbs } = structuredClone({ big, limbs });
          viaLimbs.addLimbParts(clonedLimbs, 0, cloned);
          const rest = part.restText();
          if (rest !== undefined) viaLimbs.addParts(0n, rest);
        }
        expect(viaLimbs.text()).toBe(toPlainString(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('reads into limbs what fits, and leaves the rest to the exact ways, adding the same', () => {
    const reading = new DecimalReading();
    expect(reading.read('99999999999999999999999999999.999999999999999999999999999999')).toBe(true);
    expect(reading.read('1e30')).toBe(false); // past the limbs: BigInt
    expect(reading.read('1e-31')).toBe(false); // below 10^-30: decimal
    expect(reading.read('1e99999999999')).toBe(false);
    for (const text of ['', '-', '.', 'e5', '1e', '1e+', '1.2.3', '1,5', ' 1', '1 ', '0x10', 'NaN'])
      expect(reading.read(text)).toBe(false);
    const sum = new DecimalSum();
    for (const text of ['1e30', '1e-31', '-2e45', '7e40', '0.5']) {
      reading.read(text);
      sum.addReading(reading);
    }
    expect(sum.text()).toBe(
      '-1999929999999998999999999999999999999999999999.4999999999999999999999999999999',
    );
    // A reading of what is no decimal adds nothing, as add() refuses it.
    reading.read('1,5');
    sum.addReading(reading);
    expect(sum.text()).toBe(
      '-1999929999999998999999999999999999999999999999.4999999999999999999999999999999',
    );
  });

  it('keeps limbs exact over many additions near their edges (carries into the BigInt part)', () => {
    const sum = new DecimalSum();
    const reading = new DecimalReading();
    reading.read('99999999999999999999999999999.999999999999999999999999999999');
    for (let count = 0; count < 20_000; count++) sum.addReading(reading);
    expect(sum.text()).toBe('1999999999999999999999999999999999.99999999999999999999999998');
    expect(sum.parts().scaled).toBe(20_000n * (10n ** 59n - 1n));
  });
});
