import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';

/**
 * The handler under arbitrary methods, paths, headers and bodies: always one of the documented statuses (never a
 * 500, which would mean an input reached an engine bug), always a JSON body, a stable error code on failure.
 */

const internalErrors: unknown[] = [];
const handler = createHandler({
  datasets: defaultDatasets,
  maxBatchSize: 10,
  maxBodyBytes: 20_000,
  authorize: (key) => key === 'good',
  onError: (error) => internalErrors.push(error),
});

const route = fc.constantFrom(
  '/procurement/spend',
  '/procurement/spend/batch',
  ...['instance', 'cpu', 'memory', 'storage', 'networking', 'embodied'].flatMap((calculator) => [
    `/compute/aws/${calculator}`,
    `/compute/gcp/${calculator}/batch`,
  ]),
);
const path = fc.oneof(
  { arbitrary: route, weight: 6 },
  { arbitrary: fc.webPath(), weight: 1 },
  { arbitrary: fc.tuple(fc.webSegment(), fc.webSegment()).map(([a, b]) => `/compute/${a}/${b}`), weight: 1 },
);
const fieldValue = fc.oneof(
  fc.constantFrom(
    'us_east_1',
    'europe_west1',
    't2.micro',
    'ssd',
    'TB',
    'h',
    'isic4',
    '4711',
    'DE',
    'eur',
    '',
  ),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, 1e308, -0, 1e15, 1e16),
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const fieldName = fc.constantFrom(
  'cpu_count',
  'region',
  'duration',
  'duration_unit',
  'data',
  'data_unit',
  'storage_type',
  'instance',
  'instance_count',
  'average_vcpu_utilization',
  'year',
  'audit_trail',
  'activity',
  'spend_year',
  'spend_region',
  'money',
  'money_unit',
  'tax_margin',
  'trade_margin',
  'transport_margin',
  '__proto__',
  'constructor',
);
const requestObject = fc.dictionary(fieldName, fieldValue, { maxKeys: 8 });
const bodyText = fc.oneof(
  { arbitrary: requestObject.map((value) => JSON.stringify(value)), weight: 4 },
  { arbitrary: fc.array(requestObject, { maxLength: 12 }).map((value) => JSON.stringify(value)), weight: 3 },
  { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)), weight: 1 },
  { arbitrary: fc.string({ maxLength: 50 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '[['.repeat(3000),
      '{"a":'.repeat(2000),
      ' '.repeat(25_000),
      '{"__proto__":{"x":1}}',
    ),
    weight: 1,
  },
);
const contentType = fc.option(
  fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/json; charset=latin1',
        'application/ld+json',
        ';;;',
        '',
      ),
      weight: 1,
    },
    { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
  ),
  { freq: 10 },
);
const authorization = fc.option(
  fc.constantFrom('Bearer good', 'Bearer bad', 'bearer good', 'Basic x', 'Bearer'),
  { freq: 10 },
);
const method = fc.oneof(
  { arbitrary: fc.constant('POST'), weight: 8 },
  { arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'), weight: 1 },
);

const STATUSES = [200, 400, 401, 404, 405, 413, 415];

describe('handler fuzz', () => {
  it('answers every input with a documented status and a JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        contentType,
        authorization,
        bodyText,
        async (verb, target, type, auth, body) => {
          const headers = new Headers();
          // Arbitrary header text may be unusable as a header value; that is the client library's concern.
          try {
            if (type !== null) headers.set('content-type', type);
          } catch {
            return;
          }
          if (auth !== null) headers.set('authorization', auth);
          const init: RequestInit = { method: verb, headers };
          if (verb !== 'GET') init.body = body;
          const response = await handler(new Request(`http://fuzz.test${target}`, init));
          expect(STATUSES).toContain(response.status);
          expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
          const json = await response.json();
          if (response.status !== 200) {
            expect(ERROR_CODES).toContain(json.error_code);
            expect(typeof json.message).toBe('string');
          }
        },
      ),
      { numRuns: 400, seed: 20261121 },
    );
    expect(internalErrors).toEqual([]);
  });
});
