import { instanceKey, regionKey } from './create';
import { NO_ITEMS } from '../core/freeze';
import { DatasetError } from './errors';
import { CLOUD_PROVIDERS } from './constants';
import type { CloudProvider, DatasetInfo } from './tables';
import type {
  ClassificationsProvider,
  CloudCoefficients,
  CloudCoefficientsProvider,
  CloudInstance,
  CloudInstancesProvider,
  CloudRegion,
  CloudRegionsProvider,
  Datasets,
  FxProvider,
  InflationProvider,
  MarginsProvider,
  SpendFactor,
  SpendFactorsProvider,
} from './types';

/**
 * Layers datasets: each later one wins per key, and every record remembers the dataset it came from, so an
 * estimate that uses an overriding factor reports that factor's own `source`, `source_dataset` and `id`, while
 * every other estimate stays exactly as it was.
 *
 * Keys: spend factor per (product, region); grid factor and published factors per (provider, region, year), so a
 * layer never removes what a lower one states for another year; instance per (provider,
 * instance); cloud coefficients per provider; FX rate per (currency, year); inflation rate per (region, year) and
 * (region, product, year); default margins per (region, product); classification mapping per (type, code), product
 * name per product, weight per (region, product).
 *
 * Table-wide settings come from the first dataset that has the part (the base): default years, the embodied
 * years, GWP basis, factor currency, factor year, price basis and product classification. An override whose
 * settings differ from the base's cannot be layered on it (its factors would be read in the wrong currency, year
 * or GWP basis) and throws.
 *
 * @example
 * ```ts
 * import { createTableDatasets, mergeDatasets } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const mine = createTableDatasets({ spendFactors: mySupplierFactors });
 * const datasets = mergeDatasets(defaultDatasets, mine); // my factors win where they exist
 * ```
 * @throws {@link DatasetError} when an override's table-wide settings differ from the base's.
 */
export function mergeDatasets<B extends Datasets>(base: B, ...overrides: readonly Datasets[]): B {
  const all = [base, ...overrides];
  const layersOf = <K extends keyof Datasets>(part: K) =>
    all.flatMap((datasets) =>
      datasets[part] === undefined ? [] : [datasets[part] as NonNullable<Datasets[K]>],
    );
  const merged: Datasets = { ...base };
  const parts = {
    cloudCoefficients: mergeCloudCoefficients,
    cloudRegions: mergeCloudRegions,
    cloudInstances: mergeCloudInstances,
    spendFactors: mergeSpendFactors,
    classifications: mergeClassifications,
    margins: mergeMargins,
    inflation: mergeInflation,
    fx: mergeFx,
  } as const satisfies {
    [K in keyof Datasets]-?: (layers: Array<NonNullable<Datasets[K]>>) => NonNullable<Datasets[K]>;
  };
  for (const part of Object.keys(parts) as Array<keyof Datasets>) {
    const layers = layersOf(part);
    if (layers.length === 0) continue;
    // One layer: the provider itself, so nothing about its estimates changes.
    merged[part] = (
      layers.length === 1 ? layers[0] : (parts[part] as (l: typeof layers) => unknown)(layers)
    ) as never;
  }
  return merged as B;
}

/**
 * The dataset of a merged provider: the layers' one dataset if they share it, else their ids, versions and texts
 * joined in layer order.
 */
function combinedInfo(layers: ReadonlyArray<{ readonly info: DatasetInfo }>): DatasetInfo {
  const distinct = [...new Map(layers.map(({ info }) => [`${info.id}\u0000${info.version}`, info])).values()];
  if (distinct.length === 1) return distinct[0] as DatasetInfo;
  const joined = (field: keyof DatasetInfo, separator: string) =>
    [...new Set(distinct.map((info) => info[field]))].join(separator);
  return {
    id: joined('id', '+'),
    version: joined('version', '+'),
    source: joined('source', '; '),
    source_dataset: joined('source_dataset', '; '),
    licence: joined('licence', '; '),
    attribution: joined('attribution', ' | '),
  };
}

/** Throws unless every layer agrees with the base on a table-wide setting. */
function sameSetting<L extends { info: DatasetInfo }>(
  part: keyof Datasets,
  layers: readonly L[],
  setting: string,
  read: (layer: L) => unknown,
) {
  const [base, ...rest] = layers as [L, ...L[]];
  for (const layer of rest) {
    if (read(layer) !== read(base)) {
      throw new DatasetError(
        part,
        `dataset "${layer.info.id}"`,
        `${setting} ${JSON.stringify(read(layer))} differs from ${JSON.stringify(read(base))} of the base dataset "${base.info.id}"; ` +
          `a merged ${part} table has one ${setting}, so convert the override to it first`,
      );
    }
  }
}

