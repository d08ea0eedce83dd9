import { CLOUD_PROVIDER_NAMES, listCapabilities } from '../capabilities';
import { regionRequestSpelling } from '../datasets/keys';
import type { CloudDatasets, SpendDatasets } from '../datasets/types';
import { routePath } from './routes';

/** The discovery routes: `GET /compute/metadata` and `GET /procurement/metadata`, also
 * under the hosted API's `/v1/` spelling (`/compute/v1/metadata`) and with a trailing slash. */
export type MetadataRoute = 'compute' | 'procurement';

/** The metadata route a path (below `basePath`) names, or undefined. */
export function matchMetadataRoute(pathname: string, basePath: string): MetadataRoute | undefined {
  const path = routePath(pathname, basePath);
  if (path === '/compute/metadata') return 'compute';
  if (path === '/procurement/metadata') return 'procurement';
  return undefined;
}

/**
 * The hosted API's compute metadata: per provider its full name, id, regions (in the request spelling) and instance
 * types; and, beside the hosted fields, `region_aliases`: for each listed region the other spellings that name it
 * (the provider's own id and the hosted API's split form: `westeurope` → `west_europe`), and where the datasets name
 * them, `unsupported_regions` and `excluded_instances` with their reasons.
 */
export function computeMetadata(datasets: CloudDatasets) {
  const providers =
    listCapabilities({
      cloudCoefficients: datasets.cloudCoefficients,
      cloudRegions: datasets.cloudRegions,
      cloudInstances: datasets.cloudInstances,
    }).cloud?.providers ?? [];
  return {
    providers: providers.map((provider) => {
      const regions = provider.regions.map((r) => ({
        listed: regionRequestSpelling(r.region),
        spellings: [r.region, ...r.aliases],
      }));
      return {
        provider_full_name: CLOUD_PROVIDER_NAMES[provider.provider],
        provider_id: provider.provider,
        regions: regions.map((r) => r.listed),
        virtual_machine_instances: provider.instances,
        region_aliases: Object.fromEntries(
          regions.map((r) => [r.listed, r.spellings.filter((spelling) => spelling !== r.listed)]),
        ),
        // Beyond the hosted shape: what the datasets leave out, and why.
        ...(provider.unsupported_regions && { unsupported_regions: provider.unsupported_regions }),
        ...(provider.excluded_instances && { excluded_instances: provider.excluded_instances }),
      };
    }),
  };
}

/** The procurement metadata: spend regions, currencies, factor currency and year, classification codes, coverage. */
export const procurementMetadata = (datasets: SpendDatasets) =>
  listCapabilities({
    spendFactors: datasets.spendFactors,
    classifications: datasets.classifications,
    fx: datasets.fx,
    margins: datasets.margins,
    inflation: datasets.inflation,
  }).spend;
