/**
 * `src/datasets/known.generated.ts` (the region and instance unions) is what `scripts/generate-known-types.ts`
 * makes of the committed tables, and the root entry imports none of it at run time.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_TYPES_FILE, knownTypesSource } from '../../scripts/generate-known-types';
import { cloudDatasets } from '../../src/embedded/cloud';
import { hostedApi2021RegionsTable } from '../../src/embedded/index';

const committed = readFileSync(resolve(__dirname, '../..', KNOWN_TYPES_FILE), 'utf8');

describe('the generated region and instance unions', () => {
  it('are up to date with datasets/cloud (else run `npx tsx scripts/generate-known-types.ts`)', () => {
    expect(committed).toBe(knownTypesSource());
  });

  it('hold every embedded region in each listed spelling and every instance type', () => {
    const literals = new Set([...committed.matchAll(/^ {2}\| '([^']+)';?$/gm)].map((match) => match[1]));
    for (const provider of ['aws', 'azure', 'gcp'] as const) {
      for (const id of cloudDatasets.cloudRegions.list(provider)) {
        const record = cloudDatasets.cloudRegions.get(provider, id);
        expect(literals).toContain(id);
        expect(literals).toContain(record?.region);
      }
      for (const instance of cloudDatasets.cloudInstances.list(provider))
        expect(literals).toContain(instance);
    }
    for (const row of hostedApi2021RegionsTable.regions) expect(literals).toContain(row.region);
    expect(literals).toContain('west_europe');
    expect(literals).toContain('europe_west_1');
  });

  it('are types only: the file has no run-time statement, and only type imports reach it', () => {
    expect(committed.replace(/\/\/.*$|\/\*\*.*\*\//gm, '').trim()).toMatch(
      /^(export type \w+ =(\n {2}\| '[^']+')+;\s*)+$/,
    );
    const importers = ['src/cloud/spellings.ts'].map((path) =>
      readFileSync(resolve(__dirname, '../..', path), 'utf8'),
    );
    for (const source of importers)
      expect(source).toMatch(/import type \{[^}]*\} from '\.\.\/datasets\/known\.generated'/);
  });
});
