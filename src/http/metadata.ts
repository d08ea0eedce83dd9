import { CLOUD_PROVIDER_NAMES, coverageGaps, listCapabilities } from '../capabilities';
import { CLOUD_PROVIDERS } from '../datasets/constants';
import type { CloudDatasets, SpendDatasets } from '../datasets/types';

/** The discovery routes: `GET /compute/metadata` (also `/compute/v1/metadata`) and `GET /procurement/metadata`. */
export type MetadataRoute = 'compute' | 'procurement';

/** The metadata route a path (below `basePath`) names, or undefined. */
export function matchMetadataRoute(pathname: string, basePath: string): MetadataRoute | undefined {
  const path =
    basePath !== '' && pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
  if (basePath !== '' && path === pathname) return undefined;
  if (path === '/compute/metadata' || path === '/compute/v1/metadata') return 'compute';
  if (path === '/procurement/metadata') return 'procurement';
  return undefined;
}

/**
 * The hosted API's compute metadata: per provider its full name, id, regions and instance types; then, where the
 * datasets name them, `unsupported_regions` and `excluded_instances` with their reasons.
 */
export function computeMetadata(datasets: CloudDatasets) {
  return {
    providers: CLOUD_PROVIDERS.filter(
      (provider) => datasets.cloudCoefficients.get(provider) !== undefined,
    ).map((provider) => ({
      provider_full_name: CLOUD_PROVIDER_NAMES[provider],
      provider_id: provider,
      regions: [...datasets.cloudRegions.list(provider)],
      virtual_machine_instances: [...datasets.cloudInstances.list(provider)],
      // Beyond the hosted shape: what the datasets leave out, and why.
      ...coverageGaps(datasets, provider),
    })),
  };
}

/** The procurement metadata: spend regions, currencies, factor currency and year, classification codes. */
export const procurementMetadata = (datasets: SpendDatasets) =>
  listCapabilities({
    spendFactors: datasets.spendFactors,
    classifications: datasets.classifications,
    fx: datasets.fx,
  }).spend;
