/**
 * The providers' instance and region lists we ship (`scripts/datasets/cloud/provider-lists.json`), which the freshness
 * check (`freshness.ts`) compares our instance and region tables with. Regenerate them with:
 *
 *   git -C <mirror of microsoft/aspire> show 59d405ff:src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs \
 *     > /tmp/AksNodeVmSizes.Generated.cs
 *   git -C <mirror of boto/botocore> show c870f2c1:botocore/data/partitions.json > /tmp/partitions.json
 *   git -C <mirror of MicrosoftDocs/reliability-docs> show 01021ab8:articles/reliability/regions-list.md \
 *     > /tmp/regions-list.md
 *   # the text of https://cloud.google.com/compute/docs/regions-zones ("Available regions and zones"), saved as
 *   # /tmp/regions-zones.md (a browser's "save as text" or any HTML-to-text tool; the zone names are in it)
 *   npx tsx scripts/datasets/cloud/provider-lists.ts /tmp/AksNodeVmSizes.Generated.cs \
 *     --aws-partitions /tmp/partitions.json --gcp-regions-zones /tmp/regions-zones.md --azure-regions /tmp/regions-list.md
 *
 * Instances:
 * - AWS: every `Instance Type` of ccf-coefficients' `data/aws-instances-latest-2026.csv` (b0032d9, `../shared/data`).
 * - GCP: every `Instance Type` of ccf-coefficients' `data/gcp-instances-latest-2026.csv`, and the C4D and N4D types of
 *   Google's general-purpose machine family page, which that list predates (`GCP_TURIN_SIZES` in `platform-specs.ts`).
 * - Azure: every size of microsoft/aspire 59d405ff `AksNodeVmSizes.Generated.cs` (MIT; generated from Azure Resource
 *   SKUs across the public regions: sizes of 2 vCPUs and 2 GB or more, no Basic tier).
 * Regions (the ones a customer can deploy to; see {@link awsRegionsOf}, {@link gcpRegionsOf}, {@link azureRegionsOf}):
 * - AWS: the region codes of the AWS SDK's partitions file (botocore `partitions.json`, Apache-2.0).
 * - GCP: the regions of the zones Google's "Regions and zones" page lists.
 * - Azure: the programmatic names of the "All" table of Microsoft's "Azure regions list" (CC BY 4.0), regions marked
 *   "coming soon" apart.
 * Names only, sorted and deduplicated; a list whose file is not given is kept as committed.
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

export const REGION_LIST_SOURCES: Readonly<Record<CloudProvider, string>> = {
  aws: 'boto/botocore c870f2c1 botocore/data/partitions.json (partitions aws, aws-cn, aws-eusc, aws-us-gov)',
  azure:
    'MicrosoftDocs/reliability-docs 01021ab8 articles/reliability/regions-list.md (https://learn.microsoft.com/azure/reliability/regions-list, 2025-09-23)',
  gcp: 'https://cloud.google.com/compute/docs/regions-zones, "Available regions and zones" (read 2026-11-27)',
};

export interface ProviderLists {
  sources: Record<CloudProvider, string>;
  instances: Record<CloudProvider, string[]>;
  region_sources: Record<CloudProvider, string>;
  regions: Record<CloudProvider, string[]>;
}

const sorted = (names: Iterable<string>): string[] =>
  [...new Set([...names].map((name) => name.trim()).filter((name) => name !== ''))].sort(compareStrings);

/** The Azure size names of the aspire file's text (`Standard_D4s_v6 — 4 vCPUs — …` in its comments). */
export const azureSizesOf = (text: string): string[] =>
  sorted([...text.matchAll(/(Standard_[A-Za-z0-9_-]+) — \d+ vCPUs/g)].map((match) => match[1]!));

/**
 * AWS region codes of the SDK's partitions file: the public, China, European Sovereign Cloud and GovCloud partitions,
 * without their `*-global` pseudo-regions; the isolated partitions (`aws-iso*`) are not open to customers.
 *
 * @example
 * awsRegionsOf('{"partitions":[{"id":"aws","regions":{"aws-global":{},"mx-central-1":{}}}]}'); // ['mx-central-1']
 */
export function awsRegionsOf(json: string): string[] {
  const { partitions } = JSON.parse(json) as {
    partitions: { id: string; regions: Record<string, unknown> }[];
  };
  return sorted(
    partitions
      .filter((partition) => !partition.id.startsWith('aws-iso'))
      .flatMap((partition) => Object.keys(partition.regions))
      .filter((region) => !region.endsWith('-global')),
  );
}

/**
 * GCP regions of the zone names (`europe-north2-a`, in backticks) on Google's "Regions and zones" page.
 *
 * @example
 * gcpRegionsOf('`europe-north2-a` Stockholm `europe-north2-b`'); // ['europe-north2']
 */
export const gcpRegionsOf = (text: string): string[] =>
  sorted([...text.matchAll(/`([a-z]+-[a-z]+\d+)-[a-z0-9]+`/g)].map((match) => match[1]!));

/**
 * Azure programmatic region names of the "All" table of the regions list (its last column), without the regions
 * marked "coming soon".
 *
 * @example
 * azureRegionsOf('#### [All](#tab/all)\n| Region | … | Programmatic name |\n|---|\n| Austria East | … | austriaeast |\n#### [Americas]');
 * // ['austriaeast']
 */
export function azureRegionsOf(markdown: string): string[] {
  const all = markdown.split('#### [All]')[1]?.split('#### [')[0] ?? '';
  return sorted(
    all
      .split('\n')
      .filter((line) => line.startsWith('|') && !line.includes('coming-soon'))
      .map(
        (line) =>
          line
            .split('|')
            .map((cell) => cell.trim())
            .filter((cell) => cell !== '')
            .at(-1) ?? '',
      )
      .filter((name) => /^[a-z0-9]+$/.test(name)),
  );
}

export interface ProviderListFiles {
  azureSizes?: string;
  awsPartitions?: string;
  gcpRegionsZones?: string;
  azureRegions?: string;
}

export function buildProviderLists(files: ProviderListFiles = {}): ProviderLists {
  const azureFile = files.azureSizes;
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
    region_sources: { ...REGION_LIST_SOURCES },
    regions: {
      aws: fromFile(files.awsPartitions, awsRegionsOf, committed?.regions?.aws),
      azure: fromFile(files.azureRegions, azureRegionsOf, committed?.regions?.azure),
      gcp: fromFile(files.gcpRegionsZones, gcpRegionsOf, committed?.regions?.gcp),
    },
  };
}

/** A list read from its file, or the committed one when no file is given. */
function fromFile(
  file: string | undefined,
  parse: (text: string) => string[],
  committed?: string[],
): string[] {
  return file === undefined ? (committed ?? []) : parse(readFileSync(file, 'utf8'));
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args[at + 1];
  };
  const positional = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
  writeJson(
    PROVIDER_LISTS_FILE,
    buildProviderLists({
      azureSizes: positional,
      awsPartitions: flag('--aws-partitions'),
      gcpRegionsZones: flag('--gcp-regions-zones'),
      azureRegions: flag('--azure-regions'),
    }),
  );
}
