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
import { CALCULATORS, type CalculatorId } from '../src/calculators';
import { hasElectricityView } from '../src/cloud/electricity';
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
import { ClassifiedActivity, IdentifiedActivity } from '../src/spend/spend.schema';

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

const CALCULATOR_IDS = Object.keys(CALCULATORS) as CalculatorId[];

/** `calculateCpu` → `Cpu`: the stem of the calculator's operation and schema names. */
const stem = (id: CalculatorId) => CALCULATORS[id].name.slice('calculate'.length);

/** The response schema of the calculators whose result is not an estimate; an estimate is `WireEstimate` or `Estimate`. */
const OWN_RESULT: Partial<Record<CalculatorId, string>> = {
  instance: 'InstanceEstimate',
  spend: 'SpendEstimate',
};
const responseName = (id: CalculatorId) =>
  OWN_RESULT[id] ?? (CALCULATORS[id].wireFlags ? 'WireEstimate' : 'Estimate');

/** SPEC.md's endpoint table lists the whole virtual machine first, then the registry's order. */
const ROUTE_ORDER = [...CALCULATOR_IDS].sort((a, b) => Number(b === 'instance') - Number(a === 'instance'));

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

/** The OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  // The unversioned routes (SPEC.md's shapes), then the hosted API's /v1/ spelling (the hosted v1 shapes).
  for (const version of ['', '/v1']) {
    const id = (name: string) => (version === '' ? name : `${name}V1`);
    const batchResults = version === '' ? unversionedBatchResults : v1BatchResults;
    for (const calculator of ROUTE_ORDER) {
      const { path: route, summary: unversionedSummary } = CALCULATORS[calculator];
      // The v1 use-phase routes answer kWh with a source trail (src/http/v1/cloud.ts); the others as unversioned.
      const v1Electricity = version !== '' && hasElectricityView(calculator);
      const summary = v1Electricity
        ? `${unversionedSummary} v1: activity_data is the electricity in kWh (PUE included), the factor the grid's kg per kWh, with a source_trail.`
        : unversionedSummary;
      const response = ref(v1Electricity ? 'V1Estimate' : responseName(calculator));
      const request = ref(`${stem(calculator)}Request`);
      const path = route.replace(/^\/(\w+)/, `/$1${version}`);
      const parameters = route.includes('{provider_id}') ? [PROVIDER_PARAMETER] : [];
      const entry = CALCULATORS[calculator];
      paths[path] = operation(id(entry.name), summary, request, response, parameters);
      paths[`${path}/batch`] = operation(
        id(`${entry.name}Batch`),
        'batchSummary' in entry
          ? entry.batchSummary
          : `${summary} A batch: results in request order, a failed element is its error body.`,
        batch(request),
        batchResults(response),
        parameters,
      );
    }
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
              ...Object.fromEntries(
                CALCULATOR_IDS.map((calculator) => [
                  `${stem(calculator)}Request`,
                  CALCULATORS[calculator].schema,
                ]),
              ),
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
