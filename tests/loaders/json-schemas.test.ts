import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { jsonSchemaFiles, SCHEMAS_DIR } from '../../scripts/generate-json-schemas';
import { META_SCHEMAS, TABLE_KINDS, TABLE_SCHEMAS } from '../../src/loaders/index';

const dir = resolve(__dirname, '../..', SCHEMAS_DIR);

describe('docs/schemas', () => {
  const generated = jsonSchemaFiles();

  it('has a table schema and a meta schema for every kind, and nothing else', () => {
    const expected = TABLE_KINDS.flatMap((kind) => [
      `${kind}.schema.json`,
      `${kind}.meta.schema.json`,
    ]).sort();
    expect([...generated.keys()].sort()).toEqual(expected);
    expect(readdirSync(dir).sort()).toEqual(expected);
  });

  it.each(TABLE_KINDS.flatMap((kind) => [`${kind}.schema.json`, `${kind}.meta.schema.json`]))(
    '%s is up to date with the zod schemas (else run `npx tsx scripts/generate-json-schemas.ts`)',
    (name) => {
      expect(readFileSync(resolve(dir, name), 'utf8')).toBe(generated.get(name));
    },
  );

  it('describes the same fields as the zod schemas', () => {
    for (const kind of TABLE_KINDS) {
      const table = JSON.parse(generated.get(`${kind}.schema.json`) as string) as {
        properties: object;
        required: string[];
        additionalProperties: boolean;
      };
      expect(Object.keys(table.properties).sort()).toEqual(Object.keys(TABLE_SCHEMAS[kind].shape).sort());
      expect(table.additionalProperties).toBe(false);
      const meta = JSON.parse(generated.get(`${kind}.meta.schema.json`) as string) as { properties: object };
      expect(Object.keys(meta.properties).sort()).toEqual(Object.keys(META_SCHEMAS[kind].shape).sort());
      expect(z.toJSONSchema(TABLE_SCHEMAS[kind]).required).toEqual(table.required);
    }
  });
});
