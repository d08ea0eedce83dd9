import { deepFreeze, NO_ITEMS } from '../core/freeze';
import type * as z from 'zod/mini';
import {
  ClassificationsTable,
  CloudCoefficientsTable,
  CloudInstancesTable,
  CloudRegionsTable,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
  safeParseTable,
  type CloudProvider,
} from './tables';
import type {
  ClassificationsProvider,
  CloudCoefficientsProvider,
  CloudInstance,
  CloudInstancesProvider,
  CloudRegion,
  CloudRegionsProvider,
  Datasets,
  FxProvider,
  InflationProvider,
  MarginsProvider,
  MarginsRecord,
  SpendFactor,
  SpendFactorsProvider,
} from './types';
import { DatasetError } from './errors';
import { instanceKey, regionKey, regionRequestSpelling } from './keys';

export { regionKey, regionRequestSpelling };

/** Tables for {@link createTableDatasets}; give only the parts you need. */
export interface DatasetTables {
  cloudCoefficients?: CloudCoefficientsTable;
  cloudRegions?: CloudRegionsTable;
  cloudInstances?: CloudInstancesTable;
  spendFactors?: SpendFactorsTable;
  classifications?: ClassificationsTable;
  margins?: MarginsTable;
  inflation?: InflationTable;
  fx?: FxTable;
}

/**
 * The schema of each table, by the part it provides: what `createTableDatasets` and the loaders validate against.
 *
 * @example
 * ```ts
 * TABLE_SCHEMAS.fx.safeParse(myRates).success;
 * ```
 */
export const TABLE_SCHEMAS = /* @__PURE__ */ deepFreeze({
  cloudCoefficients: CloudCoefficientsTable,
  cloudRegions: CloudRegionsTable,
  cloudInstances: CloudInstancesTable,
  spendFactors: SpendFactorsTable,
  classifications: ClassificationsTable,
  margins: MarginsTable,
  inflation: InflationTable,
  fx: FxTable,
} as const satisfies { [K in keyof DatasetTables]-?: z.ZodMiniType<NonNullable<DatasetTables[K]>> });

/**
 * Builds dataset providers from JSON-serialisable tables, validating every table first and indexing it once.
 * Nothing is half-built: any invalid table throws before a provider exists. The providers hold a deep-frozen copy of
 * each table, so changing a table afterwards changes no estimate.
 *
 * @example
 * ```ts
 * const datasets = createTableDatasets({ cloudCoefficients, cloudRegions, cloudInstances });
 * calculateCpu('aws', { cpu_count: 2, region: 'us_east_1', duration: 1 }, datasets);
 * ```
 * @throws {@link DatasetError} naming the table, the path in it and what is wrong.
 */
export function createTableDatasets<T extends DatasetTables>(
  tables: T,
): Datasets & { [K in keyof T & keyof Datasets]-?: NonNullable<Datasets[K]> } {
  // A caller's misuse said as a DatasetError, not the TypeError of Object.entries(null) or, for a number, no tables.
  if (typeof tables !== 'object' || tables === null || Array.isArray(tables)) {
    const got =
      tables === null
        ? 'null'
        : Array.isArray(tables)
          ? 'an array'
          : typeof tables === 'undefined'
            ? 'undefined'
            : `a ${typeof tables}`;
    throw new DatasetError(
      'tables',
      '',
      `expected an object of tables by part (cloudCoefficients, fx, …), got ${got}.`,
    );
  }
  // The validated copies, deep-frozen: a caller changing its tables afterwards (or a record a provider hands out)
  // cannot move an estimate built on them.
  const copies: Record<string, unknown> = {};
  for (const [part, table] of Object.entries(tables)) {
    const schema = Object.hasOwn(TABLE_SCHEMAS, part)
      ? TABLE_SCHEMAS[part as keyof DatasetTables]
      : undefined;
    if (schema === undefined)
      throw new DatasetError(
        part,
        '',
        `unknown dataset part; valid parts: ${Object.keys(TABLE_SCHEMAS).join(', ')}`,
      );
    if (table === undefined) continue;
    const result = safeParseTable(schema, table);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new DatasetError(part, issue ? issue.path.join('.') : '', issue?.message ?? 'invalid table');
    }
    copies[part] = deepFreeze(result.data);
  }
  return buildTableDatasets(copies) as never;
}

