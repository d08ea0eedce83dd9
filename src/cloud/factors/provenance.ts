import type { CalculationMethod } from '../../core/estimate';
import { regionHostedSpelling } from '../../datasets/keys';
import type { CloudProvider, DatasetInfo } from '../../datasets/tables';
import type { CloudDatasets, CloudRegion } from '../../datasets/types';

/** How the cloud factors are named and sourced: the hosted API's naming, and whose dataset a factor came from. */

export const PROVIDER_LABEL: Readonly<Record<CloudProvider, string>> = {
  aws: 'AWS',
  azure: 'Azure',
  gcp: 'GCP',
};

/**
 * How the hosted API named a region in its factors: the provider in capitals and the region's hosted spelling,
 * for the activity id (`west_europe`) and, with `-`, for the name (`AZURE (west-europe)`).
 */
export function hostedRegionNaming(
  provider: CloudProvider,
  region: CloudRegion,
): { id: string; label: string } {
  const id = regionHostedSpelling(region.region, region.hosted_spelling);
  return { id, label: `${provider.toUpperCase()} (${id.replaceAll('_', '-')})` };
}

export const CLOUD_DATA_QUALITY_FLAGS: readonly string[] = ['notable_methodological_variance'];

// A record's own dataset (set by mergeDatasets) wins over the provider's, so an overriding factor reports its source.
export const coefficientsDataset = (provider: CloudProvider, datasets: CloudDatasets): DatasetInfo =>
  datasets.cloudCoefficients.get(provider)?.dataset ?? datasets.cloudCoefficients.info;
export const gridDataset = (region: CloudRegion, year: number, datasets: CloudDatasets): DatasetInfo =>
  region.grid_datasets?.[String(year)] ?? datasets.cloudRegions.info;

/** GWP basis of the grid factors, reported as `co2e_calculation_method`. */
export const gridMethod = (datasets: CloudDatasets): CalculationMethod => datasets.cloudRegions.gwp;
