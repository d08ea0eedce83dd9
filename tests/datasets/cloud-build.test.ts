import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCloud } from '../../scripts/datasets/build-cloud';
import { skipWithoutSharedData } from '../shared-data';

const committed = resolve(__dirname, '../../datasets/cloud');
const outDir = mkdtempSync(join(tmpdir(), 'co2e-cloud-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

// The builders read ../shared/data (or CO2E_SHARED_DATA), as tests/shared-data.ts does.
describe.skipIf(skipWithoutSharedData)('the cloud table builders', () => {
  it('regenerate every table of build-cloud.ts byte for byte', async () => {
    const built = (await buildCloud({ outDir })).map((path) => basename(path)).sort();
    expect(built).toEqual([
      'coefficients.json',
      'instances.json',
      'regions-ccf.json',
      'regions-electricitymaps.json',
    ]);
    for (const name of built)
      expect(readFileSync(join(outDir, name), 'utf8'), name).toBe(
        readFileSync(join(committed, name), 'utf8'),
      );
  }, 60_000);
});
