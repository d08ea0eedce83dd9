import { type Decimal, add, decimal, mul, sub } from '../../core/decimal';
import { EmissionsError, messages } from '../../core/errors';
import type { FactorMetadata } from '../../core/estimate';
import { factorId, factorIdWithLast } from '../../core/factor-id';
import { createMemo } from '../../core/memo';
import type { CloudProvider } from '../../datasets/tables';
import type {
  CloudCoefficients,
  CloudDatasets,
  CloudRegion,
  PublishedCloudFactor,
} from '../../datasets/types';
import { CLOUD_DATA_QUALITY_FLAGS, coefficientsDataset, gridDataset, hostedRegionNaming } from './provenance';
import { pueAt } from '../pue';

/**
 * Use-phase factors of the Cloud Carbon Footprint method, with their metadata: kg CO2e per activity unit =
 * energy per unit × PUE × grid factor (region, year), or the factor the regions table states itself; and the grid
 * factor (kg per kWh) the instance calculator multiplies by its energy. Each derived once per datasets and key.
 */

/** A factor (kg per activity unit) with its metadata, derived once per dataset and key. */
export interface CloudFactor {
  factor: Decimal;
  metadata: FactorMetadata;
}

/** Grid factor in kg CO2e per kWh for the region and year, or `no_emission_factors_found` listing the years. */
export function gridFactor(region: CloudRegion, year: number): Decimal {
  const value = region.grid_factors[String(year)];
  if (value === undefined) {
    const valid = Object.keys(region.grid_factors)
      .map(Number)
      .sort((a, b) => a - b);
    throw new EmissionsError(
      'no_emission_factors_found',
      messages.noFactorForYear(`region '${region.region}'`, year, valid),
      {
        path: 'year',
        valid_values: valid,
      },
    );
  }
  return decimal(value);
}

const KILOWATTS_PER_WATT = decimal('0.001');

/** Average watts per vCPU at utilisation u: Wmin + u·(Wmax − Wmin). */
export function wattsPerVcpu(coefficients: CloudCoefficients, utilization: Decimal): Decimal {
  const min = decimal(coefficients.min_watts);
  const max = decimal(coefficients.max_watts);
  return add(min, mul(utilization, sub(max, min)));
}

/** kWh per vCPU-hour at utilisation u, before PUE. */
export const kwhPerVcpuHour = (coefficients: CloudCoefficients, utilization: Decimal): Decimal =>
  mul(wattsPerVcpu(coefficients, utilization), KILOWATTS_PER_WATT);

/**
 * A use-phase factor (kg per activity unit) = energy per unit × PUE × grid, as CCF does. The PUE is the region's
 * where the coefficients have one (`pue_by_region`: CCF's GCP figures in `ccfAppDatasets`), else the provider's.
 */
export function usePhaseFactor(
  kwhPerUnit: Decimal,
  coefficients: CloudCoefficients,
  grid: Decimal,
  region: CloudRegion,
): Decimal {
  return mul(mul(kwhPerUnit, decimal(pueAt(coefficients, region.region))), grid);
}

export type UsePhaseKind = 'cpu' | 'memory' | 'storage' | 'networking';

const USE_PHASE_LABEL: Readonly<Record<UsePhaseKind, string>> = {
  cpu: 'CPU',
  memory: 'Memory',
  storage: 'Storage',
  networking: 'Networking',
};

/** The resource as the hosted API's factor names end (`… CPU`, `… memory`, `… SSD storage`, `… networking`). */
const HOSTED_RESOURCE_NAME: Readonly<Record<UsePhaseKind, string>> = {
  cpu: 'CPU',
  memory: 'memory',
  storage: 'storage',
  networking: 'networking',
};

/**
 * Factor metadata of a CCF use-phase factor, named as the hosted API named its factors: `AWS (us-east-1) CPU`,
 * `cpu-provider_aws-region_us_east_1`; `AZURE (west-europe) memory`, `memory-provider_azure-region_west_europe`;
 * `GCP (europe-west-1) SSD storage`, `storage-provider_gcp-region_europe_west_1-type_ssd`.
 */