/**
 * Table-wide settings that every layer must share ({@link sameSetting}, in the order given), as the base states
 * them. `names`: each setting and its name in the error.
 */
function baseSettings<L extends { info: DatasetInfo }, K extends keyof L>(
  part: keyof Datasets,
  layers: readonly L[],
  names: Readonly<Record<K, string>>,
): Pick<L, K> {
  const [base] = layers as [L];
  const settings = {} as Pick<L, K>;
  for (const key of Object.keys(names) as K[]) {
    sameSetting(part, layers, names[key], (layer) => layer[key]);
    settings[key] = base[key];
  }
  return settings;
}

/** The last layer's answer that is defined, with that layer. */
function lastDefined<L, T>(
  layers: readonly L[],
  read: (layer: L) => T | undefined,
): { value: T; layer: L } | undefined {
  for (let index = layers.length - 1; index >= 0; index--) {
    const layer = layers[index] as L;
    const value = read(layer);
    if (value !== undefined) return { value, layer };
  }
  return undefined;
}

/** The dataset of an answer: the one the answering layer names for that record, else the layer's own. */
function datasetOf<L extends { info: DatasetInfo }>(
  found: { layer: L } | undefined,
  named: (layer: L) => DatasetInfo | undefined,
): DatasetInfo | undefined {
  return found && (named(found.layer) ?? found.layer.info);
}

/** Annotates each record once (cached), keeping a provenance it already has from an earlier merge. */
function annotator<R extends { readonly dataset?: DatasetInfo }>() {
  const cache = new WeakMap<R, R>();
  return (record: R, info: DatasetInfo): R => {
    let annotated = cache.get(record);
    if (annotated === undefined) {
      annotated = { ...record, dataset: record.dataset ?? info };
      cache.set(record, annotated);
    }
    return annotated;
  };
}

/** The lists' items once each, sorted, frozen as every list a provider hands out is. */
const sortedUnion = <T>(lists: ReadonlyArray<readonly T[]>, compare?: (a: T, b: T) => number): readonly T[] =>
  Object.freeze([...new Set(lists.flat())].sort(compare));

function mergeCloudCoefficients(layers: CloudCoefficientsProvider[]): CloudCoefficientsProvider {
  const byProvider = new Map<CloudProvider, CloudCoefficients>();
  for (const provider of CLOUD_PROVIDERS) {
    const found = lastDefined(layers, (layer) => layer.get(provider));
    if (found) byProvider.set(provider, { ...found.value, dataset: found.value.dataset ?? found.layer.info });
  }
  return {
    info: combinedInfo(layers),
    get: (provider) => byProvider.get(provider),
  };
}

function mergeCloudRegions(layers: CloudRegionsProvider[]): CloudRegionsProvider {
  sameSetting('cloudRegions', layers, 'gwp', (layer) => layer.gwp);
  const index = new Map<string, CloudRegion>();
  const lists = new Map<CloudProvider, readonly string[]>();
  for (const provider of CLOUD_PROVIDERS) {
    // One id per region under the lookup key, spelled as the last layer that has the region spells it.
    const ids = new Map<string, string>();
    for (const layer of layers) for (const id of layer.list(provider)) ids.set(regionKey(id), id);
    lists.set(provider, Object.freeze([...ids.values()].sort()));
    for (const id of ids.values()) {
      let merged: CloudRegion | undefined;
      for (const layer of layers) {
        const record = layer.get(provider, id);
        if (record === undefined) continue;
        merged = layerRegion(merged, record, layer.info);
      }
      if (merged !== undefined) index.set(`${provider}\u0000${regionKey(id)}`, merged);
    }
  }
  const [base] = layers as [CloudRegionsProvider];
  return {
    info: combinedInfo(layers),
    defaultYear: base.defaultYear,
    gwp: base.gwp,
    get: (provider, region) => index.get(`${provider}\u0000${regionKey(region)}`),
    list: (provider) => lists.get(provider) ?? NO_ITEMS,
    // Unsupported in some layer and supported by none: a region another layer has a factor for is supported.
    ...(layers.some((layer) => layer.unsupported) && {
      unsupported: (provider: CloudProvider) =>
        Object.freeze(
          layers
            .flatMap((layer) => layer.unsupported?.(provider) ?? [])
            .filter((row) => !index.has(`${provider}\u0000${regionKey(row.region)}`)),
        ),
    }),
  };
}

