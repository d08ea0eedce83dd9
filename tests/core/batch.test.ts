import { describe, expect, it } from 'vitest';
import { isErrorBody, runBatch } from '../../src/core/batch';
import { EmissionsError } from '../../src/core/errors';

const double = (request: unknown) => {
  if (typeof request !== 'number')
    throw new EmissionsError('invalid_request', 'not a number', { path: 'value' });
  return request * 2;
};

describe('runBatch', () => {
  it('computes every element in order and turns EmissionsErrors into prefixed error bodies', () => {
    expect(runBatch([1, 'x', 3, null], double)).toEqual([
      2,
      {
        error: 'bad_request',
        error_code: 'invalid_request',
        message: 'not a number',
        path: 'requests[1].value',
      },
      6,
      {
        error: 'bad_request',
        error_code: 'invalid_request',
        message: 'not a number',
        path: 'requests[3].value',
      },
    ]);
    expect(runBatch([], double)).toEqual([]);
  });

  it('throws invalid_request at path requests when the batch is not an array', () => {
    for (const notArray of [null, undefined, {}, '[]', 1, { length: 0 }]) {
      let thrown: unknown;
      try {
        runBatch(notArray, double);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(EmissionsError);
      expect((thrown as EmissionsError).error_code).toBe('invalid_request');
      expect((thrown as EmissionsError).path).toBe('requests');
    }
  });

  it('lets other errors (engine bugs) propagate rather than hiding them in the batch', () => {
    expect(() =>
      runBatch([1], () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});

describe('isErrorBody', () => {
  it('tells error bodies from results', () => {
    expect(isErrorBody({ error: 'bad_request', error_code: 'invalid_request', message: 'x' })).toBe(true);
    expect(isErrorBody({ co2e: 1 })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
    expect(isErrorBody(2)).toBe(false);
  });
});
