/**
 * Writes openapi.json, the OpenAPI 3.1 document of the HTTP routes (docs/http.md), generated from the zod schemas:
 * the calculators' request schemas (src/cloud/*.schema.ts, src/spend/spend.schema.ts) and the response schemas
 * (src/http/openapi/responses.ts), each turned into JSON Schema 2020-12 by zod's `toJSONSchema`. The document is
 * shipped in the package (`co2e-engine/openapi.json`) and served by the handler at `GET /openapi.json`.
 *
 *   npx tsx scripts/generate-openapi.ts
 *
 * tests/http/openapi.test.ts fails when the committed file differs from what this generates, validates it with an
 * OpenAPI 3.1 validator, and checks real responses against its schemas.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as z from 'zod';
import { CpuRequest } from '../src/cloud/cpu.schema';
import { EmbodiedRequest } from '../src/cloud/embodied.schema';
import { InstanceRequest } from '../src/cloud/instance.schema';
import { MemoryRequest } from '../src/cloud/memory.schema';
import { NetworkingRequest } from '../src/cloud/networking.schema';
import { StorageRequest } from '../src/cloud/storage.schema';
import { CLOUD_PROVIDERS } from '../src/datasets/constants';
import {
  ComputeMetadataSchema,
  ErrorBodySchema,
  EstimateSchema,
  InstanceEstimateSchema,
  ProcurementMetadataSchema,
  SpendEstimateSchema,
  SourceTrailEntrySchema,
  V1EstimateSchema,
  WireEstimateSchema,
} from '../src/http/openapi/responses';
import { ClassifiedActivity, IdentifiedActivity, SpendRequest } from '../src/spend/spend.schema';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = 'openapi.json';

type JsonSchema = Record<string, unknown>;

/**
 * Schemas as JSON Schema 2020-12 (OpenAPI 3.1's dialect) under `#/components/schemas/<name>`, a schema used inside
 * another as a `$ref` to its own entry. Requests are described as a caller writes them (`io: 'input'`), responses as
 * sent (`io: 'output'`).
 */
function componentSchemas(
  schemas: Record<string, z.core.$ZodType>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(generated).map(([id, { $schema: _, $id: __, ...body }]) => [id, body as JsonSchema]),
  );
}

/** The spend request, whose `activity` is checked in a transform (one of two shapes) that JSON Schema cannot see. */
function withSpendActivity(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const spend = schemas['SpendRequest'] as { properties: Record<string, unknown> };
  spend.properties['activity'] = {
    oneOf: [ref('ClassifiedActivity'), ref('IdentifiedActivity')],
    description:
      'The activity: a classification code (`isic4`, `nace2`, `naics2017`, `mcc`, any case) or a factor activity_id.',
  };
  return schemas;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const CLOUD_ROUTES = [
  [
    'instance',
    'InstanceRequest',
    'InstanceEstimate',
    'A whole virtual machine: CPU, memory and embodied CPU.',
  ],
  ['cpu', 'CpuRequest', 'WireEstimate', 'vCPU use-phase electricity.'],
  ['memory', 'MemoryRequest', 'WireEstimate', 'Memory use-phase electricity.'],
  ['storage', 'StorageRequest', 'WireEstimate', 'SSD or HDD storage use-phase electricity.'],
  ['networking', 'NetworkingRequest', 'WireEstimate', 'Data transferred between data centres.'],
  [
    'embodied',
    'EmbodiedRequest',
    'WireEstimate',
    'Embodied (manufacturing) emissions of the CPUs of instances.',
  ],
] as const;

const ERROR_STATUSES = {
  '400': 'Invalid request, JSON, batch or provider (`error_code` says which).',
  '401': 'Missing or rejected API key (when the server has keys).',
  '403': 'A valid API key that is not allowed this operation (when `authorize` says `forbidden`).',
  '404': 'No such route, or the server has no datasets for it.',
  '405': 'Method not allowed.',
  '413': 'Body larger than the limit.',
  '415': 'A Content-Type that is not JSON.',
  '500': 'Internal error (fixed body, no detail).',
} as const;

const errorResponses = () =>
  Object.fromEntries(
    Object.keys(ERROR_STATUSES).map((status) => [status, { $ref: `#/components/responses/Error${status}` }]),
  );

const PROVIDER_PARAMETER = {
  name: 'provider_id',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: [...CLOUD_PROVIDERS] },
};

function operation(
  operationId: string,
  summary: string,
  requestSchema: object,
  responseSchema: object,
  parameters: object[],
) {
  return {
    post: {
      operationId,
      summary,
      ...(parameters.length > 0 && { parameters }),
      requestBody: { required: true, content: { 'application/json': { schema: requestSchema } } },
      responses: {
        '200': { description: 'The estimate.', content: { 'application/json': { schema: responseSchema } } },
        ...errorResponses(),
      },
    },
  };
}

const batch = (schema: object) => ({ type: 'array', items: schema });
const unversionedBatchResults = (schema: object) => ({
  type: 'array',
  items: { oneOf: [schema, ref('ErrorBody')] },
});
/** A v1 batch answer: the results in the hosted v1 envelope `{"results": […]}`. */
const v1BatchResults = (schema: object) => ({
  type: 'object',
  properties: { results: unversionedBatchResults(schema) },
  required: ['results'],
  additionalProperties: false,
});

