import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createNodeListener, HANDLER_CEILINGS } from '../../src/http/index';
import { toWireEstimate } from '../../src/http/wire';
import { calculateCpuBatch, calculateInstanceBatch } from '../../src/index';

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

  it('answers written as bytes (wire batches; long texts, ASCII or not) arrive byte for byte', async () => {
    const server = createServer(createNodeListener({ datasets: defaultDatasets }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return Buffer.from(await response.arrayBuffer());
    };
    try {
      // 100 cpu estimates, the flags as the list's text: one piece of bytes from the byte writer.
      const cpu = Array.from({ length: 100 }, (_, index) => ({
        cpu_count: (index % 8) + 1,
        region: 'us_east_1',
        duration: 1,
      }));
      const cpuAnswer = calculateCpuBatch('aws', cpu, defaultDatasets).map((result) =>
        toWireEstimate(result as never),
      );
      expect((await post('/compute/aws/cpu/batch', cpu)).equals(Buffer.from(JSON.stringify(cpuAnswer)))).toBe(
        true,
      );
      // Instance answers are text: past 16,384 characters the node edge encodes them, as Latin-1 when all ASCII.
      for (const region of ['us_east_1', 'région-€-😀']) {
        const requests = Array.from({ length: 40 }, () => ({ instance: 'm5.large', region, duration: 1 }));
        const text = JSON.stringify(calculateInstanceBatch('aws', requests, defaultDatasets));
        expect(text.length).toBeGreaterThan(16_384);
        expect((await post('/compute/aws/instance/batch', requests)).equals(Buffer.from(text, 'utf8'))).toBe(
          true,
        );
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