/** Like {@link createTableDatasets} without validation: for tables already validated (the embedded defaults). */
export function buildTableDatasets(tables: DatasetTables): Datasets {
  const datasets: Datasets = {};
  if (tables.cloudCoefficients)
    datasets.cloudCoefficients = cloudCoefficientsProvider(tables.cloudCoefficients);
  if (tables.cloudRegions) datasets.cloudRegions = cloudRegionsProvider(tables.cloudRegions);
  if (tables.cloudInstances) datasets.cloudInstances = cloudInstancesProvider(tables.cloudInstances);
  if (tables.spendFactors) datasets.spendFactors = spendFactorsProvider(tables.spendFactors);
  if (tables.classifications) datasets.classifications = classificationsProvider(tables.classifications);
  if (tables.margins) datasets.margins = marginsProvider(tables.margins);
  if (tables.inflation) datasets.inflation = inflationProvider(tables.inflation);
  if (tables.fx) datasets.fx = fxProvider(tables.fx);
  // Frozen, so no holder of a provider (the embedded defaults are shared by every importer) can change its
  // description or lists for the others.
  for (const provider of Object.values(datasets)) deepFreeze(provider);
  return datasets;
}

export { instanceKey } from './keys';

const providerKey = (provider: string, id: string) => `${provider}\u0000${id}`;

/** Groups ids by provider into sorted lists. */
function listsByProvider<R extends { provider: CloudProvider }>(rows: readonly R[], id: (row: R) => string) {
  const lists = new Map<CloudProvider, string[]>();
  for (const row of rows) {
    const list = lists.get(row.provider) ?? [];
    list.push(id(row));
    lists.set(row.provider, list);
  }
  // Frozen: the calculators' "did you mean" reads these lists, and every caller is handed the same ones.
  for (const list of lists.values()) Object.freeze(list.sort());
  return (provider: CloudProvider): readonly string[] => lists.get(provider) ?? NO_ITEMS;
}

/** Rows grouped by provider, in the given order. */
function rowsByProvider<R extends { provider: CloudProvider }>(rows: readonly R[]) {
  const lists = new Map<CloudProvider, R[]>();
  for (const row of rows) {
    const list = lists.get(row.provider) ?? [];
    list.push(row);
    lists.set(row.provider, list);
  }
  for (const list of lists.values()) deepFreeze(list);
  return (provider: CloudProvider): readonly R[] => lists.get(provider) ?? NO_ITEMS;
}

/** Locale-independent order of ids, so listings are the same on every machine. */
const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function uniqueIndex<R>(part: string, rows: readonly R[], key: (row: R) => string): Map<string, R> {
  const index = new Map<string, R>();
  rows.forEach((row, position) => {
    const id = key(row);
    if (index.has(id))
      throw new DatasetError(
        part,
        String(position),
        `duplicate key ${JSON.stringify(id.replace('\u0000', ' '))}`,
      );
    index.set(id, row);
  });
  return index;
}

function cloudCoefficientsProvider(table: CloudCoefficientsTable): CloudCoefficientsProvider {
  return { info: table.dataset, get: (provider) => table.providers[provider] };
}

function cloudRegionsProvider(table: CloudRegionsTable): CloudRegionsProvider {
  const index = uniqueIndex<CloudRegion>('cloudRegions', table.regions, (row) =>
    providerKey(row.provider, regionKey(row.region)),
  );
  return {
    info: table.dataset,
    defaultYear: table.default_year,
    gwp: table.gwp,
    get: (provider, region) => index.get(providerKey(provider, regionKey(region))),
    list: listsByProvider(table.regions, (row) => regionRequestSpelling(row.region)),
    ...(table.unsupported && {
      unsupported: rowsByProvider([...table.unsupported].sort((a, b) => compareIds(a.region, b.region))),
    }),
  };
}