type PublishedByYear = Record<string, NonNullable<CloudRegion['published_by_year']>[string]>;

/** A region's published factors by year, each with its dataset (a merged record has them already). */
function publishedByYear(record: CloudRegion, info: DatasetInfo): PublishedByYear {
  if (record.published_by_year) return { ...record.published_by_year };
  const byYear: PublishedByYear = {};
  for (const [resource, stated] of Object.entries(record.published_factors ?? {})) {
    const year = String(stated.year);
    byYear[year] = {
      ...byYear[year],
      [resource]: { ...stated, dataset: record.grid_datasets?.[year] ?? info },
    };
  }
  return byYear;
}

/**
 * One region record laid over what the layers below made of it. Records are per year: a year's grid factor, its
 * source and dataset come from the last layer that has the year, and so do the year's published factors, so a
 * layer never removes what a lower one stated for another year. A layer that states a year's grid factor but
 * publishes nothing for the year replaces the lower layers' published factors of that year (they were derived
 * from the grid factor it replaces). Region-wide fields (location, grid zone) come from the last layer.
 */
function layerRegion(below: CloudRegion | undefined, record: CloudRegion, info: DatasetInfo): CloudRegion {
  const factors: Record<string, number> = { ...below?.grid_factors };
  const sources: Record<string, string> = { ...below?.grid_sources };
  const datasets: Record<string, DatasetInfo> = { ...below?.grid_datasets };
  const published: PublishedByYear = { ...below?.published_by_year };
  const stated = publishedByYear(record, info);
  for (const [year, value] of Object.entries(record.grid_factors)) {
    factors[year] = value;
    datasets[year] = record.grid_datasets?.[year] ?? info;
    // A year's source travels with its factor; a stale one from an earlier layer must not stay.
    const source = record.grid_sources[year];
    // The records are the table's own JSON shape (year → value), so a year leaves them by delete.
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
    if (source === undefined) delete sources[year];
    else sources[year] = source;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
    delete published[year];
  }
  for (const [year, resources] of Object.entries(stated))
    published[year] = { ...published[year], ...resources };
  // A layer that only adds grid factors (a user's table) keeps the hosted spelling an earlier one stated.
  const hosted = record.hosted_spelling ?? below?.hosted_spelling;
  const { published_factors: _replaced, ...rest } = record;
  return {
    ...rest,
    ...(hosted !== undefined && { hosted_spelling: hosted }),
    grid_factors: factors,
    grid_sources: sources,
    grid_datasets: datasets,
    published_by_year: published,
  };
}

function mergeCloudInstances(layers: CloudInstancesProvider[]): CloudInstancesProvider {
  sameSetting('cloudInstances', layers, 'gwp', (layer) => layer.gwp);
  const annotate = annotator<CloudInstance>();
  const lists = new Map<CloudProvider, readonly string[]>();
  for (const provider of CLOUD_PROVIDERS) {
    // One name per instance under the lookup key, spelled as the winning layer spells it.
    const names = new Map<string, string>();
    for (const layer of layers)
      for (const name of layer.list(provider)) names.set(instanceKey(provider, name), name);
    lists.set(provider, Object.freeze([...names.values()].sort()));
  }
  const [base] = layers as [CloudInstancesProvider];
  return {
    info: combinedInfo(layers),
    defaultYear: base.defaultYear,
    gwp: base.gwp,
    years: base.years,
    get: (provider, instance) => {
      const found = lastDefined(layers, (layer) => layer.get(provider, instance));
      return found && annotate(found.value, found.layer.info);
    },
    list: (provider) => lists.get(provider) ?? NO_ITEMS,
    // Excluded in some layer and present in none: a type another layer supplies is not excluded.
    ...(layers.some((layer) => layer.excluded) && {
      excluded: (provider: CloudProvider) =>
        Object.freeze(
          layers
            .flatMap((layer) => layer.excluded?.(provider) ?? [])
            .filter((row) => lastDefined(layers, (layer) => layer.get(provider, row.instance)) === undefined),
        ),
    }),
  };
}

