import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateCpuBatch } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { createNodeListener } from '../../src/http/index';

// Issue 40 item 4: batch answers ready in one turn of the event loop are written together at its end. One answer
// that cannot be written (here its response's writeHead throws, as node's does when headers went out already)
// loses no other answer and does not take the server down.
describe('batch answers written together at the end of a turn', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const listener = createNodeListener({ datasets: defaultDatasets });
    server = createServer((request, response) => {
      if (request.url?.endsWith('?unwritable') === true)
        response.writeHead = () => {
          throw new Error('headers already sent');
        };
      listener(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const requests = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ cpu_count: index + 1, region: 'us_east_1', duration: 1 }));

  /** A POST on its own connection: the status and body, or the error the socket ended with. */
  const post = (path: string, body: unknown) =>
    new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
      const call = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString() }),
          );
          response.on('error', (error) => resolve({ error: error.message }));
        },
      );
      call.on('error', (error) => resolve({ error: error.message }));
      call.end(JSON.stringify(body));
    });

  it('answers many batches at once, each whole, and an unwritable one loses no other', async () => {
    const sizes = [1, 7, 20, 3, 12, 5];
    const answers = await Promise.all([
      ...sizes.map((size) => post('/compute/aws/cpu/batch', requests(size))),
      post('/compute/aws/cpu/batch?unwritable', requests(4)),
      ...sizes.map((size) => post('/compute/aws/cpu/batch', requests(size))),
    ]);
    const unwritable = answers.splice(sizes.length, 1)[0];
    expect(unwritable?.error).toMatch(/socket hang up|ECONNRESET/);
    answers.forEach((answer, index) => {
      expect(answer.status).toBe(200);
      const results = JSON.parse(answer.body ?? '') as Array<{ co2e: number }>;
      const expected = calculateCpuBatch(
        'aws',
        requests(sizes[index % sizes.length] as number),
        defaultDatasets,
      );
      expect(results.map((result) => result.co2e)).toEqual(
        expected.map((result) => (result as { co2e: number }).co2e),
      );
    });
    // The server still answers.
    expect((await post('/compute/aws/cpu/batch', requests(2))).status).toBe(200);
  });
});
