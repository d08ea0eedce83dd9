/**
 * The providers' instance lists we ship (`scripts/datasets/cloud/provider-lists.json`), which the freshness check
 * (`freshness.ts`) compares our instance tables with. Regenerate them with:
 *
 *   git -C <mirror of microsoft/aspire> show 59d405ff:src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs \
 *     > /tmp/AksNodeVmSizes.Generated.cs
 *   npx tsx scripts/datasets/cloud/provider-lists.ts /tmp/AksNodeVmSizes.Generated.cs
 *
 * - AWS: every `Instance Type` of ccf-coefficients' `data/aws-instances-latest-2026.csv` (b0032d9, `../shared/data`).
 * - GCP: every `Instance Type` of ccf-coefficients' `data/gcp-instances-latest-2026.csv`, and the C4D and N4D types of
 *   Google's general-purpose machine family page, which that list predates (`GCP_TURIN_SIZES` in `platform-specs.ts`).
 * - Azure: every size of microsoft/aspire 59d405ff `AksNodeVmSizes.Generated.cs` (MIT; generated from Azure Resource
 *   SKUs across the public regions: sizes of 2 vCPUs and 2 GB or more, no Basic tier).
 * Names only, sorted and deduplicated; without the Azure file the Azure list is kept as committed.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CloudProvider } from '../../../src/datasets/tables';
import { SOURCE_AWS_2026, SOURCE_GCP_2026 } from '../cloud-instance-additions';
import { compareStrings, isMain, readCsv, readJson, repoPath, sharedPath, writeJson } from '../lib';
import { gcpTurinSizes } from './platform-specs';

export const PROVIDER_LISTS_FILE = repoPath('scripts/datasets/cloud/provider-lists.json');
export const AZURE_LIST_SOURCE =
  'microsoft/aspire 59d405ff src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs (Azure Resource SKUs)';

export const GCP_LIST_SOURCE = `${SOURCE_GCP_2026}; C4D and N4D: https://cloud.google.com/compute/docs/general-purpose-machines (read 2026-11-27)`;

export interface ProviderLists {
  sources: Record<CloudProvider, string>;
  instances: Record<CloudProvider, string[]>;
}

const sorted = (names: Iterable<string>): string[] =>
  [...new Set([...names].map((name) => name.trim()).filter((name) => name !== ''))].sort(compareStrings);

/** The Azure size names of the aspire file's text (`Standard_D4s_v6 — 4 vCPUs — …` in its comments). */
export const azureSizesOf = (text: string): string[] =>
  sorted([...text.matchAll(/(Standard_[A-Za-z0-9_-]+) — \d+ vCPUs/g)].map((match) => match[1]!));

export function buildProviderLists(azureFile?: string): ProviderLists {
  const committed = existsSync(PROVIDER_LISTS_FILE)
    ? (readJson(PROVIDER_LISTS_FILE) as ProviderLists)
    : undefined;
  const azure =
    azureFile !== undefined
      ? azureSizesOf(readFileSync(azureFile, 'utf8'))
      : (committed?.instances.azure ?? []);
  return {
    sources: { aws: SOURCE_AWS_2026, azure: AZURE_LIST_SOURCE, gcp: GCP_LIST_SOURCE },
    instances: {
      aws: sorted(readCsv(sharedPath(SOURCE_AWS_2026)).map((r) => r['Instance Type'] ?? '')),
      azure,
      gcp: sorted([
        ...readCsv(sharedPath(SOURCE_GCP_2026)).map((r) => r['Instance Type'] ?? ''),
        ...gcpTurinSizes().map((size) => size.instance),
      ]),
    },
  };
}

if (isMain(import.meta.url)) writeJson(PROVIDER_LISTS_FILE, buildProviderLists(process.argv[2]));
