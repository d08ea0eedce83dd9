import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import { reply, startServer, type TestServer } from './server';

/** Bearer authentication over real HTTP, on and off; and the handler called directly with a Request. */

const cpu = { cpu_count: 1, region: 'us_east_1', duration: 1 };

describe('authorize given', () => {
  let server: TestServer;
  const seen: Array<{ key: string; path: string }> = [];
  beforeAll(async () => {
    server = await startServer({
      datasets: defaultDatasets,
      authorize: async (key, request) => {
        seen.push({ key, path: new URL(request.url).pathname });
        return key === 'sk_live_1';
      },
    });
  });
  afterAll(() => server.close());

  it('a valid key passes, and authorize sees the key and the request', async () => {
    const { status } = await server.post('/compute/aws/cpu', cpu, { authorization: 'Bearer sk_live_1' });
    expect(status).toBe(200);
    expect(seen.at(-1)).toEqual({ key: 'sk_live_1', path: '/compute/aws/cpu' });
  });

  it('the scheme is case-insensitive', async () => {
    expect((await server.post('/compute/aws/cpu', cpu, { authorization: 'bearer sk_live_1' })).status).toBe(
      200,
    );
  });

  it.each([
    ['no header', undefined, 'Missing API key. Send it as the header `Authorization: Bearer <API_KEY>`.'],
    [
      'another scheme',
      'Basic c2tfbGl2ZV8xOg==',
      'Missing API key. Send it as the header `Authorization: Bearer <API_KEY>`.',
    ],
    ['an empty key', 'Bearer ', 'Missing API key. Send it as the header `Authorization: Bearer <API_KEY>`.'],
    ['a wrong key', 'Bearer sk_live_2', 'The API key is not valid.'],
  ])('401 for %s', async (_, authorization, message) => {
    const { status, body, headers } = await server.post(
      '/compute/aws/cpu',
      cpu,
      authorization ? { authorization } : {},
    );
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe('Bearer');
    expect(body).toEqual({ error: 'unauthorized', error_code: 'unauthorized', message });
  });

  it('authentication comes before routing: an unknown path without a key is 401, not 404', async () => {
    expect((await server.post('/nope', cpu)).status).toBe(401);
    expect((await server.post('/nope', cpu, { authorization: 'Bearer sk_live_1' })).status).toBe(404);
  });
});

describe('authorize omitted', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ datasets: defaultDatasets });
  });
  afterAll(() => server.close());

  it('the server is open, and an Authorization header is ignored', async () => {
    expect((await server.post('/compute/aws/cpu', cpu)).status).toBe(200);
    expect((await server.post('/compute/aws/cpu', cpu, { authorization: 'Bearer anything' })).status).toBe(
      200,
    );
  });
});

describe('the handler called directly (any Fetch runtime)', () => {
  const handler = createHandler({
    datasets: defaultDatasets,
    basePath: '/api/v1/',
    authorize: (key) => key === 'k',
  });
  const call = (path: string, init: RequestInit = {}) =>
    handler(
      new Request(`https://edge.example${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify(cpu),
        ...init,
      }),
    ).then(reply);

  it('serves routes under basePath', async () => {
    const { status, body } = await call('/api/v1/compute/aws/cpu');
    // 1 vCPU × 1 h × 0.0010442908 kg per CPU-hour (see routes.test.ts)
    expect(status).toBe(200);
    expect(body.co2e).toBe(0.0010442908);
    expect(body.emission_factor.data_quality_flags).toBe("['notable_methodological_variance']");
  });

  it('paths outside basePath are 404', async () => {
    expect((await call('/compute/aws/cpu')).status).toBe(404);
    expect((await call('/api/v10/compute/aws/cpu')).status).toBe(404);
  });

  it('401 without the key', async () => {
    expect(
      (await call('/api/v1/compute/aws/cpu', { headers: { 'content-type': 'application/json' } })).status,
    ).toBe(401);
  });
});
