import openApiJson from '../../../openapi.json';

/**
 * The OpenAPI 3.1 document of the routes (openapi.json at the package root, generated from the zod schemas by
 * scripts/generate-openapi.ts), served at `GET /openapi.json`.
 */
export const openApiDocument: unknown = openApiJson;
