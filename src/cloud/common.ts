import type * as z from 'zod/mini';
import { type Decimal, add, decimal, mul, sub } from '../core/decimal';
import { EmissionsError, messages } from '../core/errors';
import {
  type AuditTrail,
  buildEstimate,
  type CalculationMethod,
  type CalculationOptions,
  type Estimate,
  type FactorMetadata,
} from '../core/estimate';
import { factorId } from '../core/factor-id';
import { createMemo } from '../core/memo';
import { closestSpellings, spellingKey } from '../core/spelling';
import { parseRequest } from '../core/validate';
import { instanceKey, regionHostedSpelling, regionKey } from '../datasets/keys';
import { requireParts } from '../datasets/require';
import { CLOUD_PROVIDERS } from '../datasets/constants';
import type { CloudProvider, DatasetInfo } from '../datasets/tables';
import type { CloudCoefficients, CloudDatasets, CloudInstance, CloudRegion } from '../datasets/types';

/**
 * What the cloud calculators share: provider, region, instance and year resolution, and the factor metadata of
 * the Cloud Carbon Footprint method.
 */

export { CLOUD_PROVIDERS, type CloudProvider };

const PROVIDER_LABEL: Readonly<Record<CloudProvider, string>> = { aws: 'AWS', azure: 'Azure', gcp: 'GCP' };

/**
 * How the hosted API named a region in its factors: the provider in capitals and the region's hosted spelling,
 * for the activity id (`west_europe`) and, with `-`, for the name (`AZURE (west-europe)`).
 */
function hostedRegionNaming(provider: CloudProvider, region: CloudRegion): { id: string; label: string } {
  const id = regionHostedSpelling(region.region, region.hosted_spelling);
  return { id, label: `${provider.toUpperCase()} (${id.replaceAll('_', '-')})` };
}
export const CLOUD_DATA_QUALITY_FLAGS: readonly string[] = ['notable_methodological_variance'];

const CLOUD_PARTS = ['cloudCoefficients', 'cloudRegions', 'cloudInstances'] as const;

/**
 * The provider and its coefficients, or `unsupported_provider`.
 *
 * @throws {DatasetError} when `datasets` lacks a cloud part (a programming error, not bad input).
 */
export function resolveProvider(
  provider: unknown,
  datasets: CloudDatasets,
): { provider: CloudProvider; coefficients: CloudCoefficients } {
  requireParts(datasets, CLOUD_PARTS, 'the cloud calculators');
  const id = typeof provider === 'string' ? provider.toLowerCase() : undefined;
  const coefficients = id === undefined ? undefined : datasets.cloudCoefficients.get(id as CloudProvider);
  if (coefficients !== undefined && (CLOUD_PROVIDERS as readonly unknown[]).includes(id)) {
    return { provider: id as CloudProvider, coefficients };
  }
  const supported = CLOUD_PROVIDERS.filter(
    (candidate) => datasets.cloudCoefficients.get(candidate) !== undefined,
  );
  const known = supported.find((candidate) => candidate === id);
  if (known === undefined) {
    // Not String(provider): a null-prototype object or `{ toString: false }` cannot be converted.
    const shown =
      typeof provider === 'string' ? provider : `(a ${provider === null ? 'null' : typeof provider})`;
    throw new EmissionsError('unsupported_provider', messages.unsupportedProvider(shown, supported), {
      path: 'provider_id',
      valid_values: supported,
    });
  }
  return { provider: known, coefficients: datasets.cloudCoefficients.get(known) as CloudCoefficients };
}

/** What every use-phase calculator resolves first: provider, request, region and year. */
export function resolveUsePhaseRequest<
  S extends z.ZodMiniType<{ region: string; year?: number | undefined }>,
>(provider: unknown, schema: S, request: unknown, datasets: CloudDatasets) {
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input: z.output<S> = parseRequest(schema, request);
  const region = resolveRegion(id, input.region, datasets);
  return { provider: id, coefficients, input, region, year: input.year ?? datasets.cloudRegions.defaultYear };
}

/** A factor (kg per activity unit) with its metadata, derived once per dataset and key. */
export interface CloudFactor {
  factor: Decimal;
  metadata: FactorMetadata;
}

const cloudFactors = createMemo<CloudFactor>();

/**
 * The factor named by `key` (which must include everything the factor depends on besides the datasets), computed by
 * `compute` the first time for these datasets.
 */
export const cachedCloudFactor = (
  datasets: CloudDatasets,
  key: string,
  compute: () => CloudFactor,
): CloudFactor =>
  cloudFactors.get(
    [datasets.cloudCoefficients, datasets.cloudRegions, datasets.cloudInstances],
    key,
    compute,
  );

/** The estimate of a use-phase calculator: the activity in its unit × the cached CCF factor. */
export function usePhaseEstimate(
  activityValue: Decimal,
  activityUnit: string,
  { factor, metadata }: CloudFactor,
  auditTrail: AuditTrail,
  datasets: CloudDatasets,
  options: CalculationOptions | undefined,
): Estimate {
  return buildEstimate(
    {
      activityValue,
      activityUnit,
      factor,
      metadata,
      method: gridMethod(datasets),
      origin: 'source',
      auditTrail,
    },
    options,
  );
}

