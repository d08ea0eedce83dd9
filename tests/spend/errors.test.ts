import { describe, expect, it } from 'vitest';
import {
  calculateSpend,
  calculateSpendBatch,
  createTableDatasets,
  EmissionsError,
  isErrorBody,
  type SpendDatasets,
  type SpendRequest,
} from '../../src/index';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { caught } from '../fixtures/caught';
import { isic4, RETAIL_DE } from '../fixtures/requests';

/** The regions of the released OEFDB table (BR DE GB NO US) and of its 20-region working file, per MANIFEST.md. */
const FACTOR_REGIONS = 'AT AU BE BG BR CA CH CN CY CZ DE DK EE ES FI FR GB GR NO US'.split(' ');

/** Every error path of calculateSpend: code, path, and valid values where the engine lists them. */

const valid = RETAIL_DE;

const thrown = (request: unknown, datasets: SpendDatasets = defaultDatasets): EmissionsError =>
  caught(EmissionsError, () => calculateSpend(request as SpendRequest, datasets));

const without = (key: keyof typeof valid) =>
  Object.fromEntries(Object.entries(valid).filter(([name]) => name !== key));

describe('classification', () => {
  /** What the error states besides its code and path, where the case checks it. */
  interface Refusal {
    error_code: string;
    path: string;
    status?: number;
    message?: string;
    valid_values?: unknown;
  }
  const CASES: Array<[string, SpendRequest['activity'] | Record<string, string>, Refusal]> = [
    [
      'an unknown code is unknown_classification_code at activity.classification_code',
      isic4('9999'),
      {
        error_code: 'unknown_classification_code',
        path: 'activity.classification_code',
        status: 400,
        message: "'9999'",
      },
    ],
    [
      'a NACE code that does not exist is unknown_classification_code',
      { classification_type: 'nace2', classification_code: '47.99.9' },
      { error_code: 'unknown_classification_code', path: 'activity.classification_code' },
    ],
    [
      'an unknown classification type is invalid_request listing the valid types',
      { classification_type: 'sic1987', classification_code: '5411' },
      {
        error_code: 'invalid_request',
        path: 'activity.classification_type',
        valid_values: ['isic4', 'mcc', 'nace2', 'naics2017'],
      },
    ],
    [
      'an unknown activity_id is no_emission_factors_found at activity.activity_id',
      { activity_id: 'no-such-activity' },
      { error_code: 'no_emission_factors_found', path: 'activity.activity_id' },
    ],
  ];
  it.each(CASES)('%s', (_, activity, expected) => {
    const error = thrown({ ...valid, activity });
    expect(error.error_code).toBe(expected.error_code);
    expect(error.path).toBe(expected.path);
    if (expected.status !== undefined) expect(error.status).toBe(expected.status);
    if (expected.message !== undefined) expect(error.message).toContain(expected.message);
    if (expected.valid_values !== undefined) expect(error.valid_values).toEqual(expected.valid_values);
  });
});

describe('region and currency', () => {
  it('a region without factors is no_emission_factors_found listing the 20 factor regions', () => {
    const error = thrown({ ...valid, spend_region: 'JP' });
    expect(error.error_code).toBe('no_emission_factors_found');
    expect(error.path).toBe('spend_region');
    expect(error.valid_values).toEqual(FACTOR_REGIONS);
    // The list is in valid_values only; the message is short and names the next steps.
    expect(error.message.length).toBeLessThanOrEqual(200);
    expect(error.message).toContain('`--datasets ceda`');
  });

  it('a lower-case region is accepted (normalised to upper case)', () => {
    expect(
      calculateSpend({ ...valid, spend_region: 'de' }, defaultDatasets).estimate.emission_factor?.region,
    ).toBe('DE');
  });

  it('an unknown currency is unsupported_currency at money_unit, with the supported list', () => {
    const error = thrown({ ...valid, money_unit: 'xyz' });
    expect(error.error_code).toBe('unsupported_currency');
    expect(error.path).toBe('money_unit');
    expect(error.valid_values).toContain('usd');
    expect(error.valid_values).toContain('eur');
    expect(error.valid_values).not.toContain('xyz');
  });

  it('a currency that shares no year with the factor currency is unsupported_currency', () => {
    // A custom FX table where 'aaa' has only 1990 and eur only 2019: no common year.
    const fx = createTableDatasets({
      fx: {
        dataset: { ...defaultTables.fx.dataset, id: 'test-fx' },
        rates: { aaa: { '1990': 2 }, eur: { '2019': 0.9 }, usd: { '2019': 1 } },
      },
    }).fx;
    const error = thrown({ ...valid, money_unit: 'aaa' }, { ...defaultDatasets, fx });
    expect(error.error_code).toBe('unsupported_currency');
    expect(error.path).toBe('money_unit');
  });

  it('a factor currency missing from the FX table is unsupported_currency', () => {
    const fx = createTableDatasets({
      fx: { dataset: { ...defaultTables.fx.dataset, id: 'test-fx' }, rates: { usd: { '2019': 1 } } },
    }).fx;
    const error = thrown({ ...valid, money_unit: 'usd' }, { ...defaultDatasets, fx });
    expect(error.error_code).toBe('unsupported_currency');
    expect(error.message).toContain("factor currency 'eur'");
  });
});

