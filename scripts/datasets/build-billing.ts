/**
 * Generates `datasets/billing/replication-factors.json`: CCF's per-service storage replication factors, per
 * provider, from `../shared/data/ccf/provider_constants.json` (vintage `ccf_trunk_2024_03`, the vintage of the
 * embedded CCF coefficients; see datasets/SOURCES.md). The billing rules (`datasets/billing/rules.json`) name these
 * factors by key. Deterministic: keys sorted, no timestamps.
 *
 *   npx tsx scripts/datasets/build-billing.ts      (CO2E_SHARED_DATA=… to read another folder)
 */
import { assert, isMain, readJson, repoPath, sharedPath, writeJson } from './lib';

const VINTAGE = 'ccf_trunk_2024_03';
const PROVIDERS = ['aws', 'azure', 'gcp'] as const;

export function buildBilling(): void {
  const constants = readJson(sharedPath('ccf', 'provider_constants.json')) as Record<
    string,
    Record<string, { REPLICATION_FACTORS?: Record<string, number> }>
  >;
  const vintage = constants[VINTAGE];
  assert(vintage !== undefined, `provider_constants.json has no vintage ${VINTAGE}`);
  const providers: Record<string, Record<string, number>> = {};
  for (const provider of PROVIDERS) {
    const factors = vintage[provider]?.REPLICATION_FACTORS;
    assert(factors !== undefined, `${VINTAGE}.${provider} has no REPLICATION_FACTORS`);
    const sorted: Record<string, number> = {};
    for (const key of Object.keys(factors).sort()) {
      const value = factors[key]!;
      assert(Number.isFinite(value) && value > 0, `${provider}.${key} is not a positive number`);
      sorted[key] = value;
    }
    sorted.DEFAULT ??= 1;
    providers[provider] = sorted;
  }
  writeJson(repoPath('datasets', 'billing', 'replication-factors.json'), {
    dataset: {
      id: 'ccf-replication-factors',
      version: '2024.03',
      source: 'CCF',
      source_dataset: `Cloud Carbon Footprint REPLICATION_FACTORS (${VINTAGE}: cloud-carbon-footprint commit b7a049c7d25c0022919ab9010199dd9e77aa4577, packages/aws|azure|gcp/src/domain/*FootprintEstimationConstants.ts)`,
      licence: 'Apache-2.0',
      attribution: 'Cloud Carbon Footprint, © 2021 Thoughtworks, Inc., Apache License 2.0',
    },
    providers,
  });
}

if (isMain(import.meta.url)) buildBilling();
