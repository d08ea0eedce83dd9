/**
 * Writes a JSON Schema for every table kind, generated from the zod schemas in `src/datasets/tables.ts`:
 *
 *   docs/schemas/<kind>.schema.json       the table as JSON (`parseTableJson`, `createTableDatasets`)
 *   docs/schemas/<kind>.meta.schema.json  the table-wide fields beside a CSV table (`parseTableCsv` meta)
 *
 *   npx tsx scripts/generate-json-schemas.ts
 *
 * tests/loaders/json-schemas.test.ts fails when the committed files differ from what this generates.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as z from 'zod';
import { META_SCHEMAS, TABLE_KINDS, TABLE_SCHEMAS, type TableKind } from '../src/loaders/table-kinds';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMAS_DIR = 'docs/schemas';

const TITLES: Record<TableKind, string> = {
  spendFactors: 'Spend factors: kg CO2e per unit of money per (product, region)',
  classifications: 'Classification codes mapped to the products of a spend factor table, with output weights',
  margins: 'Default tax, trade and transport margins per (region, product)',
  inflation: 'Annual inflation in percent per country (and optionally per sector) and year',
  fx: 'Annual average exchange rates: units of each currency per 1 USD',
  cloudCoefficients: 'Cloud Carbon Footprint coefficients per cloud provider',
  cloudRegions: 'Cloud provider regions with grid emission factors (kg CO2e per kWh) per year',
  cloudInstances: 'Cloud instance types with specs and host-platform embodied emissions',
};

/** File name → JSON text of every schema, in a fixed order. */
export function jsonSchemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const write = (name: string, schema: z.core.$ZodType, title: string, description: string) => {
    const { $schema, ...body } = z.toJSONSchema(schema);
    const json = { $schema, title, description, ...body };
    files.set(name, `${JSON.stringify(json, null, 2)}\n`);
  };
  for (const kind of TABLE_KINDS) {
    write(
      `${kind}.schema.json`,
      TABLE_SCHEMAS[kind],
      `co2e-engine ${kind} table`,
      `${TITLES[kind]}. The JSON form of a '${kind}' table, as read by parseTableJson('${kind}', ...) and createTableDatasets({ ${kind} }); see docs/guides/custom-datasets.md.`,
    );
    write(
      `${kind}.meta.schema.json`,
      META_SCHEMAS[kind],
      `co2e-engine ${kind} table-wide fields`,
      `The fields of a '${kind}' table besides its rows: the 'meta' of parseTableCsv('${kind}', ...) or the <name>.meta.json file beside a CSV table; see docs/guides/custom-datasets.md.`,
    );
  }
  return files;
}

function main(): void {
  const dir = resolve(REPO_ROOT, SCHEMAS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of jsonSchemaFiles()) {
    writeFileSync(resolve(dir, name), text);
    console.log(`wrote ${SCHEMAS_DIR}/${name}`);
  }
}

if (process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) main();
