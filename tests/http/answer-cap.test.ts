import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import {
  ANSWER_SIZE,
  createHandler,
  createNodeListener,
  type NodeHandlerOptions,
} from '../../src/http/index';
import { calculateInstanceBatch } from '../../src/index';

/**
 * Issue 39 item 5: a batch answer is capped at `maxAnswerFactor` (default 200) times the request's bytes, or
 * 1,000,000 characters, whichever is more; past it the request gets a whole 400 `batch_too_large`, never a cut 200.
 */

// 1,000 instance elements: a 58,623-byte request whose answer is 2,745,671 characters (46.8 times the request).
const INSTANCES = Array.from({ length: 1_000 }, (_, index) => ({
  instance: 'm5.large',
  region: 'us_east_1',
  duration: (index % 24) + 1,
}));
const BODY = JSON.stringify(INSTANCES);
const ANSWER = JSON.stringify(calculateInstanceBatch('aws', INSTANCES, defaultDatasets));

const post = (handler: (request: Request) => Promise<Response>, body = BODY) =>
  handler(
    new Request('http://localhost/compute/aws/instance/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );

describe('the answer-size cap (issue 39 item 5)', () => {
  it('the request and answer sizes the cases below rest on', () => {
    expect(BODY.length).toBe(58_623);
    expect(ANSWER.length).toBe(2_745_671);
  });

  it('the default cap is 200 times the request, at least 1,000,000 characters', () => {
    expect(ANSWER_SIZE).toEqual({ factor: 200, floor: 1_000_000 });
  });

  it('an answer within the cap arrives whole (factor 47: cap 2,755,281 characters)', async () => {
    const handler = createHandler({ datasets: defaultDatasets, maxBatchSize: 1_000, maxAnswerFactor: 47 });
    const response = await post(handler);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(ANSWER);
  });

  it('an answer past the cap is one 400 batch_too_large naming the cap (factor 46: 2,696,658)', async () => {
    const handler = createHandler({ datasets: defaultDatasets, maxBatchSize: 1_000, maxAnswerFactor: 46 });
    const response = await post(handler);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      error: 'bad_request',
      error_code: 'batch_too_large',
      message:
        "The answer would be longer than 2696658 characters (46 times the request's bytes); send fewer elements per batch.",
      path: 'requests',
    });
    expect(body.message!.length).toBeLessThanOrEqual(200);
  });

  it('the floor lets a small request have a 1,000,000-character answer whatever the factor', async () => {
    const small = JSON.stringify(INSTANCES.slice(0, 300)); // 17,584 bytes, answer 823,707 characters
    const handler = createHandler({ datasets: defaultDatasets, maxBatchSize: 1_000, maxAnswerFactor: 1 });
    const response = await post(handler, small);
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBe(823_707);
  });

  it('the v1 envelope counts toward the cap like the array', async () => {
    const handler = createHandler({ datasets: defaultDatasets, maxAnswerFactor: 1 });
    const body = JSON.stringify(INSTANCES.slice(0, 100));
    const response = await handler(
      new Request('http://localhost/compute/v1/aws/instance/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(
      JSON.stringify({ results: calculateInstanceBatch('aws', INSTANCES.slice(0, 100), defaultDatasets) }),
    );
  });

  it('the direct node:http edge refuses the same way, and stays usable', async () => {
    const options: NodeHandlerOptions = {
      datasets: defaultDatasets,
      maxBatchSize: 1_000,
      maxAnswerFactor: 46,
    };
    const server = createServer(createNodeListener(options));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/compute/aws/instance/batch`;
    try {
      const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error_code: string }).error_code).toBe('batch_too_large');
      const small = JSON.stringify(INSTANCES.slice(0, 10));
      const served = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: small,
      });
      expect(served.status).toBe(200);
      expect(await served.text()).toBe(
        JSON.stringify(calculateInstanceBatch('aws', INSTANCES.slice(0, 10), defaultDatasets)),
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('maxAnswerFactor %s is a RangeError', (factor) => {
    expect(() => createHandler({ datasets: defaultDatasets, maxAnswerFactor: factor })).toThrow(
      new RangeError(`maxAnswerFactor must be a whole number of at least 1, got ${factor}.`),
    );
  });

  it('createNodeListener takes an authorize that answers forbidden (403)', async () => {
    const authorize: NodeHandlerOptions['authorize'] = (key: string, request: IncomingMessage) =>
      key === 'reader' && request.url?.startsWith('/compute/') ? 'forbidden' : key === 'reader';
    const server = createServer(createNodeListener({ datasets: defaultDatasets, authorize }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (path: string, key: string) =>
      fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 }),
      });
    try {
      const forbidden = await send('/compute/aws/cpu', 'reader');
      expect(forbidden.status).toBe(403);
      expect(((await forbidden.json()) as { error_code: string }).error_code).toBe('forbidden');
      expect((await send('/compute/aws/cpu', 'other')).status).toBe(401);
      expect((await send('/procurement/spend', 'reader')).status).toBe(400); // let through: the body is not spend
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
