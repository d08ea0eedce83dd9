import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler, createNodeListener, toNodeListener } from '../../src/http/index';

/** One raw request (fetch cannot send TRACE, CONNECT or TRACK). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

// Issue 23 item 9: Fetch's Request refuses TRACE (and CONNECT, TRACK, which node:http itself does not hand to a
// listener), so toNodeListener answered TRACE with 500.
describe('methods the Fetch API forbids, through toNodeListener', () => {
  const servers: Server[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    const keyed = { datasets: defaultDatasets, authorize: (key: string) => key === 'k' };
    for (const listener of [
      toNodeListener(createHandler({ datasets: defaultDatasets })),
      createNodeListener({ datasets: defaultDatasets }),
      toNodeListener(createHandler(keyed)),
      createNodeListener(keyed),
    ]) {
      const server = createServer(listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each(['TRACE', 'trace'])(
    '%s on a route is 405 with Allow: POST, as createNodeListener answers',
    async (method) => {
      const [web, node] = [ports[0]!, ports[1]!];
      const answer = await send(web, method, '/compute/aws/cpu');
      expect(answer.status).toBe(405);
      expect(answer.allow).toBe('POST');
      expect(JSON.parse(answer.body)).toMatchObject({ error_code: 'method_not_allowed' });
      expect(answer.body).toContain(`Method TRACE is not allowed`);
      expect(answer).toEqual(await send(node, method, '/compute/aws/cpu'));
    },
  );

  it('TRACE on an unknown route is 404, and without a key 401, as createNodeListener answers', async () => {
    const missing = await send(ports[0]!, 'TRACE', '/nowhere');
    expect(missing.status).toBe(404);
    expect(missing).toEqual(await send(ports[1]!, 'TRACE', '/nowhere'));
    const anonymous = await send(ports[2]!, 'TRACE', '/compute/aws/cpu');
    expect(anonymous.status).toBe(401);
    expect(anonymous).toEqual(await send(ports[3]!, 'TRACE', '/compute/aws/cpu'));
    const keyed = await send(ports[2]!, 'TRACE', '/compute/aws/cpu', { authorization: 'Bearer k' });
    expect(keyed.status).toBe(405);
  });
});
