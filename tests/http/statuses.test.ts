import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';
import type { CloudRegionsProvider } from '../../src/datasets/types';
import { createHandler, createNodeListener } from '../../src/http/index';
import { reply, startServer, type TestServer } from './server';

/** Every status the handler sends, over real HTTP: 400, 401, 404, 405, 413, 415, and 500 for an engine fault. */

const cpu = { cpu_count: 1, region: 'us_east_1', duration: 1 };
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ datasets: defaultDatasets, maxBatchSize: 3, maxBodyBytes: 1000 });
});
afterAll(() => server.close());

const expectErrorBody = (body: any, status: number, error: string, errorCode: string) => {
  expect(body.error).toBe(error);
  expect(body.error_code).toBe(errorCode);
  expect(ERROR_CODES).toContain(body.error_code);
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toMatch(/\n\s+at /); // no stack trace
  void status;
};

describe('404 unknown route', () => {
  it.each([
    '/',
    '/compute/aws/gpu',
    '/compute/aws',
    '/compute/aws/cpu//',
    '/compute/aws/cpu/batch/batch',
    '/procurement/spend/extra',
    '/procurement',
    '/compute//cpu',
    '/compute/%E0%A4%A/cpu',
  ])('%s', async (path) => {
    const { status, body } = await server.post(path, cpu);
    expect(status).toBe(404);
    expectErrorBody(body, 404, 'not_found', 'not_found');
  });

  it('a long path is quoted in the message to its first 100 characters', async () => {
    const { status, body } = await server.post(`/${'a'.repeat(15_000)}`, cpu);
    expect(status).toBe(404);
    expect(body.message).toBe(
      `No route POST /${'a'.repeat(99)}…. See the endpoint list in the documentation.`,
    );
  });

  it('a route whose datasets the server lacks is not served', async () => {
    const cloudOnly = createHandler({
      datasets: {
        cloudCoefficients: defaultDatasets.cloudCoefficients,
        cloudRegions: defaultDatasets.cloudRegions,
        cloudInstances: defaultDatasets.cloudInstances,
      },
    });
    const post = (path: string, body: unknown) =>
      cloudOnly(
        new Request(`http://x${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const spend = await reply(await post('/procurement/spend', {}));
    expect(spend.status).toBe(404);
    expect(spend.body.message).toBe('This server has no spend datasets, so it does not serve spend routes.');
    expect((await post('/compute/aws/cpu', cpu)).status).toBe(200);
  });
});

describe('405 wrong method', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])('%s /compute/aws/cpu', async (method) => {
    const response = await fetch(`${server.url}/compute/aws/cpu`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    if (method !== 'HEAD')
      expectErrorBody(await response.json(), 405, 'method_not_allowed', 'method_not_allowed');
  });
  it.each(['/compute/metadata', '/procurement/metadata', '/openapi.json'])(
    'POST %s is 405 with Allow: GET, HEAD (HEAD is served too)',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expectErrorBody(await response.json(), 405, 'method_not_allowed', 'method_not_allowed');
      expect((await fetch(`${server.url}${path}`, { method: 'HEAD' })).status).toBe(200);
    },
  );
});

describe('415 not JSON', () => {
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'multipart/form-data',
  ])('%s', async (contentType) => {
    const { status, body } = await server.post('/compute/aws/cpu', cpu, { 'content-type': contentType });
    expect(status).toBe(415);
    expectErrorBody(body, 415, 'unsupported_media_type', 'unsupported_media_type');
  });

  it('no Content-Type at all: the body is read as JSON (the hosted API accepts it)', async () => {
    const response = await fetch(`${server.url}/compute/aws/cpu`, {
      method: 'POST',
      body: new TextEncoder().encode(JSON.stringify(cpu)),
    });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.status).toBe(200);
  });

  it.each([
    'application/json; charset=utf-8',
    'Application/JSON; charset="UTF-8"',
    'application/vnd.api+json',
  ])('accepts %s', async (contentType) => {
    const { status } = await server.post('/compute/aws/cpu', cpu, { 'content-type': contentType });
    expect(status).toBe(200);
  });
});

describe('415 content coding other than identity', () => {
  /** A raw POST over node's client (which sends Content-Encoding and Transfer-Encoding as given). */
  const post = (url: string, headers: Record<string, string>, body: Uint8Array) =>
    new Promise<{ status: number; body: any; acceptEncoding: string | undefined }>((resolve, reject) => {
      const request = httpRequest(`${url}/compute/aws/cpu`, { method: 'POST', headers, agent: false });
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(text),
            acceptEncoding: response.headers['accept-encoding'] as string | undefined,
          }),
        );
      });
      request.on('error', reject);
      request.end(body);
    });
  const json = new TextEncoder().encode(JSON.stringify(cpu));
  let direct: { url: string; close: () => void };
  beforeAll(async () => {
    const listening = createServer(createNodeListener({ datasets: defaultDatasets }));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    direct = {
      url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
      close: () => {
        listening.close();
        listening.closeAllConnections();
      },
    };
  });
  afterAll(() => direct.close());

  it.each([
    ['gzip', { 'content-encoding': 'gzip' }, gzipSync(json), 'gzip'],
    ['a plain body labelled gzip', { 'content-encoding': 'gzip' }, json, 'gzip'],
    ['Content-Encoding: br', { 'content-encoding': 'br' }, json, 'br'],
    ['Transfer-Encoding: gzip, chunked', { 'transfer-encoding': 'gzip, chunked' }, gzipSync(json), 'gzip'],
  ])('%s, on both edges', async (_, headers, bytes, coding) => {
    for (const url of [server.url, direct.url]) {
      const answer = await post(url, { 'content-type': 'application/json', ...headers }, bytes);
      expect(answer.status).toBe(415);
      expectErrorBody(answer.body, 415, 'unsupported_media_type', 'unsupported_media_type');
      expect(answer.body.message).toBe(
        `Content coding '${coding}' is not supported; send the body uncompressed (no Content-Encoding).`,
      );
      expect(answer.acceptEncoding).toBe('identity'); // RFC 9110 §15.5.16: the codings that would be accepted
    }
  });

  it.each([
    ['Content-Encoding: identity', { 'content-encoding': 'identity' }],
    ['Transfer-Encoding: chunked', { 'transfer-encoding': 'chunked' }],
  ])('%s is accepted', async (_, headers) => {
    for (const url of [server.url, direct.url]) {
      const answer = await post(url, { 'content-type': 'application/json', ...headers }, json);
      expect(answer.status).toBe(200);
    }
  });
});

describe('413 body too large (maxBodyBytes 1000)', () => {
  it('by Content-Length', async () => {
    const { status, body, headers } = await server.post('/compute/aws/cpu', ' '.repeat(1001));
    expect(status).toBe(413);
    expectErrorBody(body, 413, 'payload_too_large', 'payload_too_large');
    expect(body.message).toBe('The request body is larger than 1000 bytes.');
    // The refused body was read and dropped (it is well under 16 MB), so the connection stays usable.
    expect(headers.get('connection')).toBe('keep-alive');
  });

  it('counted while streaming, with no Content-Length (chunked upload)', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(300));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 4 × 300 bytes = 1200 > 1000: the handler stops reading after the fourth chunk
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/compute/aws/cpu`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('a lying Content-Length does not get past the count', async () => {
    const handler = createHandler({ datasets: defaultDatasets, maxBodyBytes: 10 });
    const request = new Request('http://x/compute/aws/cpu', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      body: JSON.stringify(cpu),
    });
    expect((await handler(request)).status).toBe(413);
  });

  it('a chunked body under the limit is read whole', async () => {
    const json = new TextEncoder().encode(JSON.stringify(cpu));
    const parts = [json.slice(0, 5), json.slice(5, 20), json.slice(20)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    const response = await fetch(`${server.url}/compute/aws/cpu`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    // 1 CPU-hour × 0.0010442908 kg (routes.test.ts)
    expect((await response.json()).co2e).toBe(0.0010442908);
  });

  it('exactly maxBodyBytes is accepted', async () => {
    const json = JSON.stringify(cpu);
    const { status } = await server.post('/compute/aws/cpu', json + ' '.repeat(1000 - json.length));
    expect(status).toBe(200);
  });

  it('a large upload is cut off without the server buffering it, and the server stays usable', async () => {
    const big = ' '.repeat(5_000_000);
    const first = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/compute/aws/cpu`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write(big.slice(0, 2000));
      request.end(big.slice(2000, 4000));
    });
    expect(first).toBe(413);
    expect((await server.post('/compute/aws/cpu', cpu)).status).toBe(200);
  });
});

describe('400', () => {
  it.each([
    ['{', 'The request body is not valid JSON:'],
    ['', 'The request body is empty; send a JSON value.'],
    ['   ', 'The request body is empty; send a JSON value.'],
    ['{"cpu_count": 1,}', 'The request body is not valid JSON:'],
    ['NaN', 'The request body is not valid JSON:'],
  ])('invalid_json for %j', async (text, message) => {
    const { status, body } = await server.post('/compute/aws/cpu', text);
    expect(status).toBe(400);
    expectErrorBody(body, 400, 'bad_request', 'invalid_json');
    expect(body.message.startsWith(message)).toBe(true);
  });

  it('an unknown field of 500,000 characters is quoted to its first 40, in message and path', async () => {
    const handler = createHandler({ datasets: defaultDatasets });
    const { status, body, text } = await reply(
      await handler(
        new Request('http://x/compute/aws/cpu', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...cpu, ['y'.repeat(500_000)]: 1 }),
        }),
      ),
    );
    expect(status).toBe(400);
    expect(body).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message: `Unknown field '${'y'.repeat(40)}…'.`,
      path: `${'y'.repeat(40)}…`,
    });
    expect(text.length).toBeLessThan(300);
  });

  it('invalid_json for bytes that are not UTF-8', async () => {
    const { status, body } = await server.post('/compute/aws/cpu', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(status).toBe(400);
    expect(body.error_code).toBe('invalid_json');
    expect(body.message).toBe('The request body is not valid UTF-8.');
  });

  it('batch_too_large above maxBatchSize (3); 3 is fine', async () => {
    const four = await server.post('/compute/aws/cpu/batch', [cpu, cpu, cpu, cpu]);
    expect(four.status).toBe(400);
    expect(four.body).toEqual({
      error: 'bad_request',
      error_code: 'batch_too_large',
      message: 'The batch has 4 elements; at most 3 are allowed.',
      path: 'requests',
    });
    expect((await server.post('/compute/aws/cpu/batch', [cpu, cpu, cpu])).status).toBe(200);
  });

  it('a batch must be an array', async () => {
    const { status, body } = await server.post('/compute/aws/cpu/batch', cpu);
    expect(status).toBe(400);
    expect(body.error_code).toBe('invalid_request');
    expect(body.path).toBe('requests');
  });

  it('an unsupported provider is one 400 for the whole batch, listing the providers', async () => {
    for (const path of ['/compute/ibm/cpu', '/compute/ibm/cpu/batch']) {
      const { status, body } = await server.post(path, path.endsWith('batch') ? [cpu] : cpu);
      expect(status).toBe(400);
      expect(body.error_code).toBe('unsupported_provider');
      expect(body.path).toBe('provider_id');
      expect(body.valid_values).toEqual(['aws', 'azure', 'gcp']);
    }
  });

  it('calculator errors carry path and valid_values', async () => {
    const { status, body } = await server.post('/compute/aws/cpu', { ...cpu, year: 1999 });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: 'bad_request',
      error_code: 'no_emission_factors_found',
      message:
        "No emission factor for region 'us-east-1' in year 1999. Valid years: 2021, 2022, 2023, 2024, 2025.",
      path: 'year',
      valid_values: [2021, 2022, 2023, 2024, 2025],
    });
  });

  it('a JSON value that is not an object', async () => {
    for (const json of ['null', '42', '"text"', JSON.stringify([cpu])]) {
      const { status, body } = await server.post('/compute/aws/cpu', json);
      expect(status).toBe(400);
      expect(body.error_code).toBe('invalid_request');
    }
  });
});

describe('500 only for engine faults, with no detail', () => {
  it('a dataset that throws a TypeError gives the fixed 500 body and is told to onError', async () => {
    const seen: unknown[] = [];
    const broken: CloudRegionsProvider = {
      ...defaultDatasets.cloudRegions,
      get: () => {
        throw new TypeError('secret internal detail');
      },
    };
    const faulty = await startServer({
      datasets: { ...defaultDatasets, cloudRegions: broken },
      onError: (error) => seen.push(error),
    });
    try {
      const { status, body, text } = await faulty.post('/compute/aws/cpu', cpu);
      expect(status).toBe(500);
      expect(body).toEqual({
        error: 'internal_server_error',
        error_code: 'internal_error',
        message: 'An internal error occurred. The request was not processed.',
      });
      expect(text).not.toContain('secret');
      expect(seen).toHaveLength(1);
      expect((seen[0] as Error).message).toBe('secret internal detail');
    } finally {
      await faulty.close();
    }
  });

  it('an onError that throws still gives the 500', async () => {
    const handler = createHandler({
      datasets: {
        ...defaultDatasets,
        cloudRegions: { ...defaultDatasets.cloudRegions, get: () => ({}) as never },
      },
      onError: () => {
        throw new Error('logger down');
      },
    });
    const response = await handler(
      new Request('http://x/compute/aws/cpu', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(cpu),
      }),
    );
    expect(response.status).toBe(500);
  });
});

describe('createHandler options', () => {
  it('calculation options reach the calculators (significantDigits: 4 rounds like the hosted API)', async () => {
    const handler = createHandler({ datasets: defaultDatasets, calculation: { significantDigits: 4 } });
    const response = await handler(
      new Request('http://x/compute/aws/cpu', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cpu_count: 2, region: 'us_east_1', duration: 1 }),
      }),
    );
    // 2 CPU-hour × 0.0010442908 = 0.0020885816 → 4 significant digits: 0.002089
    expect((await response.json()).co2e).toBe(0.002089);
  });

  it.each([
    [{ maxBatchSize: 0 }, 'maxBatchSize must be a whole number from 1 to 10000, got 0.'],
    [{ maxBatchSize: 1.5 }, 'maxBatchSize must be a whole number from 1 to 10000, got 1.5.'],
    [{ maxBatchSize: 10_001 }, 'maxBatchSize must be a whole number from 1 to 10000, got 10001.'],
    [{ maxBatchSize: 1_000_000 }, 'maxBatchSize must be a whole number from 1 to 10000, got 1000000.'],
    [{ maxBodyBytes: -1 }, 'maxBodyBytes must be a whole number from 1 to 10000000, got -1.'],
    [{ maxBodyBytes: Number.NaN }, 'maxBodyBytes must be a whole number from 1 to 10000000, got NaN.'],
    [{ maxBodyBytes: 10_000_001 }, 'maxBodyBytes must be a whole number from 1 to 10000000, got 10000001.'],
  ])('rejects %j', (options, message) => {
    expect(() => createHandler({ datasets: defaultDatasets, ...options })).toThrow(new RangeError(message));
  });
});
