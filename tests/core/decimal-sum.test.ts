import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, decimal, toPlainString, ZERO } from '../../src/core/decimal';
import { DecimalSum } from '../../src/core/decimal-sum';

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
        // text() writes the same digits without a decimal, and scale() + addScaled() sum as add() does.
        expect(sum.text()).toBe(toPlainString(expected));
        const viaScale = new DecimalSum();
        for (const each of texts) viaScale.addScaled(DecimalSum.scale(each), each);
        expect(viaScale.text()).toBe(toPlainString(expected));
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
    sum.addScaled(undefined, '1e-31');
    sum.addScaled(DecimalSum.scale('-0.5'), '-0.5');
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
});
