import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandler, toNodeListener } from '../../src/http/index';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * The mounting recipes of docs/http.md, run for real: Express and Fastify serve on 127.0.0.1, Hono answers through
 * its own `fetch`. Each must give the same answer as the handler alone.
 *
 * cpu, 2 vCPU for 1 h in us-east-1 (2022): activity 2 CPU-hour; factor (0.74 + 0.5 × (3.5 − 0.74)) / 1000 ×
 * PUE 1.135 × grid 0.434 = 0.0010442908 kg per CPU-hour; co2e = 2 × 0.0010442908 = 0.0020885816 kg.
 */
const body = JSON.stringify({ cpu_count: 2, region: 'us_east_1', duration: 1 });
const post = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function expectCpuAnswer(
  status: number,
  json: { co2e: number; emission_factor: { data_quality_flags: unknown } },
) {
  expect(status).toBe(200);
  expect(json.co2e).toBe(0.0020885816);
  // The per-resource wire quirk survives the framework: the flags list as its text form.
  expect(json.emission_factor.data_quality_flags).toBe("['notable_methodological_variance']");
}

describe('mounting recipes of docs/http.md', () => {
  it('Express: app.use(path, toNodeListener(handler)) before express.json()', async () => {
    const app = express();
    app.use('/co2e', toNodeListener(createHandler({ datasets: defaultDatasets })));
    app.use(express.json());
    app.post('/other', (request, response) => {
      response.json({ echoed: request.body });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;

    const response = await post(`http://127.0.0.1:${port}/co2e/compute/aws/cpu`);
    expectCpuAnswer(response.status, await response.json());
    // The app's own JSON routes still work after the mount.
    const other = await post(`http://127.0.0.1:${port}/other`);
    expect(await other.json()).toEqual({ echoed: JSON.parse(body) });
  });

  it('Fastify: an encapsulated scope without body parsing hands the raw request over', async () => {
    const listener = toNodeListener(createHandler({ datasets: defaultDatasets, basePath: '/co2e' }));
    const app = Fastify();
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/co2e/*', (request, reply) => {
        reply.hijack();
        listener(request.raw, reply.raw);
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;

    const response = await post(`http://127.0.0.1:${port}/co2e/compute/aws/cpu`);
    expectCpuAnswer(response.status, await response.json());
  });

  it('Hono: app.mount(path, handler) strips the prefix', async () => {
    const app = new Hono();
    app.mount('/co2e', createHandler({ datasets: defaultDatasets }));
    const response = await app.fetch(
      new Request('http://localhost/co2e/compute/aws/cpu', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expectCpuAnswer(response.status, await response.json());
  });

  it('Fetch-style runtime: the handler is the fetch function (Workers shape, key from env)', async () => {
    const worker = {
      fetch(request: Request, env: { CO2E_API_KEY: string }): Promise<Response> {
        return createHandler({ datasets: defaultDatasets, authorize: (key) => key === env.CO2E_API_KEY })(
          request,
        );
      },
    };
    const request = (key: string) =>
      new Request('http://localhost/compute/aws/cpu', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body,
      });
    const env = { CO2E_API_KEY: 'secret' };
    const ok = await worker.fetch(request('secret'), env);
    expectCpuAnswer(ok.status, await ok.json());
    expect((await worker.fetch(request('wrong'), env)).status).toBe(401);
  });
});
