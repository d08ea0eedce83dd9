import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSpend } from '../../scripts/datasets/build-spend';
import { SHARED_DATA, skipWithoutSharedData } from '../shared-data';

const committed = resolve(__dirname, '../../datasets/spend');

describe.skipIf(skipWithoutSharedData)('the spend table builders', () => {
  // Made and removed by the suite's own hooks: a skipped suite (no ../shared/data) runs neither, so leaves nothing.
  let outDir = '';
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'co2e-spend-build-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('regenerate every committed spend table byte for byte', () => {
    const { files } = buildSpend({ dataDir: SHARED_DATA, outDir });
    const built = files.map((f) => basename(f.path)).sort();
    expect(built).toEqual(readdirSync(committed).sort());
    for (const name of built)
      expect(readFileSync(join(outDir, name), 'utf8'), name).toBe(
        readFileSync(join(committed, name), 'utf8'),
      );
  });
});