function mergeSpendFactors(layers: SpendFactorsProvider[]): SpendFactorsProvider {
  const settings = baseSettings('spendFactors', layers, {
    currency: 'currency',
    factorYear: 'factor year',
    priceBasis: 'price basis',
    gwp: 'gwp',
    productClassification: 'product classification',
  });
  sameSetting('spendFactors', layers, 'basis region', (layer) => layer.basisRegion ?? 'each its own');
  const annotate = annotator<SpendFactor>();
  const [base] = layers as [SpendFactorsProvider];
  return {
    info: combinedInfo(layers),
    ...settings,
    ...(base.basisRegion !== undefined && { basisRegion: base.basisRegion }),
    ...(lastDefined(layers, (layer) => layer.restOfWorldRegion) !== undefined && {
      restOfWorldRegion: lastDefined(layers, (layer) => layer.restOfWorldRegion)?.value,
    }),
    get: (product, region) => {
      const found = lastDefined(layers, (layer) => layer.get(product, region));
      return found && annotate(found.value, found.layer.info);
    },
    productForActivity: (activityId) =>
      lastDefined(layers, (layer) => layer.productForActivity(activityId))?.value,
    regions: sortedUnion(layers.map((layer) => layer.regions)),
    ...(layers.every((layer) => layer.productsIn !== undefined) && {
      productsIn: (region: string) => sortedUnion(layers.map((layer) => layer.productsIn?.(region) ?? [])),
    }),
  };
}

function mergeClassifications(layers: ClassificationsProvider[]): ClassificationsProvider {
  sameSetting('classifications', layers, 'product classification', (layer) => layer.productClassification);
  const [base] = layers as [ClassificationsProvider];
  // The layer whose mapping answers a code, and that mapping.
  const mapping = (type: string, code: string) => lastDefined(layers, (layer) => layer.products(type, code));
  return {
    info: combinedInfo(layers),
    productClassification: base.productClassification,
    types: sortedUnion(layers.map((layer) => layer.types)),
    codes: (type) => sortedUnion(layers.map((layer) => layer.codes?.(type) ?? [])),
    products: (type, code) => mapping(type, code)?.value,
    // The share belongs to the layer whose mapping wins, so a code's products and their shares never mix layers.
    share: (type, code, product) => mapping(type, code)?.layer.share?.(type, code, product),
    productName: (product) => lastDefined(layers, (layer) => layer.productName(product))?.value,
    // The note of the layer whose mapping answers the code.
    note: (type, code) => mapping(type, code)?.layer.note?.(type, code),
    weight: (region, product) => lastDefined(layers, (layer) => layer.weight(region, product))?.value,
    weightsDescription: [...new Set(layers.map((layer) => layer.weightsDescription))].join('; '),
    mappingDataset: (type, code) =>
      datasetOf(mapping(type, code), (layer) => layer.mappingDataset?.(type, code)),
  };
}

function mergeMargins(layers: MarginsProvider[]): MarginsProvider {
  const record = (region: string, product: string) =>
    lastDefined(layers, (layer) => layer.get(region, product));
  return {
    info: combinedInfo(layers),
    get: (region, product) => record(region, product)?.value,
    recordDataset: (region, product) =>
      datasetOf(record(region, product), (layer) => layer.recordDataset?.(region, product)),
  };
}

function mergeInflation(layers: InflationProvider[]): InflationProvider {
  return {
    info: combinedInfo(layers),
    countryRate: (region, year) => lastDefined(layers, (layer) => layer.countryRate(region, year))?.value,
    sectorRate: (region, product, year) =>
      lastDefined(layers, (layer) => layer.sectorRate(region, product, year))?.value,
    hasRegion: (region) => layers.some((layer) => layer.hasRegion(region)),
  };
}

function mergeFx(layers: FxProvider[]): FxProvider {
  const currencies = sortedUnion(layers.map((layer) => layer.currencies));
  const years = new Map(
    currencies.map((currency) => [
      currency,
      sortedUnion(
        layers.map((layer) => layer.years(currency)),
        (a, b) => a - b,
      ),
    ]),
  );
  return {
    info: combinedInfo(layers),
    rate: (currency, year) => lastDefined(layers, (layer) => layer.rate(currency, year))?.value,
    years: (currency) => years.get(currency) ?? NO_ITEMS,
    currencies,
    // The months of the layer whose rate answers.
    partialYear: (currency, year) =>
      lastDefined(layers, (layer) => layer.rate(currency, year))?.layer.partialYear?.(currency, year),
  };
}
