import type {
  CloudCoefficientsTable,
  CloudInstancesTable,
  CloudProvider,
  CloudRegionsTable,
  DatasetInfo,
  SpendFactorsTable,
} from './tables';

/**
 * Dataset providers: small readonly records of synchronous, indexed lookups. The calculators read data only
 * through these, so any part can be replaced (`{ ...defaultDatasets, fx: myFx }`).
 */

/**
 * Where a record came from, set by providers that layer several tables ({@link mergeDatasets}); absent on a
 * provider built from one table, whose records all come from its `info`. The factor metadata of an estimate
 * (`source`, `source_dataset`, `id`) is taken from here when present.
 */
export interface RecordProvenance {
  readonly dataset?: DatasetInfo;
}

export type CloudCoefficients = NonNullable<CloudCoefficientsTable['providers'][CloudProvider]> &
  RecordProvenance;
/** A factor a regions table states for a resource (`published_factors`), with the dataset it came from. */
export type PublishedCloudFactor = NonNullable<
  NonNullable<CloudRegionsTable['regions'][number]['published_factors']>[keyof NonNullable<
    CloudRegionsTable['regions'][number]['published_factors']
  >]
> &
  RecordProvenance;

export type CloudRegion = CloudRegionsTable['regions'][number] & {
  /** The dataset of each year's grid factor (by four-digit year), when a merge layered several tables. */
  readonly grid_datasets?: Readonly<Record<string, DatasetInfo>>;
  /**
   * The published factors of every year the layers state (by four-digit year, then resource), when a merge layered
   * several tables; it then stands instead of `published_factors`, which holds one year per resource.
   */
  readonly published_by_year?: Readonly<
    Record<
      string,
      Readonly<
        Partial<
          Record<
            keyof NonNullable<CloudRegionsTable['regions'][number]['published_factors']>,
            PublishedCloudFactor
          >
        >
      >
    >
  >;
};
export type CloudInstance = CloudInstancesTable['instances'][number] & RecordProvenance;
export type SpendFactor = SpendFactorsTable['factors'][number] & RecordProvenance;

export interface CloudCoefficientsProvider {
  readonly info: DatasetInfo;
  /** Coefficients of a provider, or undefined when the dataset has none for it. */
  get(provider: CloudProvider): CloudCoefficients | undefined;
}

/** A region the datasets deliberately do not support, and why. */
export interface UnsupportedRegion {
  provider: CloudProvider;
  region: string;
  reason: string;
}

/** An instance type a source lists that the datasets leave out, and why. */
export interface ExcludedInstance {
  provider: CloudProvider;
  instance: string;
  /** The source file that lists it. */
  source: string;
  reason: string;
}

/**
 * What the regions and instance tables' providers state table-wide: their dataset, the year a request without one
 * gets, and the GWP basis of their factors.
 */
export interface CloudTableProvider {
  readonly info: DatasetInfo;
  readonly defaultYear: number;
  readonly gwp: 'ar4' | 'ar5' | 'ar6';
}

export interface CloudRegionsProvider extends CloudTableProvider {
  /** A region by its id in any accepted spelling (`us-east-1`, `us_east_1`, `US_EAST_1`). */
  get(provider: CloudProvider, region: string): CloudRegion | undefined;
  /** Region ids of a provider, in the request spelling (`us_east_1`), sorted. */
  list(provider: CloudProvider): readonly string[];
  /** Regions of a provider the table names as unsupported, with the reason, sorted; absent when it names none. */
  unsupported?(provider: CloudProvider): readonly UnsupportedRegion[];
}

export interface CloudInstancesProvider extends CloudTableProvider {
  readonly years: readonly number[];
  /** An instance type in any accepted spelling (case-insensitive; Azure with or without `Standard_`). */
  get(provider: CloudProvider, instance: string): CloudInstance | undefined;
  /** Instance types of a provider, sorted. */
  list(provider: CloudProvider): readonly string[];
  /** Types of a provider a source lists but the table leaves out, with the reason, sorted; absent when none. */
  excluded?(provider: CloudProvider): readonly ExcludedInstance[];
}

export interface SpendFactorsProvider {
  readonly info: DatasetInfo;
  readonly currency: string;
  readonly factorYear: number;
  readonly priceBasis: 'basic' | 'purchaser';
  readonly gwp: 'ar4' | 'ar5' | 'ar6';
  readonly productClassification: string;
  /** The country whose price index and default margins apply to every region (CEDA: `US`); absent: each its own. */
  readonly basisRegion?: string | undefined;
  /** The region whose factors answer a country without its own (CEDA's rest of world), with a notice. */
  readonly restOfWorldRegion?: string | undefined;
  get(product: string, region: string): SpendFactor | undefined;
  /** The product whose factors carry an `activity_id`, or undefined. */
  productForActivity(activityId: string): string | undefined;
  /** Regions with at least one factor, sorted. */
  readonly regions: readonly string[];
  /** Products with a factor in a region, sorted (empty for a region without factors). */
  productsIn?(region: string): readonly string[];
}