function cloudInstancesProvider(table: CloudInstancesTable): CloudInstancesProvider {
  const index = uniqueIndex<CloudInstance>('cloudInstances', table.instances, (row) =>
    providerKey(row.provider, instanceKey(row.provider, row.instance)),
  );
  return {
    info: table.dataset,
    defaultYear: table.default_year,
    gwp: table.gwp,
    years: [...table.years].sort((a, b) => a - b),
    get: (provider, instance) => index.get(providerKey(provider, instanceKey(provider, instance))),
    list: listsByProvider(table.instances, (row) => row.instance),
    ...(table.excluded && {
      excluded: rowsByProvider(
        table.excluded
          .flatMap(({ provider, source, reason, instances }) =>
            instances.map((instance) => ({ provider, instance, source, reason })),
          )
          .sort((a, b) => compareIds(a.instance, b.instance)),
      ),
    }),
  };
}

function spendFactorsProvider(table: SpendFactorsTable): SpendFactorsProvider {
  const index = uniqueIndex<SpendFactor>('spendFactors', table.factors, (row) =>
    providerKey(row.product, row.region),
  );
  const productsByActivity = new Map(table.factors.map((row) => [row.activity_id, row.product]));
  const productsByRegion = new Map<string, string[]>();
  for (const row of table.factors) {
    const list = productsByRegion.get(row.region) ?? [];
    list.push(row.product);
    productsByRegion.set(row.region, list);
  }
  for (const list of productsByRegion.values()) Object.freeze(list.sort());
  // The table's header under the provider's names.
  const {
    dataset: info,
    currency,
    factor_year: factorYear,
    price_basis: priceBasis,
    gwp,
    product_classification: productClassification,
    basis_region: basisRegion,
    rest_of_world_region: restOfWorldRegion,
  } = table;
  return {
    info,
    currency,
    factorYear,
    priceBasis,
    gwp,
    productClassification,
    ...(basisRegion !== undefined && { basisRegion }),
    ...(restOfWorldRegion !== undefined && { restOfWorldRegion }),
    get: (product, region) => index.get(providerKey(product, region)),
    productForActivity: (activityId) => productsByActivity.get(activityId),
    regions: [...productsByRegion.keys()].sort(),
    productsIn: (region) => productsByRegion.get(region) ?? NO_ITEMS,
  };
}

function classificationsProvider(table: ClassificationsTable): ClassificationsProvider {
  const mappings = new Map(
    Object.entries(table.mappings).map(([type, codes]) => [type, new Map(Object.entries(codes))]),
  );
  checkShares(table);
  checkAliases(table);
  const products = new Map(Object.entries(table.products));
  const weights = new Map(
    Object.entries(table.weights).map(([region, byProduct]) => [region, new Map(Object.entries(byProduct))]),
  );
  const allRegions = table.weights_all_regions;
  // An alias type's code as the type and code whose mappings answer it (`mcc` 5812 → `isic4` 5610).
  const resolveAlias = (type: string, code: string): [string, string] => {
    const alias = table.aliases?.[type];
    const target = alias?.codes[code]?.[0];
    return alias === undefined ? [type, code] : [alias.to, target ?? ''];
  };
  return {
    info: table.dataset,
    productClassification: table.product_classification,
    types: [...new Set([...mappings.keys(), ...Object.keys(table.aliases ?? {})])].sort(),
    codes: (type) =>
      Object.freeze(
        [...(mappings.get(type)?.keys() ?? Object.keys(table.aliases?.[type]?.codes ?? {}))].sort(),
      ),
    products: (type, code) => {
      const [to, target] = resolveAlias(type, code);
      return mappings.get(to)?.get(target);
    },
    share: (aliasType, aliasCode, product) => {
      const [type, code] = resolveAlias(aliasType, aliasCode);
      const shares = table.shares?.[type];
      const numerators = shares?.codes[code];
      if (numerators === undefined) return undefined;
      const index = mappings.get(type)?.get(code)?.indexOf(product) ?? -1;
      const numerator = numerators[index];
      const denominator = shares?.classes_per_product[product];
      return numerator === undefined || denominator === undefined ? undefined : [numerator, denominator];
    },
    productName: (product) => products.get(product),
    ...(table.aliases !== undefined && {
      note: (type: string, code: string) => {
        const alias = table.aliases?.[type];
        const entry = alias?.codes[code];
        if (alias === undefined || entry === undefined) return undefined;
        const [target, description, note] = entry as [string, string, string?];
        return `${alias.label} ${code} (${description}) is read as ${alias.to} ${target}${note === undefined ? '' : `: ${note}`}.`;
      },
    }),
    weight: (region, product) => weights.get(region)?.get(product) ?? allRegions?.[product],
    weightsDescription: table.weights_description,
  };
}

