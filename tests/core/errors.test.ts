import { describe, expect, it } from 'vitest';
import { EmissionsError, ERROR_CODES, formatPath, listForMessage, messages } from '../../src/core/errors';

describe('EmissionsError', () => {
  it('carries status 400 and bad_request by default', () => {
    const error = new EmissionsError('unknown_region', 'Region x is unknown.', {
      path: 'region',
      valid_values: ['a', 'b'],
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('EmissionsError');
    expect(error.status).toBe(400);
    expect(error.error).toBe('bad_request');
    expect(error.error_code).toBe('unknown_region');
    expect(error.message).toBe('Region x is unknown.');
    expect(error.path).toBe('region');
    expect(error.valid_values).toEqual(['a', 'b']);
  });

  it('maps other statuses to their names, and unknown ones to "error"', () => {
    expect(new EmissionsError('unauthorized', 'no', { status: 401 }).error).toBe('unauthorized');
    expect(new EmissionsError('not_found', 'no', { status: 404 }).error).toBe('not_found');
    expect(new EmissionsError('payload_too_large', 'no', { status: 413 }).error).toBe('payload_too_large');
    expect(new EmissionsError('invalid_request', 'no', { status: 418 }).error).toBe('error');
  });

  it('toJSON is the wire body, without absent fields', () => {
    expect(new EmissionsError('invalid_request', 'Bad.').toJSON()).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message: 'Bad.',
    });
    const full = new EmissionsError('no_emission_factors_found', 'No year.', {
      path: 'year',
      valid_values: [2021, 2022],
    });
    const body = full.toJSON();
    expect(body).toEqual({
      error: 'bad_request',
      error_code: 'no_emission_factors_found',
      message: 'No year.',
      path: 'year',
      valid_values: [2021, 2022],
    });
    expect(Object.keys(body)).toEqual(['error', 'error_code', 'message', 'path', 'valid_values']);
    // A copy: changing the body does not change the error.
    body.valid_values?.push(1999);
    expect(full.valid_values).toEqual([2021, 2022]);
    expect(JSON.parse(JSON.stringify(full))).toEqual(full.toJSON());
  });

  it('withPathPrefix places the path under a prefix and keeps everything else', () => {
    const error = new EmissionsError('unknown_region', 'msg', {
      path: 'region',
      valid_values: ['x'],
      status: 400,
    });
    const prefixed = error.withPathPrefix('requests[3]');
    expect(prefixed).toBeInstanceOf(EmissionsError);
    expect(prefixed).not.toBe(error);
    expect(prefixed.path).toBe('requests[3].region');
    expect(prefixed.toJSON()).toEqual({ ...error.toJSON(), path: 'requests[3].region' });
    expect(error.path).toBe('region'); // the original is unchanged

    expect(new EmissionsError('invalid_request', 'm').withPathPrefix('requests[0]').path).toBe('requests[0]');
    expect(new EmissionsError('invalid_request', 'm', { path: '' }).withPathPrefix('requests[0]').path).toBe(
      'requests[0]',
    );
    expect(
      new EmissionsError('invalid_request', 'm', { path: '[2].x' }).withPathPrefix('requests[0]').path,
    ).toBe('requests[0][2].x');
    expect(
      new EmissionsError('invalid_request', 'm', { path: 'activity.code' }).withPathPrefix('requests[1]')
        .path,
    ).toBe('requests[1].activity.code');
    const status = new EmissionsError('payload_too_large', 'm', { status: 413 }).withPathPrefix('body');
    expect(status.status).toBe(413);
    expect(status.toJSON()).not.toHaveProperty('valid_values');
  });

  it('has the stable codes of DESIGN.md §5', () => {
    for (const code of [
      'invalid_request',
      'unsupported_provider',
      'unknown_region',
      'unknown_instance',
      'unsupported_currency',
      'unknown_classification_code',
      'no_emission_factors_found',
      'batch_too_large',
    ]) {
      expect(ERROR_CODES).toContain(code);
    }
  });
});

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['region'], 'region'],
    [['activity', 'classification_code'], 'activity.classification_code'],
    [['requests', 3, 'region'], 'requests[3].region'],
    [[0, 'a'], '[0].a'],
    [['a', 1, 2, 'b'], 'a[1][2].b'],
  ] as Array<[PropertyKey[], string]>)('%j → %j', (segments, path) => {
    expect(formatPath(segments)).toBe(path);
  });
});

describe('messages', () => {
  it('listForMessage shows at most max values and says how many more', () => {
    expect(listForMessage(['a', 'b', 'c'], 5)).toBe('a, b, c');
    expect(listForMessage(['a', 'b', 'c'], 2)).toBe('a, b (and 1 more)');
    expect(listForMessage([])).toBe('');
  });

  it('name the offending value and the valid ones', () => {
    expect(messages.unsupportedProvider('ibm', ['aws', 'gcp'])).toBe(
      "Provider 'ibm' is not supported. Valid providers: aws, gcp.",
    );
    expect(messages.noFactorForYear('x', 2019, [2021, 2022])).toBe(
      'No emission factor for x in year 2019. Valid years: 2021, 2022.',
    );
    expect(messages.unknownInstance('aws', 'q', [])).toBe(
      "Instance type 'q' is not a known aws instance type.",
    );
    expect(messages.unknownInstance('aws', 't2.micr', ['t2.micro'])).toContain('Did you mean: t2.micro?');
  });
});
