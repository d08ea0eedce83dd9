import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCcfApp } from '../../scripts/datasets/build-ccf-app';
import { buildCloud } from '../../scripts/datasets/build-cloud';
import { writeHostedApi2021 } from '../../scripts/datasets/build-hosted-api-2021';
import { buildHostedApi2021Instances } from '../../scripts/datasets/build-hosted-api-2021-instances';
import { skipWithoutSharedData } from '../shared-data';

const committed = resolve(__dirname, '../../datasets/cloud');

// The builders read ../shared/data (or CO2E_SHARED_DATA), as tests/shared-data.ts does.
describe.skipIf(skipWithoutSharedData)('the cloud table builders', () => {
  // Made and removed by the suite's own hooks: a skipped suite (no ../shared/data) runs neither, so leaves nothing.
  let outDir = '';
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'co2e-cloud-build-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

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

  // They read the committed default tables, so a change there that was not carried into them fails here: the
  // hosted-api-2021 instance table once missed 506 of today's types and the derived figures of 102 AWS types.
  it('regenerate the tables derived from the default ones byte for byte (hosted-api-2021, CCF app)', () => {
    const derivedDir = mkdtempSync(join(tmpdir(), 'co2e-cloud-derived-'));
    try {
      writeHostedApi2021({ outDir: derivedDir });
      buildHostedApi2021Instances({ outDir: derivedDir });
      buildCcfApp({ outDir: derivedDir });
      for (const name of [
        'regions-hosted-api-2021.json',
        'instances-hosted-api-2021.json',
        'coefficients-ccf-app.json',
        'instances-ccf-app.json',
      ])
        expect(readFileSync(join(derivedDir, name), 'utf8'), name).toBe(
          readFileSync(join(committed, name), 'utf8'),
        );
    } finally {
      rmSync(derivedDir, { recursive: true, force: true });
    }
  }, 60_000);
});
