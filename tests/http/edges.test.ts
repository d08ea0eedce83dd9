import { createServer, type IncomingMessage, type RequestListener, request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { DROP_REST_BYTES } from '../../src/http/drop-rest';
import { createHandler, createNodeListener, toNodeListener } from '../../src/http/index';

/**
 * The two edges over one set of rules: `toNodeListener(createHandler(o))` (Web Request/Response) and
 * `createNodeListener(o)` (direct) answer every request alike, byte for byte, over real sockets.
 */

const options = {
  datasets: defaultDatasets,
  maxBatchSize: 5,
  maxBodyBytes: 2_000,
  authorize: (key: string) => key === 'good',
  onError: () => undefined,
};

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

const COMPARED_HEADERS = ['content-type', 'cache-control', 'allow', 'www-authenticate', 'connection'];

async function listen(listener: RequestListener) {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(
              COMPARED_HEADERS.map((name) => [name, response.headers[name] as string]),
            ),
            body: text,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

let fetchEdge: Awaited<ReturnType<typeof listen>>;
let directEdge: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  fetchEdge = await listen(toNodeListener(createHandler(options)));
  directEdge = await listen(createNodeListener(options));
});
afterAll(() => {
  for (const { server } of [fetchEdge, directEdge]) {
    server.close();
    server.closeAllConnections();
  }
});

const CPU = { cpu_count: 2, region: 'us_east_1', duration: 1 };
const SPEND = {
  activity: 'isic4_4711',
  spend_year: 2019,
  spend_region: 'DE',
  money: 100,
  money_unit: 'eur',
};
const path = fc.oneof(
  fc.constantFrom(
    '/compute/aws/cpu',
    '/compute/aws/cpu/batch',
    '/compute/gcp/memory',
    '/compute/nope/cpu',
    '/procurement/spend',
    '/procurement/spend/batch',
    '/compute/aws/./cpu',
    '/compute/aws/../aws/cpu',
    '/compute/%61ws/cpu',
    '/compute/aws/%63pu',
    '/compute/%2e%2e/compute/aws/cpu',
    '/compute/aws/cpu?x=1',
    '/compute/aws/cpu/',
    '////',
    '//x/compute/aws/cpu',
    '/',
  ),
  fc.webPath().filter((text) => text.startsWith('/')),
);
const body = fc.oneof(
  fc.constantFrom(
    JSON.stringify(CPU),
    JSON.stringify([CPU, { ...CPU, region: 'nowhere' }]),
    JSON.stringify(Array.from({ length: 6 }, () => CPU)),
    JSON.stringify(SPEND),
    JSON.stringify([SPEND, {}]),
    '',
    ' ',
    '{',
    'x'.repeat(2_001),
    '"\u00e9"',
    '{"__proto__":{"x":1}}',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? 'null'),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/ld+json',
  'application/json; charset=latin1',
  'text/plain',
  undefined,
);
const authorization = fc.constantFrom('Bearer good', 'bearer  good', 'Bearer bad', 'Basic x', undefined);
const method = fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE');

