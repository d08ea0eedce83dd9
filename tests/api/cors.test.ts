/**
 * CORS (issue 10): off by default; with `cors`, preflights from allowed origins get 204 with the allowed methods
 * and headers, and responses carry the allow-origin header. Over real HTTP on loopback, and through `serve --cors`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import { cli, serveCli } from '../cli/harness';
import { startServer, type TestServer } from '../http/server';

const APP = 'https://app.example.com';
const preflight = (url: string, origin: string) =>
  fetch(`${url}/compute/aws/cpu`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
const cpu = (url: string, origin: string, key = 'k') =>
  fetch(`${url}/compute/aws/cpu`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 }),
  });

describe('cors on createHandler, over HTTP', () => {
  let open: TestServer;
  let closed: TestServer;
  let any: TestServer;
  beforeAll(async () => {
    const authorize = (key: string) => key === 'k';
    closed = await startServer({ datasets: defaultDatasets, authorize });
    open = await startServer({
      datasets: defaultDatasets,
      authorize,
      cors: { origins: [APP], maxAgeSeconds: 60 },
    });
    any = await startServer({ datasets: defaultDatasets, authorize, cors: { origins: '*' } });
  });
  afterAll(async () => {
    await Promise.all([open.close(), closed.close(), any.close()]);
  });

  it('is off by default: a preflight gets 405 and responses carry no CORS header', async () => {
    // The preflight has no API key, so without CORS it is refused before routing.
    const answer = await preflight(closed.url, APP);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const response = await cpu(closed.url, APP);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from an allowed origin with 204 and the allowed methods and headers, without a key', async () => {
    const answer = await preflight(open.url, APP);
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(answer.headers.get('access-control-max-age')).toBe('60');
    expect(answer.headers.get('vary')).toBe('Origin');
  });

  it('adds the allow-origin header to results and errors for an allowed origin; still checks the key', async () => {
    const ok = await cpu(open.url, APP);
    expect(ok.status).toBe(200);
    expect((await ok.json()).co2e).toBe(0.0010442908);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    const refused = await cpu(open.url, APP, 'wrong');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('gives an origin not allowed no CORS headers (the browser blocks it)', async () => {
    const answer = await preflight(open.url, 'https://evil.example');
    expect(answer.status).not.toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await cpu(open.url, 'https://evil.example')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it("with '*' allows any origin", async () => {
    const answer = await preflight(any.url, 'http://localhost:5173');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect((await cpu(any.url, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe(
      '*',
    );
  });

  it('rejects an origin with a path and a bad max age', () => {
    expect(() =>
      createHandler({ datasets: defaultDatasets, cors: { origins: ['https://a.example/app'] } }),
    ).toThrow(RangeError);
    expect(() =>
      createHandler({ datasets: defaultDatasets, cors: { origins: '*', maxAgeSeconds: -1 } }),
    ).toThrow(RangeError);
  });
});

describe('serve --cors', () => {
  it('serves with CORS for the given origin', async () => {
    const { url, stop } = await serveCli(['--cors', APP]);
    try {
      const answer = await preflight(url, APP);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  });

  it('a --cors origin with a path is a usage error (exit 2)', async () => {
    const result = await cli(['serve', '--port', '0', '--cors', 'https://a.example/app']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cors origin must be scheme://host[:port]');
  });
});