describe('malformed fields', () => {
  const cases: Array<[string, unknown, string]> = [
    ['money negative', { ...valid, money: -1 }, 'money'],
    ['money as a string', { ...valid, money: '1000' }, 'money'],
    ['money missing', without('money'), 'money'],
    ['money NaN', { ...valid, money: Number.NaN }, 'money'],
    ['money Infinity', { ...valid, money: Number.POSITIVE_INFINITY }, 'money'],
    ['money above 1e15', { ...valid, money: 1e16 }, 'money'],
    ['spend_year 3.5', { ...valid, spend_year: 3.5 }, 'spend_year'],
    ['spend_year as a string', { ...valid, spend_year: '2019' }, 'spend_year'],
    ['spend_year missing', without('spend_year'), 'spend_year'],
    ['spend_year 1800', { ...valid, spend_year: 1800 }, 'spend_year'],
    ["spend_region 'DEU'", { ...valid, spend_region: 'DEU' }, 'spend_region'],
    ['spend_region missing', without('spend_region'), 'spend_region'],
    ["money_unit 'euro'", { ...valid, money_unit: 'euro' }, 'money_unit'],
    ['money_unit a number', { ...valid, money_unit: 978 }, 'money_unit'],
    ['money_unit missing', without('money_unit'), 'money_unit'],
    ['activity missing', without('activity'), 'activity'],
    ['activity a string', { ...valid, activity: '4711' }, 'activity'],
    ['activity null', { ...valid, activity: null }, 'activity'],
    [
      'activity in both forms',
      { ...valid, activity: { classification_type: 'isic4', classification_code: '4711', activity_id: 'x' } },
      'activity',
    ],
    [
      'activity without a code',
      { ...valid, activity: { classification_type: 'isic4' } },
      'activity.classification_code',
    ],
    [
      'activity with an empty code',
      { ...valid, activity: { classification_type: 'isic4', classification_code: '' } },
      'activity.classification_code',
    ],
    [
      'activity with an extra field',
      { ...valid, activity: { ...valid.activity, note: 'x' } },
      'activity.note',
    ],
    ['an empty activity_id', { ...valid, activity: { activity_id: '' } }, 'activity.activity_id'],
    ['an unknown top-level field', { ...valid, junk: true }, 'junk'],
    ["audit_trail 'yes'", { ...valid, audit_trail: 'yes' }, 'audit_trail'],
  ];
  for (const [label, request, path] of cases) {
    it(`${label} → invalid_request at ${path}`, () => {
      const error = thrown(request);
      expect(error.error_code).toBe('invalid_request');
      expect(error.path).toBe(path);
      expect(error.toJSON()).toMatchObject({ error: 'bad_request', error_code: 'invalid_request', path });
    });
  }

  it('both activity forms at once say so, rather than blaming the classification fields', () => {
    const error = thrown({
      ...valid,
      activity: { classification_type: 'isic4', classification_code: '4711', activity_id: 'x' },
    });
    expect(error.message).toContain('not both');
  });

  for (const request of [null, undefined, 42, 'request', [valid]]) {
    it(`a request that is not an object (${JSON.stringify(request)}) → invalid_request`, () => {
      const error = thrown(request);
      expect(error.error_code).toBe('invalid_request');
      expect(error.message).toBe('The request must be a JSON object.');
    });
  }
});

describe('calculateSpendBatch with good and bad elements', () => {
  it('computes the good ones and turns each bad one into its error body with an indexed path', () => {
    const requests: unknown[] = [
      valid,
      { ...valid, money: -5 },
      { ...valid, spend_region: 'JP' },
      null,
      { ...valid, money_unit: 'xyz' },
      { ...valid, activity: { classification_type: 'isic4', classification_code: '9999' } },
      { ...valid, money_unit: 'usd' },
    ];
    const results = calculateSpendBatch(requests as never[], defaultDatasets);
    expect(results).toHaveLength(7);
    expect(results[0]).toEqual(calculateSpend(valid, defaultDatasets));
    expect(results[6]).toEqual(calculateSpend({ ...valid, money_unit: 'usd' }, defaultDatasets));
    expect(results[1]).toMatchObject({
      error: 'bad_request',
      error_code: 'invalid_request',
      path: 'requests[1].money',
    });
    expect(results[2]).toMatchObject({
      error_code: 'no_emission_factors_found',
      path: 'requests[2].spend_region',
      valid_values: FACTOR_REGIONS,
    });
    expect(results[3]).toMatchObject({ error_code: 'invalid_request', path: 'requests[3]' });
    expect(results[4]).toMatchObject({ error_code: 'unsupported_currency', path: 'requests[4].money_unit' });
    expect(results[5]).toMatchObject({
      error_code: 'unknown_classification_code',
      path: 'requests[5].activity.classification_code',
    });
    expect(results.map(isErrorBody)).toEqual([false, true, true, true, true, true, false]);
  });

  it('a batch that is not an array is invalid_request at requests', () => {
    let caught: unknown;
    try {
      calculateSpendBatch(valid as unknown as never[], defaultDatasets);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EmissionsError);
    expect((caught as EmissionsError).error_code).toBe('invalid_request');
    expect((caught as EmissionsError).path).toBe('requests');
  });

  it('an empty batch is an empty result', () => {
    expect(calculateSpendBatch([], defaultDatasets)).toEqual([]);
  });
});