describe('the Fetch edge and the direct node edge', () => {
  it('answer every request with the same status, headers and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        contentType,
        authorization,
        body,
        fc.boolean(),
        async (verb, target, type, auth, text, chunked) => {
          const headers: Record<string, string> = {};
          if (type !== undefined) headers['content-type'] = type;
          if (auth !== undefined) headers.authorization = auth;
          if (chunked) headers['transfer-encoding'] = 'chunked';
          else if (verb !== 'GET') headers['content-length'] = String(Buffer.byteLength(text));
          const sent = verb === 'GET' ? '' : text;
          const viaFetch = await send(fetchEdge.port, verb, target, headers, sent);
          const direct = await send(directEdge.port, verb, target, headers, sent);
          expect(direct).toEqual(viaFetch);
          expect(direct.status).not.toBe(500);
        },
      ),
      { numRuns: 300 },
    );
  });

  // RFC 3986 §6.2.2.2: a percent-encoded unreserved character (letters, digits, - . _ ~) is the character itself, in
  // any segment; %2e%2e is a dot segment (WHATWG URL), resolved before routing; an encoded / is not a separator.
  it.each([
    ['/compute/%61ws/cpu', 200],
    ['/compute/aws/%63pu', 200],
    ['/%63ompute/aws/cpu', 200],
    ['/compute/aws/cpu/%62atch', 200],
    ['/compute/%2e%2e/compute/aws/cpu', 200],
    ['/compute/%2E%2E/compute/aws/cpu', 200],
    ['/compute/aws/./%43PU', 404],
    ['/compute/v%31/aws/cpu', 200],
    ['/compute/aws/cpu%2Fbatch', 404],
    ['/compute/aws%2Fcpu', 404],
  ])('%s is %d on both edges', async (target, status) => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer good' };
    const body = target.includes('atch') ? JSON.stringify([CPU]) : JSON.stringify(CPU);
    const viaFetch = await send(fetchEdge.port, 'POST', target, headers, body);
    const direct = await send(directEdge.port, 'POST', target, headers, body);
    expect(viaFetch.status).toBe(status);
    expect(direct).toEqual(viaFetch);
  });

  it.each(['fetch', 'direct'] as const)(
    '%s edge: a refused upload is read to its end, answered 413, and its kept-alive connection serves the next request',
    async (edge) => {
      const port = (edge === 'fetch' ? fetchEdge : directEdge).port;
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      const head = 'content-type: application/json\r\nauthorization: Bearer good\r\n';
      const refused = ' '.repeat(60_000); // 30 × maxBodyBytes, declared up front: refused before reading
      socket.write(
        `POST /compute/aws/cpu HTTP/1.1\r\nhost: x\r\n${head}content-length: ${refused.length}\r\n\r\n`,
      );
      socket.write(refused.slice(0, 20_000));
      await new Promise((resolve) => setTimeout(resolve, 50)); // the rest arrives after the rules decided
      socket.write(refused.slice(20_000));
      const cpu = JSON.stringify(CPU);
      socket.write(
        `POST /compute/aws/cpu HTTP/1.1\r\nhost: x\r\n${head}content-length: ${cpu.length}\r\n\r\n${cpu}`,
      );
      await expect.poll(() => received.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0).toBe(2);
      socket.destroy();
      const [first, second] = received.split(/(?=HTTP\/1\.1 \d{3})/);
      expect(first).toMatch(/^HTTP\/1\.1 413 /);
      expect(first).toContain('"error_code":"payload_too_large"');
      expect(first).not.toMatch(/connection: close/i);
      expect(second).toMatch(/^HTTP\/1\.1 200 /);
      expect(second).toContain('"co2e":0.0020885816');
    },
  );

  it.each(['fetch', 'direct'] as const)(
    '%s edge: a chunked upload more than 16 MB past the limit is answered 413 at once, and the connection closes',
    async (edge) => {
      const answer = await send(
        (edge === 'fetch' ? fetchEdge : directEdge).port,
        'POST',
        '/compute/aws/cpu',
        { 'content-type': 'application/json', authorization: 'Bearer good', 'transfer-encoding': 'chunked' },
        ' '.repeat(DROP_REST_BYTES + 100_000),
      ).catch((error: NodeJS.ErrnoException) => String(error.code));
      // Node's client either reads the answer or, still sending when the server closes, sees the reset.
      if (typeof answer === 'string') expect(answer).toBe('ECONNRESET');
      else {
        expect(answer.status).toBe(413);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.body).error_code).toBe('payload_too_large');
      }
    },
  );

  it('authorize and onError receive the IncomingMessage', async () => {
    const seen: IncomingMessage[] = [];
    const failures: unknown[] = [];
    const { server, port } = await listen(
      createNodeListener({
        datasets: defaultDatasets,
        authorize: (key, request) => {
          seen.push(request);
          if (key === 'throw') throw new Error('database down');
          return key === 'good';
        },
        onError: (error, request) => failures.push([error, request.url]),
      }),
    );
    try {
      const headers = { 'content-type': 'application/json' };
      const ok = await send(
        port,
        'POST',
        '/compute/aws/cpu',
        { ...headers, authorization: 'Bearer good' },
        JSON.stringify(CPU),
      );
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).co2e).toBe(0.0020885816); // 2 CPU-hours × 0.0010442908 kg
      expect(seen[0]?.url).toBe('/compute/aws/cpu');
      const broken = await send(
        port,
        'POST',
        '/compute/aws/cpu',
        { ...headers, authorization: 'Bearer throw' },
        '{}',
      );
      expect(broken.status).toBe(500);
      expect(JSON.parse(broken.body).error_code).toBe('internal_error');
      expect(failures).toEqual([[new Error('database down'), '/compute/aws/cpu']]);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('rejects limits above the ceilings, as createHandler does', () => {
    expect(() => createNodeListener({ datasets: defaultDatasets, maxBatchSize: 10_001 })).toThrow(
      new RangeError('maxBatchSize must be a whole number from 1 to 10000, got 10001.'),
    );
  });
});
