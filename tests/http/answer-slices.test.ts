import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createNodeListener, HANDLER_CEILINGS } from '../../src/http/index';
import { calculateInstanceBatch } from '../../src/index';

/**
 * Issue 39 item 5: a large batch answer is serialised 256 elements at a time and written a megabyte at a time
 * (bench/blocking.md has the latency figures); the text must stay exactly JSON.stringify of the results.
 */
describe('batch answers serialised and written in slices (issue 39 item 5)', () => {
  it('10,000 instance estimates (27 MB) arrive whole, byte for byte JSON.stringify of the batch', async () => {
    const server = createServer(
      createNodeListener({
        datasets: defaultDatasets,
        maxBatchSize: HANDLER_CEILINGS.maxBatchSize,
        maxBodyBytes: HANDLER_CEILINGS.maxBodyBytes,
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const requests = Array.from({ length: 10_000 }, (_, index) => ({
        instance: index % 2 === 0 ? 'm5.large' : 't2.micro',
        region: 'us_east_1',
        duration: (index % 24) + 1,
      }));
      const response = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/compute/aws/instance/batch`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(requests),
        },
      );
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text.length).toBeGreaterThan(20_000_000);
      expect(text).toBe(JSON.stringify(calculateInstanceBatch('aws', requests, defaultDatasets)));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
