/**
 * The small library shared by the cloud table builders in this folder (one builder per embedded table in
 * `datasets/cloud/`; `scripts/datasets/build-cloud.ts` runs them all). Source reading, sorting and deterministic JSON
 * come from `scripts/datasets/lib.ts`; this adds what the cloud builders share: the CCF source versions and
 * attribution, the output folder and the checks and counts they print.
 */
import type { CloudProvider } from '../../../src/datasets/tables';
import { CLOUD_PROVIDERS } from '../../../src/datasets/tables';
import { assert, repoPath } from '../lib';

export const CCF_TRUNK = 'b7a049c7'; // cloud-carbon-footprint trunk 2024-03-25 (= core 0.17.3, aws 0.15.0, azure 1.8.0)
export const CCF_COEFFICIENTS_COMMIT = 'b0032d9'; // cloud-carbon-footprint/ccf-coefficients 2026-04-24
export const CCF_ATTRIBUTION = 'Cloud Carbon Footprint, © 2021 Thoughtworks, Inc., Apache License 2.0';

/** Where the cloud tables are written (the builders take another folder as `outDir`, as the tests do). */
export const CLOUD_OUT_DIR = repoPath('datasets/cloud');

export function assertUnique(label: string, keys: string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    assert(!seen.has(key), `${label}: duplicate ${key}`);
    seen.add(key);
  }
}

export function countByProvider(rows: { provider: CloudProvider }[]): string {
  return CLOUD_PROVIDERS.map((p) => `${p} ${rows.filter((r) => r.provider === p).length}`).join(', ');
}