export interface ClassificationsProvider {
  readonly info: DatasetInfo;
  readonly productClassification: string;
  /** Classification types with mappings (`isic4`, `nace2`, ...), sorted. */
  readonly types: readonly string[];
  /** Codes of a classification type that map to products, sorted (empty for an unknown type). */
  codes?(type: string): readonly string[];
  /** Products a code maps to, or undefined for an unknown type or code. */
  products(type: string, code: string): readonly string[] | undefined;
  /**
   * A product's share of a code as `[numerator, denominator]` (the code's classes that map to the product, all
   * classes that map to it), or undefined for a whole share. Means over several products weigh each by share × weight.
   */
  share?(type: string, code: string, product: string): readonly [number, number] | undefined;
  productName(product: string): string | undefined;
  /** A note on a code, shown with every estimate of it (e.g. how a merchant category code is read), or undefined. */
  note?(type: string, code: string): string | undefined;
  /** Weight of a product in a region for means over several products, or undefined without weights. */
  weight(region: string, product: string): number | undefined;
  readonly weightsDescription: string;
  /** The dataset a code's mapping came from, when a merge layered several tables; otherwise absent. */
  mappingDataset?(type: string, code: string): DatasetInfo | undefined;
}

export interface MarginsRecord {
  /** Absent when the source has no tax margin (no default for it). */
  tax_margin?: number | undefined;
  trade_margin: number;
  transport_margin: number;
}

export interface MarginsProvider {
  readonly info: DatasetInfo;
  get(region: string, product: string): MarginsRecord | undefined;
  /** The dataset a (region, product)'s record came from, when a merge layered several tables; otherwise absent. */
  recordDataset?(region: string, product: string): DatasetInfo | undefined;
}

export interface InflationProvider {
  readonly info: DatasetInfo;
  /** Annual consumer-price inflation in percent for a country and year. */
  countryRate(region: string, year: number): number | undefined;
  /** Annual price inflation in percent for a product's sector, where the dataset has one. */
  sectorRate(region: string, product: string, year: number): number | undefined;
  /** Whether the dataset has any country rate for a region. */
  hasRegion(region: string): boolean;
}

export interface FxProvider {
  readonly info: DatasetInfo;
  /** Units of `currency` (lowercase ISO 4217) per 1 USD, annual average of `year`. */
  rate(currency: string, year: number): number | undefined;
  /** Years with a rate for a currency, ascending (empty for an unknown currency). */
  years(currency: string): readonly number[];
  /** Currencies with rates, sorted. */
  readonly currencies: readonly string[];
  /** For a rate that averages only part of the year, the months it covers (e.g. `January to September 2025`). */
  partialYear?(currency: string, year: number): string | undefined;
}

/** Every part the calculators can use. Each calculator needs only some; see {@link CloudDatasets}, {@link SpendDatasets}. */
export interface Datasets {
  cloudCoefficients?: CloudCoefficientsProvider;
  cloudRegions?: CloudRegionsProvider;
  cloudInstances?: CloudInstancesProvider;
  spendFactors?: SpendFactorsProvider;
  classifications?: ClassificationsProvider;
  margins?: MarginsProvider;
  inflation?: InflationProvider;
  fx?: FxProvider;
}

/**
 * What the cloud calculators need: coefficients and regions for all; the instance table (`cloudInstances`) only for
 * `calculateInstance` and `calculateEmbodied`, which throw `missing_dataset` without it.
 */
export interface CloudDatasets extends Datasets {
  cloudCoefficients: CloudCoefficientsProvider;
  cloudRegions: CloudRegionsProvider;
  cloudInstances?: CloudInstancesProvider;
}

/**
 * Cloud datasets with the instance table, which `calculateInstance` and `calculateEmbodied` read. The embedded
 * `cloudDatasets` and `defaultDatasets` are these.
 */
export interface CloudInstanceDatasets extends CloudDatasets {
  cloudInstances: CloudInstancesProvider;
}

/** What the spend calculator needs. */
export interface SpendDatasets extends Datasets {
  spendFactors: SpendFactorsProvider;
  classifications: ClassificationsProvider;
  margins: MarginsProvider;
  inflation: InflationProvider;
  fx: FxProvider;
}
