import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import { OPENAPI_FILE, openApiText } from '../../scripts/generate-openapi';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import type {
  ComputeMetadataSchema,
  ErrorBodySchema,
  EstimateSchema,
  InstanceEstimateSchema,
  ProcurementMetadataSchema,
  SpendEstimateSchema,
} from '../../src/http/openapi/responses';
import type { Capabilities, ErrorBody, Estimate, InstanceEstimate, SpendEstimate } from '../../src/index';
import { startServer, type TestServer } from './server';

/**
 * openapi.json: generated from the zod schemas (up to date with them), a valid OpenAPI 3.1 document by a
 * maintained validator, served at GET /openapi.json, and true to the wire: real responses of every route validate
 * against its schemas (Ajv, JSON Schema 2020-12), and the response schemas describe the library's result types.
 */

const committed = readFileSync(resolve(__dirname, '../..', OPENAPI_FILE), 'utf8');
const document = JSON.parse(committed) as {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string }>>;
  components: { schemas: Record<string, object> };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ datasets: defaultDatasets });
});
afterAll(() => server.close());

describe('openapi.json', () => {
  it('is what scripts/generate-openapi.ts writes (else run `npx tsx scripts/generate-openapi.ts`)', () => {
    expect(committed).toBe(openApiText());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route, unversioned and under /v1/, with unique operation ids', () => {
    const paths = Object.keys(document.paths);
    for (const calculator of ['instance', 'cpu', 'memory', 'storage', 'networking', 'embodied']) {
      for (const prefix of ['/compute', '/compute/v1']) {
        expect(paths).toContain(`${prefix}/{provider_id}/${calculator}`);
        expect(paths).toContain(`${prefix}/{provider_id}/${calculator}/batch`);
      }
    }
    for (const path of [
      '/procurement/spend',
      '/procurement/v1/spend/batch',
      '/compute/v1/metadata',
      '/openapi.json',
    ])
      expect(paths).toContain(path);
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is served at GET /openapi.json (and HEAD), 405 for POST, behind the API key like every route', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(document);
    const head = await fetch(`${server.url}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await server.post('/openapi.json', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const locked = createHandler({ datasets: defaultDatasets, authorize: (key) => key === 'k' });
    expect((await locked(new Request('http://x/openapi.json'))).status).toBe(401);
    const open = await locked(
      new Request('http://x/openapi.json', { headers: { authorization: 'Bearer k' } }),
    );
    expect(open.status).toBe(200);
  });
});

describe('real responses validate against the document’s schemas', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'https://co2e-engine.test/openapi.json' });
  const check = (schema: string, body: unknown) => {
    const validate = ajv.getSchema(`https://co2e-engine.test/openapi.json#/components/schemas/${schema}`);
    if (validate === undefined) throw new Error(`no schema ${schema}`);
    const valid = validate(body);
    expect(validate.errors ?? [], `${schema}: ${JSON.stringify(body).slice(0, 200)}`).toEqual([]);
    expect(valid).toBe(true);
  };
  const requestCheck = (schema: string, body: unknown, expected: boolean) => {
    const validate = ajv.getSchema(`https://co2e-engine.test/openapi.json#/components/schemas/${schema}`);
    expect(validate?.(body)).toBe(expected);
  };

  const CPU = { cpu_count: 4, region: 'us_east_1', duration: 30, duration_unit: 'min' };
  const SPEND = {
    activity: { classification_type: 'isic4', classification_code: '4711' },
    spend_year: 2023,
    spend_region: 'DE',
    money: 1000,
    money_unit: 'eur',
  };
  const CASES = [
    ['/compute/aws/cpu', 'CpuRequest', CPU, 'WireEstimate'],
    [
      '/compute/gcp/memory',
      'MemoryRequest',
      { region: 'europe_west1', data: 16, duration: 2 },
      'WireEstimate',
    ],
    [
      '/compute/azure/storage',
      'StorageRequest',
      { region: 'westeurope', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 1 },
      'WireEstimate',
    ],
    ['/compute/aws/networking', 'NetworkingRequest', { region: 'us_east_1', data: 100 }, 'WireEstimate'],
    [
      '/compute/aws/embodied',
      'EmbodiedRequest',
      { instance: 'm5.large', instance_count: 3, duration: 24 },
      'WireEstimate',
    ],
    [
      '/compute/aws/instance',
      'InstanceRequest',
      { instance: 't2.micro', region: 'us_east_1', duration: 1 },
      'InstanceEstimate',
    ],
    ['/procurement/spend', 'SpendRequest', SPEND, 'SpendEstimate'],
    [
      '/procurement/spend',
      'SpendRequest',
      { ...SPEND, audit_trail: 'disabled', tax_margin: -0.1 },
      'SpendEstimate',
    ],
  ] as const;

  it.each(CASES)(
    '%s: the request is valid and the response matches',
    async (path, requestSchema, body, responseSchema) => {
      requestCheck(requestSchema, body, true);
      const { status, body: answer } = await server.post(path, body);
      expect(status).toBe(200);
      check(responseSchema, answer);
      const batch = await server.post(`${path}/batch`, [body, { nonsense: true }]);
      expect(batch.status).toBe(200);
      check(responseSchema, batch.body[0]);
      check('ErrorBody', batch.body[1]);
    },
  );

  it.each(CASES)(
    'v1 %s: the single and batch answers match the v1 schemas',
    async (path, _requestSchema, body, unversionedSchema) => {
      const v1Path = path.replace(/^\/(compute|procurement)\//, '/$1/v1/');
      const useShape = /\/(cpu|memory|storage|networking)$/.test(path);
      const schema = useShape ? 'V1Estimate' : unversionedSchema;
      const single = await server.post(v1Path, body);
      expect(single.status).toBe(200);
      check(schema, single.body);
      const batch = await server.post(`${v1Path}/batch`, [body, { nonsense: true }]);
      const route = `${v1Path.replace(/\/(aws|gcp|azure)\//, '/{provider_id}/')}/batch`;
      const pointer = ['paths', route, 'post', 'responses', '200', 'content', 'application/json', 'schema']
        .map((segment) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1')))
        .join('/');
      const validate = ajv.getSchema(`https://co2e-engine.test/openapi.json#/${pointer}`);
      expect(validate?.(batch.body), JSON.stringify(validate?.errors)).toBe(true);
      expect(validate?.(batch.body.results)).toBe(false); // a bare array is not a v1 batch answer
      expect(Object.keys(batch.body)).toEqual(['results']);
      check(schema, batch.body.results[0]);
      check('ErrorBody', batch.body.results[1]);
    },
  );

  it('error bodies and metadata match', async () => {
    check('ErrorBody', (await server.post('/compute/aws/cpu', { ...CPU, region: 'mars' })).body);
    check('ErrorBody', (await server.post('/nowhere', {})).body);
    check('ComputeMetadata', await (await fetch(`${server.url}/compute/metadata`)).json());
    check('ProcurementMetadata', await (await fetch(`${server.url}/procurement/metadata`)).json());
  });

  it('the request schemas refuse what the calculators refuse (unknown fields, missing fields, bad types)', () => {
    requestCheck('CpuRequest', { ...CPU, cpus: 4 }, false);
    requestCheck('CpuRequest', { region: 'us_east_1', duration: 1 }, false);
    requestCheck('CpuRequest', { ...CPU, average_vcpu_utilization: 2 }, false);
    requestCheck(
      'SpendRequest',
      { ...SPEND, activity: { activity_id: 'x', classification_code: '1' } },
      false,
    );
    requestCheck('SpendRequest', { ...SPEND, activity: { activity_id: 'x' } }, true);
    requestCheck('SpendRequest', { ...SPEND, trade_margin: -0.1 }, false);
  });
});

describe('the response schemas describe the library’s result types', () => {
  it('every field a schema names has the result type’s type (a renamed or retyped field fails to compile)', () => {
    expectTypeOf<Estimate>().toExtend<z.output<typeof EstimateSchema>>();
    expectTypeOf<InstanceEstimate>().toExtend<z.output<typeof InstanceEstimateSchema>>();
    expectTypeOf<SpendEstimate>().toExtend<z.output<typeof SpendEstimateSchema>>();
    expectTypeOf<ErrorBody>().toExtend<z.output<typeof ErrorBodySchema>>();
    type Providers = z.output<typeof ComputeMetadataSchema>['providers'];
    expectTypeOf<Providers[number]['provider_id']>().toEqualTypeOf<'aws' | 'azure' | 'gcp'>();
    expectTypeOf<NonNullable<Capabilities['spend']>>().toExtend<z.output<typeof ProcurementMetadataSchema>>();
  });
});