/** Every alias type reads a type with mappings, and every aliased code a mapped code of it. */
function checkAliases({ aliases = {}, mappings }: ClassificationsTable): void {
  for (const [type, { to, codes }] of Object.entries(aliases)) {
    if (mappings[type] !== undefined)
      throw new DatasetError('classifications', `aliases.${type}`, `${type} has mappings of its own`);
    const target = mappings[to];
    if (target === undefined)
      throw new DatasetError('classifications', `aliases.${type}.to`, `no mappings for ${to}`);
    for (const [code, [read = '']] of Object.entries(codes))
      if (target[read] === undefined)
        throw new DatasetError(
          'classifications',
          `aliases.${type}.codes.${code}`,
          `no mapping for ${to} ${read}`,
        );
  }
}

/** Every share names a mapped code, one numerator per product, and a denominator at least as large. */
function checkShares({ shares = {}, mappings }: ClassificationsTable): void {
  for (const [type, { codes, classes_per_product: denominators }] of Object.entries(shares)) {
    for (const [code, numerators] of Object.entries(codes)) {
      const at = `shares.${type}.codes.${code}`;
      const products = mappings[type]?.[code];
      if (products === undefined)
        throw new DatasetError('classifications', at, `no mapping for ${type} ${code}`);
      if (products.length !== numerators.length)
        throw new DatasetError(
          'classifications',
          at,
          `${numerators.length} numerators for ${products.length} products (one per product, in mapping order)`,
        );
      products.forEach((product, index) => {
        const denominator = denominators[product];
        if (denominator === undefined || denominator < (numerators[index] as number))
          throw new DatasetError(
            'classifications',
            `${at}[${index}]`,
            `classes_per_product.${product} must be at least the numerator ${numerators[index]}`,
          );
      });
    }
  }
}

function marginsProvider(table: MarginsTable): MarginsProvider {
  const index = uniqueIndex<MarginsRecord & { region: string; product: string }>(
    'margins',
    table.margins,
    (row) => providerKey(row.region, row.product),
  );
  return { info: table.dataset, get: (region, product) => index.get(providerKey(region, product)) };
}

const byYear = (rates: Readonly<Record<string, number>>) =>
  new Map(Object.entries(rates).map(([year, rate]) => [Number(year), rate]));

function inflationProvider(table: InflationTable): InflationProvider {
  const country = new Map(Object.entries(table.country).map(([region, rates]) => [region, byYear(rates)]));
  const sector = new Map(
    Object.entries(table.sector ?? {}).map(([region, byProduct]) => [
      region,
      new Map(Object.entries(byProduct).map(([product, rates]) => [product, byYear(rates)])),
    ]),
  );
  return {
    info: table.dataset,
    countryRate: (region, year) => country.get(region)?.get(year),
    sectorRate: (region, product, year) => sector.get(region)?.get(product)?.get(year),
    hasRegion: (region) => country.has(region),
  };
}

function fxProvider(table: FxTable): FxProvider {
  const rates = new Map(
    Object.entries(table.rates).map(([currency, byYears]) => [currency, byYear(byYears)]),
  );
  const years = new Map(
    [...rates].map(([currency, byYears]) => [
      currency,
      Object.freeze([...byYears.keys()].sort((a, b) => a - b)),
    ]),
  );
  return {
    info: table.dataset,
    rate: (currency, year) => rates.get(currency)?.get(year),
    years: (currency) => years.get(currency) ?? NO_ITEMS,
    currencies: [...rates.keys()].sort(),
    partialYear: (currency, year) => table.partial_years?.[currency]?.[String(year)],
  };
}
