import type * as z from 'zod/mini';
import { EmissionsError, messages } from '../core/errors';
import { closestSpellings, spellingKey } from '../core/spelling';
import { parseRequest } from '../core/validate';
import { CLOUD_PROVIDERS } from '../datasets/constants';
import { instanceKey, regionKey } from '../datasets/keys';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type { CloudProvider } from '../datasets/tables';
import type {
  CloudCoefficients,
  CloudDatasets,
  CloudInstance,
  CloudInstanceDatasets,
  CloudRegion,
} from '../datasets/types';

/**
 * Resolve, before anything is computed: the provider (and its coefficients), the region, the instance type and the
 * year of a cloud request, each to its dataset record or to the `EmissionsError` a caller can act on
 * (`unsupported_provider`, `unknown_region` with close spellings, `unknown_instance`, `no_emission_factors_found`).
 * The factors are factors/; the calculators put the two together.
 */

export { CLOUD_PROVIDERS, type CloudProvider };

/** The parts every use-phase calculator (CPU, memory, storage, networking) reads: no instance table. */
export const USE_PHASE_PARTS = ['cloudCoefficients', 'cloudRegions'] as const;

/** The provider and its coefficients, as {@link resolveProvider} gives them. */
export interface ResolvedProvider {
  readonly provider: CloudProvider;
  readonly coefficients: CloudCoefficients;
}

/**
 * The last provider resolved, by its spelling and coefficients table: a batch or a bill resolves the same one on
 * every row, and this keeps that from allocating. The table is compared by identity, and a table's `get` gives the
 * same record for a provider each time (tables are frozen once made).
 */
let lastSpelling: unknown;
let lastTable: unknown;
let lastResolved: ResolvedProvider | undefined;

/** The provider and its coefficients, or `unsupported_provider`. The caller has checked its dataset parts. */
export function resolveProvider(provider: unknown, datasets: CloudDatasets): ResolvedProvider {
  if (provider === lastSpelling && datasets.cloudCoefficients === lastTable && lastResolved !== undefined) {
    return lastResolved;
  }
  const id = typeof provider === 'string' ? provider.toLowerCase() : undefined;
  const coefficients = id === undefined ? undefined : datasets.cloudCoefficients.get(id as CloudProvider);
  if (coefficients !== undefined && (CLOUD_PROVIDERS as readonly unknown[]).includes(id)) {
    lastResolved = Object.freeze({ provider: id as CloudProvider, coefficients });
    lastSpelling = provider;
    lastTable = datasets.cloudCoefficients;
    return lastResolved;
  }
  const supported = CLOUD_PROVIDERS.filter(
    (candidate) => datasets.cloudCoefficients.get(candidate) !== undefined,
  );
  const known = supported.find((candidate) => candidate === id);
  if (known === undefined) {
    // Not String(provider): a null-prototype object or `{ toString: false }` cannot be converted; its kind is said.
    const message =
      typeof provider === 'string'
        ? messages.unsupportedProvider(provider, supported)
        : provider === undefined || provider === null
          ? messages.missingProvider(supported)
          : messages.providerNotAString(kindOf(provider), supported);
    throw new EmissionsError('unsupported_provider', message, {
      path: 'provider_id',
      valid_values: supported,
    });
  }
  return { provider: known, coefficients: datasets.cloudCoefficients.get(known) as CloudCoefficients };
}

/** A value's kind as a message says it: `an object`, `an array`, `a number`. */
const kindOf = (value: unknown): string => {
  const kind = typeof value === 'object' && isArray(value) ? 'array' : typeof value;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
};

/** Array.isArray, but false for a revoked Proxy (which Array.isArray throws on): only a message reads it. */
const isArray = (value: unknown): boolean => {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
};

/** What every use-phase calculator resolves first: provider, request, region and year. */
export function resolveUsePhaseRequest<
  S extends z.ZodMiniType<{ region: string; year?: number | undefined }>,
