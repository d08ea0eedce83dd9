import { deepFreeze } from './core/freeze';
import { CLOUD_PROVIDERS } from './datasets/constants';
import type { CloudProvider } from './datasets/tables';
import { regionHostedSpelling, regionRequestSpelling } from './datasets/keys';
import { requireParts } from './datasets/require';
import type { CloudCoefficients, CloudDatasets, CloudRegion, Datasets } from './datasets/types';
import { spendCoverage, type SpendRegionCoverage } from './spend/coverage';

/** A cloud region: its id as the provider writes it, every spelling listed for it, and where its grid factor is from. */
export interface RegionCapability {
  /** The provider's own id (`us-east-1`, `westeurope`, `europe-west1`), echoed in estimates. */
  region: string;
  /**
   * Spellings that name it, besides any case: the request spelling (`us_east_1`, `westeurope`) and the hosted
   * API's, words and a trailing number split (`europe_west_1`, `west_europe`, `east_us_2`), which the estimate's
   * `activity_id` and `name` use. Any spelling equal to the id once case, `-`, `_` and spaces between words are
   * ignored is accepted too (`West Europe`, `East US 2`).
   */
  aliases: string[];
  /** Location code of the region (`US`, `DE-FRA`). */
  location: string;
  /** Grid zone whose factor is used (`US-MIDA-PJM`). */
  grid_zone: string;
  /** Years with a grid factor, ascending. */
  years: number[];
}

/** What a cloud provider supports in the datasets. */
export interface CloudProviderCapability {
  provider: CloudProvider;
  /** `Amazon Web Services`, `Microsoft Azure`, `Google Cloud Platform`. */
  name: string;
  regions: RegionCapability[];
  /** Instance types as the provider writes them, sorted. */
  instances: string[];
  /** Regions the datasets name as unsupported, with the reason; absent when they name none. */
  unsupported_regions?: Array<{ region: string; reason: string }>;
  /** Instance types a source lists that the datasets leave out, with the source and reason; absent when none. */
  excluded_instances?: Array<{ instance: string; source: string; reason: string }>;
  /**
   * Instance types whose estimate has a GPU part (GPUs with watts for their model), sorted; absent when none. Other
   * types with GPUs or accelerators are estimated without them, with a `gpu_power_not_estimated` notice.
   */
  gpu_instances?: string[];
}

/** A classification code and the products it maps to, with their names. */
export interface CodeCapability {
  code: string;
  products: Array<{ product: string; name: string | undefined }>;
}

/** What the datasets support; a part is absent when its datasets are. */
export interface Capabilities {
  cloud?: {
    providers: CloudProviderCapability[];
    /** Grid-factor year used when a request gives none. */
    default_year: number;
    /** Years an embodied estimate may be asked for. */
    embodied_years: number[];
  };
  spend?: {
    /** Spend regions with at least one factor (ISO 3166-1 alpha-2 or model regions), sorted. */
    regions: string[];
    /** Currencies with exchange rates (lowercase ISO 4217), sorted. */
    currencies: string[];
    factor_currency: string;
    factor_year: number;
    /** Classification types with their codes, sorted. */
    classifications: Array<{ type: string; codes: CodeCapability[] }>;
    /** Per region with factors: products, default margins, newest FX and inflation year (with margins and inflation). */
    coverage?: SpendRegionCoverage[];
  };
}

/** Provider names as the hosted API's metadata gave them (`provider_full_name`). */
export const CLOUD_PROVIDER_NAMES: Readonly<Record<CloudProvider, string>> = /* @__PURE__ */ deepFreeze({
  aws: 'Amazon Web Services',
  azure: 'Microsoft Azure',
  gcp: 'Google Cloud Platform',
});

/** The spellings listed for a region besides its id: the request spelling and the hosted API's. */
function aliasesOf(region: CloudRegion): string[] {
  const spellings = [
    regionRequestSpelling(region.region),
    regionHostedSpelling(region.region, region.hosted_spelling),
  ];
  return [...new Set(spellings)].filter((alias) => alias !== region.region);
}

