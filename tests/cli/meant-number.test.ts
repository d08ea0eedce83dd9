import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meantNumber, strictNumber } from '../../src/cli/adapters/cells';
import { spendRows } from '../../src/cli/adapters/spend';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * Numbers as spreadsheets format them (#37 item 1): the oracle is Intl.NumberFormat, the formats of real locales,
 * not this code. Whatever a locale writes with grouping or a currency, the cell is refused and the suggestion is
 * the plain number.
 */

const cents = fc.integer({ min: 100_000, max: 99_999_999_999 }); // 1,000.00 … 999,999,999.99: always grouped

describe('meantNumber, against the number formats of real locales', () => {
  it.each([
    ['en-US', false],
    ['en-GB', false],
    ['de-DE', true],
    ['fr-FR', true],
    ['es-ES', true],
    ['it-IT', true],
    ['de-CH', false],
  ] as const)('%s with grouping: refused, the suggestion is the plain number', (locale, decimalComma) => {
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, useGrouping: true });
    fc.assert(
      fc.property(cents, (amount) => {
        const written = format.format(amount / 100);
        const plain = `${Math.floor(amount / 100)}${decimalComma ? ',' : '.'}${String(amount % 100).padStart(2, '0')}`;
        expect(() => strictNumber(written, 'money', decimalComma)).toThrow(`did you mean ${plain}?`);
        expect(meantNumber(written, decimalComma)).toMatch(
          new RegExp(`^did you mean ${plain.replace('.', '\\.')}\\?`),
        );
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['en-US', 'USD', false],
    ['de-DE', 'EUR', true],
    ['fr-FR', 'EUR', true],
    ['en-GB', 'GBP', false],
  ] as const)(
    '%s currency format (%s): refused, the suggestion is the plain number',
    (locale, currency, decimalComma) => {
      const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
      fc.assert(
        fc.property(cents, (amount) => {
          const written = format.format(amount / 100);
          const plain = `${Math.floor(amount / 100)}${decimalComma ? ',' : '.'}${String(amount % 100).padStart(2, '0')}`;
          expect(meantNumber(written, decimalComma)).toMatch(
            new RegExp(`^did you mean ${plain.replace('.', '\\.')}\\? \\(.*no currency symbol`),
          );
        }),
        { numRuns: 100 },
      );
    },
  );

  it('the plain number written either way reads as itself', () => {
    fc.assert(
      fc.property(cents, (amount) => {
        const text = (amount / 100).toFixed(2);
        expect(strictNumber(text, 'money')).toBe(Number(text));
        expect(strictNumber(text.replace('.', ','), 'money', true)).toBe(Number(text));
      }),
    );
  });
});

describe('--credits net', () => {
  it('property: a credit note is exactly the negation of the same row as a charge', () => {
    const rows = spendRows(defaultDatasets);
    const row = (money: string) => ({
      classification_type: 'isic4',
      classification_code: '4711',
      spend_year: '2023',
      spend_region: 'DE',
      money,
      money_unit: 'usd',
    });
    fc.assert(
      fc.property(cents, (amount) => {
        const money = (amount / 100).toFixed(2);
        const charge = rows.compute(row(money), 'csv').outcome;
        const credit = rows.compute(row(`-${money}`), 'csv', { credits: 'net' }).outcome;
        expect(credit.co2e).toBe(-charge.co2e);
        expect(credit.activity_value).toBe(-charge.activity_value);
        expect(credit.notices.map((notice) => notice.code)).toEqual([
          ...charge.notices.map((notice) => notice.code),
          'credit_note',
        ]);
        expect(() => rows.compute(row(`-${money}`), 'csv')).toThrow('--credits net');
      }),
      { numRuns: 100 },
    );
  });
});
