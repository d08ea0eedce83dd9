import { describe, expect, it } from 'vitest';
import { EmissionsError } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateSpend } from '../../src/index';

const spendWithType = (classification_type: string) => () =>
  calculateSpend(
    {
      activity: { classification_type, classification_code: '4711' },
      spend_year: 2023,
      spend_region: 'DE',
      money: 100,
      money_unit: 'eur',
    } as never,
    defaultDatasets,
  );

/** A mistyped classification type gets the closest type, as a mistyped code, currency or region does. */
describe('classification type typos', () => {
  it.each([
    ['isci4', 'isic4'],
    ['nace', 'nace2'],
    ['naics2012', 'naics2017'],
  ])("'%s' suggests %s; the valid types are still listed", (typed, close) => {
    expect(spendWithType(typed)).toThrow(EmissionsError);
    expect(spendWithType(typed)).toThrow(
      `Classification type '${typed}' is not supported. Did you mean: ${close}? Valid types: isic4, mcc, nace2, naics2017.`,
    );
  });

  it('nothing close: no suggestion', () => {
    expect(spendWithType('unspsc')).toThrow(
      "Classification type 'unspsc' is not supported. Valid types: isic4, mcc, nace2, naics2017.",
    );
  });
});