/** What the datasets deliberately leave out for a provider (unsupported regions, excluded types), when they say. */
export function coverageGaps(
  { cloudRegions, cloudInstances }: Pick<CloudDatasets, 'cloudRegions' | 'cloudInstances'>,
  provider: CloudProvider,
): Pick<CloudProviderCapability, 'unsupported_regions' | 'excluded_instances'> {
  const regions = cloudRegions.unsupported?.(provider);
  const instances = cloudInstances?.excluded?.(provider);
  return {
    ...(regions && { unsupported_regions: regions.map(({ region, reason }) => ({ region, reason })) }),
    ...(instances && {
      excluded_instances: instances.map(({ instance, source, reason }) => ({ instance, source, reason })),
    }),
  };
}

/** The types of a provider that get a GPU part: GPUs counted, with watts for their model. */
function gpuInstances(
  coefficients: CloudCoefficients | undefined,
  cloudInstances: NonNullable<Datasets['cloudInstances']>,
  provider: CloudProvider,
): Pick<CloudProviderCapability, 'gpu_instances'> {
  const watts = coefficients?.gpu_watts;
  if (watts === undefined) return {};
  const types = cloudInstances.list(provider).filter((name) => {
    const row = cloudInstances.get(provider, name);
    return (
      row !== undefined && (row.gpu_count ?? 0) > 0 && row.gpu_model !== undefined && row.gpu_model in watts
    );
  });
  return types.length > 0 ? { gpu_instances: types } : {};
}

/**
 * Everything the datasets support: cloud providers with their regions (aliases, location, grid zone, years) and
 * instance types, factor years; spend regions, currencies and classification types with their codes and the
 * products (with names) each maps to. For discovery, documentation and pickers; the calculators need none of it.
 *
 * @example
 * ```ts
 * import { listCapabilities } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const { cloud } = listCapabilities(defaultDatasets);
 * cloud?.providers.find((p) => p.provider === 'azure')?.regions.map((r) => r.region); // ['apeast', ...]
 * ```
 * @throws {@link EmissionsError} `missing_dataset` when the datasets have cloud coefficients and regions but no instance
 *   table (the listing names instance types and embodied years).
 */
export function listCapabilities(datasets: Datasets): Capabilities {
  const capabilities: Capabilities = {};
  const { cloudCoefficients, cloudRegions } = datasets;
  if (cloudCoefficients && cloudRegions) {
    // Instance types and embodied years are part of the listing: without the table, say so rather than list none.
    requireParts(datasets, ['cloudInstances'], 'listCapabilities');
    const { cloudInstances } = datasets;
    const providers = CLOUD_PROVIDERS.filter((provider) => cloudCoefficients.get(provider) !== undefined).map(
      (provider): CloudProviderCapability => ({
        provider,
        name: CLOUD_PROVIDER_NAMES[provider],
        regions: cloudRegions.list(provider).flatMap((id) => {
          const record = cloudRegions.get(provider, id);
          if (record === undefined) return [];
          return [
            {
              region: record.region,
              aliases: aliasesOf(record),
              location: record.location,
              grid_zone: record.grid_zone,
              years: Object.keys(record.grid_factors)
                .map(Number)
                .sort((a, b) => a - b),
            },
          ];
        }),
        instances: [...cloudInstances.list(provider)],
        ...coverageGaps({ cloudRegions, cloudInstances }, provider),
        ...gpuInstances(cloudCoefficients.get(provider), cloudInstances, provider),
      }),
    );
    capabilities.cloud = {
      providers,
      default_year: cloudRegions.defaultYear,
      embodied_years: [...cloudInstances.years],
    };
  }
  const { spendFactors, classifications, fx } = datasets;
  if (spendFactors && classifications && fx) {
    capabilities.spend = {
      regions: [...spendFactors.regions],
      currencies: [...fx.currencies],
      factor_currency: spendFactors.currency,
      factor_year: spendFactors.factorYear,
      classifications: classifications.types.map((type) => ({
        type,
        codes: (classifications.codes?.(type) ?? []).map((code) => ({
          code,
          products: (classifications.products(type, code) ?? []).map((product) => ({
            product,
            name: classifications.productName(product),
          })),
        })),
      })),
      ...(datasets.margins &&
        datasets.inflation && {
          coverage: spendCoverage({
            spendFactors,
            fx,
            margins: datasets.margins,
            inflation: datasets.inflation,
          }),
        }),
    };
  }
  return capabilities;
}