/** The v1 use-phase routes answer kWh with a source trail (src/http/v1/cloud.ts); the others as unversioned. */
const V1_RESPONSE: Readonly<Record<string, string>> = {
  cpu: 'V1Estimate',
  memory: 'V1Estimate',
  storage: 'V1Estimate',
  networking: 'V1Estimate',
};

/** The OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  // The unversioned routes (SPEC.md's shapes), then the hosted API's /v1/ spelling (the hosted v1 shapes).
  for (const version of ['', '/v1']) {
    const id = (name: string) => (version === '' ? name : `${name}V1`);
    const batchResults = version === '' ? unversionedBatchResults : v1BatchResults;
    for (const [calculator, requestName, unversionedResponse, unversionedSummary] of CLOUD_ROUTES) {
      const v1Response = version === '' ? undefined : V1_RESPONSE[calculator];
      const responseName = v1Response ?? unversionedResponse;
      const summary =
        v1Response === undefined
          ? unversionedSummary
          : `${unversionedSummary} v1: activity_data is the electricity in kWh (PUE included), the factor the grid's kg per kWh, with a source_trail.`;
      const path = `/compute${version}/{provider_id}/${calculator}`;
      const name = calculator[0]!.toUpperCase() + calculator.slice(1);
      paths[path] = operation(id(`calculate${name}`), summary, ref(requestName), ref(responseName), [
        PROVIDER_PARAMETER,
      ]);
      paths[`${path}/batch`] = operation(
        id(`calculate${name}Batch`),
        `${summary} A batch: results in request order, a failed element is its error body.`,
        batch(ref(requestName)),
        batchResults(ref(responseName)),
        [PROVIDER_PARAMETER],
      );
    }
    paths[`/procurement${version}/spend`] = operation(
      id('calculateSpend'),
      'Procurement spend (GHG Protocol Scope 3 category 1), spend-based.',
      ref('SpendRequest'),
      ref('SpendEstimate'),
      [],
    );
    paths[`/procurement${version}/spend/batch`] = operation(
      id('calculateSpendBatch'),
      'Procurement spend, a batch: results in request order, a failed element is its error body.',
      batch(ref('SpendRequest')),
      batchResults(ref('SpendEstimate')),
      [],
    );
    for (const [family, schema, summary] of [
      ['compute', 'ComputeMetadata', 'Providers, regions (with their other spellings) and instance types.'],
      ['procurement', 'ProcurementMetadata', 'Spend regions, currencies and classification codes.'],
    ] as const) {
      paths[`/${family}${version}/metadata`] = {
        get: {
          operationId: id(`${family}Metadata`),
          summary,
          responses: {
            '200': { description: summary, content: { 'application/json': { schema: ref(schema) } } },
            ...errorResponses(),
          },
        },
      };
    }
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document.',
      responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': {} } } },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'co2e-engine HTTP API',
      version: '1.0.0',
      summary: "The hosted API's procurement spend and cloud computing endpoints, served by co2e-engine.",
      description:
        'Generated from the zod schemas by scripts/generate-openapi.ts; do not edit. Every route is also served ' +
        "under the hosted API's /v1/ spelling (listed too) in the hosted v1 shapes: batches answer " +
        '`{"results": […]}` (at most 100 operations), and cpu, memory, storage and networking answer the ' +
        "electricity in kWh with the grid's kg per kWh and a `source_trail` (docs/http.md lists every difference). " +
        'One trailing slash is tolerated. A body without a Content-Type is read as JSON. Per-resource cloud routes ' +
        "send `emission_factor.data_quality_flags` as the list's Python text form (a string); spend and instance " +
        'routes as a JSON array.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: '`npx co2e-engine serve`' }],
    // Open when the server has no keys, else a bearer key.
    security: [{}, { bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `Error${status}`,
          { description, content: { 'application/json': { schema: ref('ErrorBody') } } },
        ]),
      ),
      schemas: {
        ...withSpendActivity(
          componentSchemas(
            {
              CpuRequest,
              MemoryRequest,
              StorageRequest,
              NetworkingRequest,
              EmbodiedRequest,
              InstanceRequest,
              SpendRequest,
              ClassifiedActivity,
              IdentifiedActivity,
            },
            'input',
          ),
        ),
        ...componentSchemas(
          {
            Estimate: EstimateSchema,
            WireEstimate: WireEstimateSchema,
            V1Estimate: V1EstimateSchema,
            SourceTrailEntry: SourceTrailEntrySchema,
            InstanceEstimate: InstanceEstimateSchema,
            SpendEstimate: SpendEstimateSchema,
            ErrorBody: ErrorBodySchema,
            ComputeMetadata: ComputeMetadataSchema,
            ProcurementMetadata: ProcurementMetadataSchema,
          },
          'output',
        ),
      },
    },
  };
}

/** The file's text: two-space JSON and a final newline. */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  writeFileSync(resolve(REPO_ROOT, OPENAPI_FILE), openApiText());
  console.log(`wrote ${OPENAPI_FILE}`);
}
