import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import { cloudRequests, FUZZ_SEED, nastyValue, runs, spendRequest } from './arbitraries';
import { expectSoundResult, prototypeSnapshot } from './check';

/**
 * The HTTP handler under arbitrary bodies, content types, methods and paths: never a 500 (which would mean an
 * engine bug reached the server), always a JSON body, a sound result on 200, a stable error code otherwise.
 */

const internalErrors: unknown[] = [];
const handler = createHandler({
  datasets: defaultDatasets,
  maxBatchSize: 20,
  maxBodyBytes: 200_000,
  onError: (error) => internalErrors.push(error),
});

const CLOUD_PATHS = ['instance', 'cpu', 'memory', 'storage', 'networking', 'embodied'].flatMap(
  (calculator) => [`/compute/aws/${calculator}`, `/compute/aws/${calculator}/batch`],
);
const PATHS = [...CLOUD_PATHS, '/procurement/spend', '/procurement/spend/batch'];

/** Number tokens JSON.parse reads as Infinity, -0 or 0, and ones that are not JSON at all. */
const numberToken = fc.constantFrom(
  '1e999',
  '-1e999',
  '-0',
  '1e-400',
  '0x10',
  'NaN',
  'Infinity',
  '1',
  '0.5',
  '"1"',
  '1e15',
  '1e16',
);

const cloudBody = (calculator: string) => {
  const requests = cloudRequests('aws');
  const single = requests[calculator as keyof typeof requests] ?? requests.cpu;
  return single.map((request) => JSON.stringify(request));
};

/** Body text for a path: near-valid requests, raw number tokens, arbitrary JSON, arbitrary text or bytes. */
const bodyFor = (path: string): fc.Arbitrary<string | Uint8Array> => {
  const calculator = path.split('/')[3] ?? '';
  const single = path.startsWith('/procurement')
    ? spendRequest.map((request) => JSON.stringify(request))
    : cloudBody(calculator);
  const batch = fc.array(single, { maxLength: 25 }).map((elements) => `[${elements.join(',')}]`);
  const tokens = fc
    .tuple(numberToken, numberToken)
    .map(
      ([count, duration]) =>
        `{"cpu_count":${count},"region":"us_east_1","duration":${duration},"money":${count}}`,
    );
  return fc.oneof(
    { arbitrary: path.endsWith('/batch') ? batch : single, weight: 4 },
    { arbitrary: tokens, weight: 1 },
    { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)), weight: 1 },
    { arbitrary: nastyValue.map((value) => JSON.stringify(value) ?? 'undefined'), weight: 1 },
    { arbitrary: fc.string(), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '['.repeat(50_000),
        `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
        'x'.repeat(250_000),
      ),
      weight: 1,
    },
  );
};

const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 8 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=latin1',
      'text/plain',
      'application/problem+json',
      '',
    ),
    weight: 1,
  },
  { arbitrary: fc.string(), weight: 1 },
);

const ALLOWED_STATUSES = [200, 400, 404, 405, 413, 415];

async function checkResponse(response: Response, path: string): Promise<string> {
  const text = await response.text();
  expect(internalErrors).toEqual([]);
  expect(ALLOWED_STATUSES).toContain(response.status);
  const body = JSON.parse(text) as unknown;
  if (response.status === 200) {
    expectSoundResult(body);
    if (path.endsWith('/batch')) expect(Array.isArray(body)).toBe(true);
  } else {
    expect(ERROR_CODES).toContain((body as { error_code: string }).error_code);
  }
  return `${response.status} ${text}`;
}

const send = (path: string, method: string, type: string, body: string | Uint8Array | null) =>
  handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: type === '' ? {} : { 'content-type': type },
      body: method === 'GET' || method === 'HEAD' ? null : (body as BodyInit | null),
    }),
  );

describe('HTTP handler under fuzzing', () => {
  it('arbitrary bodies on every route: never a 500, always JSON, deterministic, no prototype changes', async () => {
    const cases = fc
      .constantFrom(...PATHS)
      .chain((path) => fc.tuple(fc.constant(path), contentType, bodyFor(path)));
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(cases, async ([path, type, body]) => {
        const before = prototypeSnapshot();
        const first = await checkResponse(await send(path, 'POST', type, body), path);
        const status = first.slice(0, 3);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const second = await checkResponse(await send(path, 'POST', type, body), path);
        expect(second).toBe(first);
        expect(prototypeSnapshot()).toEqual(before);
      }),
      { seed: FUZZ_SEED, numRuns: runs(600) },
    );
    // Reaching the calculators (200), their validation (400), the body limit (413) and the media check (415).
    for (const status of ['200', '400', '413', '415']) expect(statuses.get(status)).toBeGreaterThan(0);
  });

  it('arbitrary paths and methods: never a 500', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'compute',
        'procurement',
        'spend',
        'aws',
        'gcp',
        'cpu',
        'batch',
        '__proto__',
        'constructor',
        '%E0%A4%A',
        '%00',
        '',
      ),
      fc.webSegment(),
    );
    const path = fc
      .array(segment, { minLength: 1, maxLength: 5 })
      .map((segments) => `/${segments.join('/')}`);
    const method = fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
    await fc.assert(
      fc.asyncProperty(path, method, async (url, verb) => {
        await checkResponse(await send(url, verb, 'application/json', '{}'), url);
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });
});