>(
  provider: unknown,
  schema: S,
  request: unknown,
  datasets: CloudDatasets,
  needs: CalculatorDatasets<(typeof USE_PHASE_PARTS)[number]>,
) {
  requireDatasets(datasets, needs);
  const { provider: id, coefficients } = resolveProvider(provider, datasets);
  const input: z.output<S> = parseRequest(schema, request);
  const region = resolveRegion(id, input.region, datasets);
  return { provider: id, coefficients, input, region, year: input.year ?? datasets.cloudRegions.defaultYear };
}

/**
 * Records by the spelling a request gave, per provider table object (held weakly, as the factor caches are): a
 * ledger spells its few regions and instance types the same way on every row, so the table's key normalisation
 * (lowercasing, a regular expression) runs once per spelling instead of once per row. Only found records are kept,
 * at most {@link MAX_SPELLINGS} per table (past it the map starts again), so unknown spellings cannot grow it.
 */
const MAX_SPELLINGS = 4096;
type Spellings<R> = Map<CloudProvider, Map<string, R>>;
/**
 * The spellings per table, and the table and provider last looked in with their spellings: a batch asks one table
 * for one provider row after row, so most lookups are one map's. The last table is held strongly: one at most.
 */
export interface SpellingCache<R> {
  readonly tables: WeakMap<object, Spellings<R>>;
  last: { table: object; provider: CloudProvider; records: Map<string, R> } | undefined;
}

/**
 * An empty spelling cache: resolve.ts keeps records in two; a calculator may keep its own values by a table's
 * spellings the same way (instance.ts: a type's record with the figures derived from it).
 *
 * @example
 * ```ts
 * const slots = newSpellingCache<{ record: CloudInstance }>();
 * spelled(slots, datasets.cloudInstances, 'aws', 't3.micro'); // undefined until remembered
 * ```
 */
export const newSpellingCache = <R>(): SpellingCache<R> => ({ tables: new WeakMap(), last: undefined });
const regionSpellings = newSpellingCache<CloudRegion>();
const instanceSpellings = newSpellingCache<CloudInstance>();

/**
 * The value kept for a spelling in a table of a provider, if any (no allocation: the hot path).
 *
 * @example
 * ```ts
 * spelled(slots, datasets.cloudInstances, 'aws', 't3.micro');
 * ```
 */
export function spelled<R>(
  cache: SpellingCache<R>,
  table: object,
  provider: CloudProvider,
  spelling: string,
): R | undefined {
  const { last } = cache;
  if (last !== undefined && last.table === table && last.provider === provider)
    return last.records.get(spelling);
  const records = cache.tables.get(table)?.get(provider);
  if (records === undefined) return undefined;
  cache.last = { table, provider, records };
  return records.get(spelling);
}

/**
 * Keeps a found value under its spelling (at most {@link MAX_SPELLINGS} per table and provider) and returns it;
 * undefined is not kept.
 *
 * @example
 * ```ts
 * remember(slots, datasets.cloudInstances, 'aws', 't3.micro', { record });
 * ```
 */
export function remember<R>(
  cache: SpellingCache<R>,
  table: object,
  provider: CloudProvider,
  spelling: string,
  record: R | undefined,
): R | undefined {
  if (record === undefined) return undefined;
  let providers = cache.tables.get(table);
  if (providers === undefined) {
    providers = new Map();
    cache.tables.set(table, providers);
  }
  let records = providers.get(provider);
  if (records === undefined) {
    records = new Map();
    providers.set(provider, records);
  }
  if (records.size >= MAX_SPELLINGS) records.clear();
  records.set(spelling, record);
  return record;
}

/** The region record, or `unknown_region` with the datasets' reason when they list it as unsupported, else the provider's regions. */
export function resolveRegion(provider: CloudProvider, region: string, datasets: CloudDatasets): CloudRegion {
  const regions = datasets.cloudRegions;
  const record =
    spelled(regionSpellings, regions, provider, region) ??
    remember(regionSpellings, regions, provider, region, regions.get(provider, region));
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
  datasets: CloudInstanceDatasets,
): CloudInstance {
  const instances = datasets.cloudInstances;
  const record =
    spelled(instanceSpellings, instances, provider, instance) ??
    remember(instanceSpellings, instances, provider, instance, instances.get(provider, instance));
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

/** Checks an embodied year against the instance dataset's years. */
export function embodiedYear(year: number | undefined, datasets: CloudInstanceDatasets): number {
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
