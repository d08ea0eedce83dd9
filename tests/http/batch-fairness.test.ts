import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler, createNodeListener, HANDLER_CEILINGS, toNodeListener } from '../../src/http/index';

// Issue 23 item 8: at the ceilings, one batch of 10,000 unknown instance types held the event loop for 1.5-8.7 s,
// and every other request waited for it.
describe.each([
  ['createNodeListener', () => createNodeListener(options)],
  ['toNodeListener', () => toNodeListener(createHandler(options))],
])('a batch at the ceiling does not hold other requests (%s)', (_name, listener) => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer(listener());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, body: unknown) =>
    fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('single requests are answered within 250 ms while the batch runs; the batch is answered whole', async () => {
    const unknown = Array.from({ length: HANDLER_CEILINGS.maxBatchSize }, (_, index) => ({
      instance: `zz.unknown${index}`,
      region: 'us_east_1',
      duration: 1,
    }));
    let batchDone = 0;
    const batch = post('/compute/aws/instance/batch', unknown).then(async (response) => {
      batchDone = performance.now();
      return { status: response.status, body: (await response.json()) as Array<{ path: string }> };
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const latencies: number[] = [];
    let lastSingle = 0;
    for (let index = 0; index < 5; index++) {
      const start = performance.now();
      const response = await post('/compute/aws/cpu', { cpu_count: 1, region: 'us_east_1', duration: 1 });
      expect(response.status).toBe(200);
      await response.json();
      lastSingle = performance.now();
      latencies.push(lastSingle - start);
    }
    const answer = await batch;
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(HANDLER_CEILINGS.maxBatchSize);
    // Each element's error names its own index, across the slices the batch is computed in.
    expect(answer.body[0]?.path).toBe('requests[0].instance');
    expect(answer.body[9_999]?.path).toBe('requests[9999].instance');
    expect(Math.max(...latencies)).toBeLessThan(250);
    expect(lastSingle).toBeLessThan(batchDone);
  }, 60_000);
});

const options = {
  datasets: defaultDatasets,
  maxBatchSize: HANDLER_CEILINGS.maxBatchSize,
  maxBodyBytes: HANDLER_CEILINGS.maxBodyBytes,
};
