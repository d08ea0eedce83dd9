import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createNodeListener } from '../../src/http/index';
import { startServer, type TestServer } from './server';

/**
 * The hosted API's own request paths (`/compute/v1/{provider}/…`, `/procurement/v1/spend`, their batch forms and
 * `/…/v1/metadata`), a trailing slash, and a JSON body sent without a Content-Type, replayed over real HTTP on
 * loopback against both edges (createHandler through toNodeListener, and createNodeListener): a trailing slash and
 * a missing Content-Type change nothing, byte for byte. The v1 path answers as the unversioned route where the
 * hosted v1 shape is the same (instance, embodied and spend single requests, error bodies); batches and the
 * use-phase routes answer in the v1 shapes (tests/http/v1.test.ts).
 */

const CPU = { cpu_count: 4, region: 'us_east_1', duration: 30, duration_unit: 'min' };
const SPEND = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
  tax_margin: 0.19,
  trade_margin: 0.1,
  transport_margin: 0.02,
};
const CALLS: readonly (readonly [string, unknown])[] = [
  ['/compute/aws/instance', { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' }],
  ['/compute/aws/instance/batch', [{ instance: 't2.micro', region: 'us_east_1', duration: 1 }]],
  ['/compute/aws/cpu', CPU],
  ['/compute/aws/cpu/batch', [CPU, { ...CPU, cpu_count: -1 }]],
  ['/compute/gcp/memory', { region: 'europe_west1', data: 16, duration: 2 }],
  ['/compute/gcp/memory/batch', [{ region: 'europe_west1', data: 16, duration: 2 }]],
  [
    '/compute/azure/storage',
    { region: 'west_europe', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 1 },
  ],
  ['/compute/azure/storage/batch', [{ region: 'west_europe', storage_type: 'hdd', data: 2, duration: 1 }]],
  ['/compute/azure/networking', { region: 'westeurope', data: 100 }],
  [
    '/compute/azure/networking/batch',
    [
      { region: 'westeurope', data: 100 },
      { region: 'mars', data: 1 },
    ],
  ],
  ['/compute/aws/embodied', { instance: 'm5.large', instance_count: 3, duration: 24 }],
  ['/compute/aws/embodied/batch', [{ instance: 'm5.large', instance_count: 3, duration: 24 }]],
  ['/compute/aws/cpu', { ...CPU, region: 'nowhere' }], // an error body is the same too
  ['/procurement/spend', SPEND],
  ['/procurement/spend/batch', [SPEND, {}]],
];

/** `/compute/aws/cpu` → `/compute/v1/aws/cpu`, as the hosted API spells it. */
const hosted = (path: string) => path.replace(/^\/(compute|procurement)\//, '/$1/v1/');

/** A POST over node:http with exactly the given headers (fetch would add a Content-Type for a string body). */
function rawPost(url: string, path: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let webEdge: TestServer;
let nodeServer: Server;
let nodeUrl: string;
beforeAll(async () => {
  webEdge = await startServer({ datasets: defaultDatasets });
  nodeServer = createServer(createNodeListener({ datasets: defaultDatasets }));
  await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await webEdge.close();
  await new Promise<void>((resolve) => {
    nodeServer.close(() => resolve());
    nodeServer.closeAllConnections();
  });
});

const edges = () =>
  [
    ['createHandler', webEdge.url],
    ['createNodeListener', nodeUrl],
  ] as const;

describe.each(['createHandler', 'createNodeListener'])('%s edge', (edgeName) => {
  const url = () => edges().find(([name]) => name === edgeName)![1];
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    rawPost(url(), path, JSON.stringify(body), { 'content-type': 'application/json', ...headers });

  it.each(CALLS)(
    '%s: the /v1/ path, a trailing slash and no Content-Type answer alike',
    async (path, body) => {
      const plain = await post(path, body);
      expect(plain.status).toBe(
        path === '/compute/aws/cpu' && (body as typeof CPU).region === 'nowhere' ? 400 : 200,
      );
      const v1 = await post(hosted(path), body);
      expect(v1.status).toBe(plain.status);
      const sameShape = plain.status !== 200 || /\/(instance|embodied|spend)$/.test(path);
      if (sameShape) expect(v1.text).toBe(plain.text);
      else if (path.endsWith('/batch')) expect(Object.keys(JSON.parse(v1.text))).toEqual(['results']);
      else expect(JSON.parse(v1.text).activity_data.activity_unit).toBe('kWh');
      const variants: Array<[{ status: number; text: string }, { status: number; text: string }]> = [
        [await post(`${path}/`, body), plain],
        [await rawPost(url(), path, JSON.stringify(body), {}), plain], // no Content-Type at all
        [await post(`${hosted(path)}/`, body), v1],
        [await rawPost(url(), hosted(path), JSON.stringify(body), {}), v1],
      ];
      for (const [variant, expected] of variants) {
        expect(variant.status).toBe(expected.status);
        expect(variant.text).toBe(expected.text);
      }
    },
  );

  it('GET /compute/v1/metadata/ and /procurement/v1/metadata answer as the unversioned routes', async () => {
    for (const family of ['compute', 'procurement']) {
      const plain = await fetch(`${url()}/${family}/metadata`);
      const versioned = await fetch(`${url()}/${family}/v1/metadata/`);
      expect(versioned.status).toBe(200);
      expect(await versioned.text()).toBe(await plain.text());
    }
  });

  it('the hosted CPU path gives the hand-worked figure (see routes.test.ts), in kWh', async () => {
    // 4 vCPU × 0.5 h = 2 CPU-hour × 0.0010442908 kg = 0.0020885816 kg;
    // 2 CPU-hour × 2.12 W / 1000 × PUE 1.135 = 0.0048124 kWh, × grid 0.434 kg/kWh = 0.0020885816 kg
    const { status, text } = await post('/compute/v1/aws/cpu', CPU);
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({
      co2e: 0.0020885816,
      activity_data: { activity_value: 0.0048124, activity_unit: 'kWh' },
      emission_factor: { factor: 0.434 },
    });
  });

  it.each([
    '/compute/v2/aws/cpu',
    '/v1/compute/aws/cpu',
    '/compute/v1/v1/aws/cpu',
    '/compute/aws/cpu//',
    '/procurement/v1/spend/extra',
    '/compute/v1',
  ])('%s is still 404', async (path) => {
    expect((await post(path, CPU)).status).toBe(404);
  });

  it('a body without Content-Type must still be JSON (400 invalid_json); a non-JSON type is still 415', async () => {
    const bare = await rawPost(url(), '/compute/v1/aws/cpu', 'cpu_count=4', {});
    expect(bare.status).toBe(400);
    expect(JSON.parse(bare.text).error_code).toBe('invalid_json');
    const form = await rawPost(url(), '/compute/v1/aws/cpu', JSON.stringify(CPU), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });
});