/** The region record, or `unknown_region` with the datasets' reason when they list it as unsupported, else the provider's regions. */
export function resolveRegion(provider: CloudProvider, region: string, datasets: CloudDatasets): CloudRegion {
  const record = datasets.cloudRegions.get(provider, region);
  if (record === undefined) {
    const valid = datasets.cloudRegions.list(provider);
    const listed = datasets.cloudRegions
      .unsupported?.(provider)
      .find((row) => regionKey(row.region) === regionKey(region));
    if (listed !== undefined) {
      throw new EmissionsError(
        'unknown_region',
        messages.listedUnsupported('region', provider, listed.region, listed.reason),
        { path: 'region', valid_values: valid },
      );
    }
    const suggestions = closestSpellings(valid, region, regionKey);
    throw new EmissionsError('unknown_region', messages.unknownRegion(provider, region, valid, suggestions), {
      path: 'region',
      valid_values: valid,
    });
  }
  return record;
}

/** The instance record, or `unknown_instance` with the datasets' reason when they list it as excluded, else a few likely spellings. */
export function resolveInstance(
  provider: CloudProvider,
  instance: string,
  datasets: CloudDatasets,
): CloudInstance {
  const record = datasets.cloudInstances.get(provider, instance);
  if (record === undefined) {
    const listed = datasets.cloudInstances
      .excluded?.(provider)
      .find((row) => instanceKey(provider, row.instance) === instanceKey(provider, instance));
    if (listed !== undefined) {
      throw new EmissionsError(
        'unknown_instance',
        messages.listedUnsupported(
          'instance type',
          provider,
          listed.instance,
          `${listed.reason} (${listed.source})`,
        ),
        { path: 'instance' },
      );
    }
    // Closest by edit distance, without case, `Standard_` or separators: `D2sv3` suggests `Standard_D2s_v3`.
    const suggestions = closestSpellings(
      datasets.cloudInstances.list(provider),
      instance,
      (spelling) => spellingKey(instanceKey(provider, spelling)),
      5,
    );
    throw new EmissionsError('unknown_instance', messages.unknownInstance(provider, instance, suggestions), {
      path: 'instance',
      ...(suggestions.length > 0 && { valid_values: suggestions }),
    });
  }
  return record;
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

/** Checks an embodied year against the instance dataset's years. */
export function embodiedYear(year: number | undefined, datasets: CloudDatasets): number {
  const resolved = year ?? datasets.cloudInstances.defaultYear;
  if (!datasets.cloudInstances.years.includes(resolved)) {
    const valid = datasets.cloudInstances.years;
    throw new EmissionsError(
      'no_emission_factors_found',
      messages.noFactorForYear('embodied emissions', resolved, valid),
      {
        path: 'year',
        valid_values: [...valid],
      },
    );
  }
  return resolved;
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

/** A use-phase factor (kg per activity unit) = energy per unit × PUE × grid, as CCF does. */
export function usePhaseFactor(kwhPerUnit: Decimal, coefficients: CloudCoefficients, grid: Decimal): Decimal {
  return mul(mul(kwhPerUnit, decimal(coefficients.pue)), grid);
}

// A record's own dataset (set by mergeDatasets) wins over the provider's, so an overriding factor reports its source.
const coefficientsDataset = (provider: CloudProvider, datasets: CloudDatasets): DatasetInfo =>
  datasets.cloudCoefficients.get(provider)?.dataset ?? datasets.cloudCoefficients.info;
const gridDataset = (region: CloudRegion, year: number, datasets: CloudDatasets): DatasetInfo =>
  region.grid_datasets?.[String(year)] ?? datasets.cloudRegions.info;

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
  const coefficients = coefficientsDataset(provider, datasets);
  const grid = gridDataset(region, year, datasets);
  const naming = hostedRegionNaming(provider, region);
  const activityId = `${kind}-provider_${provider}-region_${naming.id}${variant ? `-type_${variant.id}` : ''}`;
  return {
    name: `${naming.label} ${variant ? `${variant.label} ` : ''}${HOSTED_RESOURCE_NAME[kind]}`,
    id: factorId([coefficients.id, coefficients.version, grid.id, grid.version, activityId, year, identity]),
    activity_id: activityId,
    access_type: 'public',
    source: coefficients.source,
    source_dataset: `${coefficients.source_dataset}; grid: ${grid.source_dataset}`,
    year,
    region: region.location,
    category: `Cloud Computing - ${USE_PHASE_LABEL[kind]}`,
    source_lca_activity: 'use_phase',
    data_quality_flags: [...CLOUD_DATA_QUALITY_FLAGS],
  };
}

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
  const stated = region.published_factors?.[resource];
  if (stated === undefined || stated.year !== year) return undefined;
  const dataset = gridDataset(region, year, datasets);
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

/** Factor metadata of an embodied CPU factor (kg per instance-hour). */
export function embodiedMetadata(
  provider: CloudProvider,
  instance: CloudInstance,
  year: number,
  datasets: CloudDatasets,
): FactorMetadata {
  const coefficients = coefficientsDataset(provider, datasets);
  const instances = instance.dataset ?? datasets.cloudInstances.info;
  const instanceId = instance.instance.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const activityId = `embodied_cpu-provider_${provider}-instance_${instanceId}`;
  return {
    name: `${PROVIDER_LABEL[provider]} ${instance.instance} Embodied CPU`,
    id: factorId([coefficients.id, coefficients.version, instances.id, instances.version, activityId, year]),
    activity_id: activityId,
    access_type: 'public',
    source: instances.source,
    source_dataset: instances.source_dataset,
    year,
    region: 'GLOBAL',
    category: 'Cloud Computing - Embodied CPU',
    source_lca_activity: 'upstream-end_of_life',
    data_quality_flags: [...CLOUD_DATA_QUALITY_FLAGS],
  };
}

/** GWP basis of the grid factors, reported as `co2e_calculation_method`. */
export const gridMethod = (datasets: CloudDatasets): CalculationMethod => datasets.cloudRegions.gwp;