export function usePhaseMetadata(
  kind: UsePhaseKind,
  provider: CloudProvider,
  region: CloudRegion,
  year: number,
  datasets: CloudDatasets,
  variant?: { label: string; id: string },
  /** What else determines the factor's value (the CPU utilisation), so that its id differs. */
  identity = '',
): FactorMetadata {
  // Everything but the id is the same for every identity (utilisation) of a kind, region and year: built once.
  const shared = usePhaseMetadataParts.get(
    [datasets.cloudCoefficients, datasets.cloudRegions],
    [kind, provider, region.region, year, variant?.id, variant?.label],
    () => {
      const coefficients = coefficientsDataset(provider, datasets);
      const grid = gridDataset(region, year, datasets);
      const naming = hostedRegionNaming(provider, region);
      const activityId = `${kind}-provider_${provider}-region_${naming.id}${variant ? `-type_${variant.id}` : ''}`;
      return {
        metadata: {
          name: `${naming.label} ${variant ? `${variant.label} ` : ''}${HOSTED_RESOURCE_NAME[kind]}`,
          id: '',
          activity_id: activityId,
          access_type: 'public',
          source: coefficients.source,
          source_dataset: `${coefficients.source_dataset}; grid: ${grid.source_dataset}`,
          year,
          region: region.location,
          category: `Cloud Computing - ${USE_PHASE_LABEL[kind]}`,
          source_lca_activity: 'use_phase',
          data_quality_flags: [],
        },
        idOf: factorIdWithLast([
          coefficients.id,
          coefficients.version,
          grid.id,
          grid.version,
          activityId,
          year,
        ]),
      };
    },
  );
  return { ...shared.metadata, id: shared.idOf(identity), data_quality_flags: [...CLOUD_DATA_QUALITY_FLAGS] };
}

/** A use-phase factor's metadata without its id, and the id for each identity, per kind, region and year. */
const usePhaseMetadataParts = createMemo<{
  metadata: FactorMetadata;
  idOf: (identity: string) => string;
}>();

/** The resources a regions table may state its own factors for (`published_factors`). */
export type PublishedResource = keyof NonNullable<CloudRegion['published_factors']>;

/**
 * The factor the regions table states for a resource of the region in `year` (the hosted API's 2021 set), with the
 * publisher's own activity id, name and location code; undefined when it states none for that year, and the
 * calculator computes the factor instead.
 */
export function publishedFactor(
  region: CloudRegion,
  resource: PublishedResource,
  year: number,
  datasets: CloudDatasets,
): CloudFactor | undefined {
  const stated: PublishedCloudFactor | undefined = region.published_by_year
    ? region.published_by_year[String(year)]?.[resource]
    : region.published_factors?.[resource];
  if (stated === undefined || stated.year !== year) return undefined;
  const dataset = stated.dataset ?? gridDataset(region, year, datasets);
  const kind: UsePhaseKind = resource === 'storage_ssd' || resource === 'storage_hdd' ? 'storage' : resource;
  return {
    factor: decimal(stated.factor),
    metadata: {
      name: stated.name,
      id: factorId([dataset.id, dataset.version, stated.activity_id, year]),
      activity_id: stated.activity_id,
      access_type: 'public',
      source: dataset.source,
      source_dataset: dataset.source_dataset,
      year,
      region: stated.location,
      category: `Cloud Computing - ${USE_PHASE_LABEL[kind]}`,
      source_lca_activity: 'use_phase',
      data_quality_flags: [...CLOUD_DATA_QUALITY_FLAGS],
    },
  };
}

/** Factor metadata of a grid electricity factor (kg per kWh), used by the instance calculator. */
export function gridMetadata(
  provider: CloudProvider,
  region: CloudRegion,
  year: number,
  datasets: CloudDatasets,
): FactorMetadata {
  const grid = gridDataset(region, year, datasets);
  const naming = hostedRegionNaming(provider, region);
  const activityId = `electricity-supply_grid-provider_${provider}-region_${naming.id}`;
  return {
    name: `Electricity supplied from grid: ${naming.label}, zone ${region.grid_zone}`,
    id: factorId([grid.id, grid.version, activityId, year]),
    activity_id: activityId,
    access_type: 'public',
    source: grid.source,
    source_dataset: grid.source_dataset,
    year,
    region: region.location,
    category: 'Electricity',
    source_lca_activity: 'electricity_generation',
    data_quality_flags: [],
  };
}
