import type * as Library from '../src/index';
import type * as DatasetsEntry from '../src/embedded/index';
import { drawFrom, seededRandom } from '../tests/fixtures/seeded-random';

/**
 * Deterministic, varied, valid requests for the benchmarks: many regions, instances, units, years and
 * classification codes, so lookups and arithmetic are not measured on one hot input.
 */

export type Lib = typeof Library;
export type DatasetsModule = typeof DatasetsEntry;
export type Datasets = DatasetsModule['defaultDatasets'];

export const CALCULATORS = [
  'cpu',
  'memory',
  'storage',
  'networking',
  'embodied',
  'instance',
  'spend',
] as const;
export type CalculatorName = (typeof CALCULATORS)[number];

/** Cloud requests are for one provider, as a batch is. */
export const PROVIDER = 'aws';

const round = (value: number, places: number) => Number(value.toFixed(places));

type Candidate = Record<string, unknown>;

function cloudCandidate(
  kind: Exclude<CalculatorName, 'spend'>,
  next: () => number,
  datasets: Datasets,
): Candidate {
  const region = drawFrom(next, datasets.cloudRegions.list(PROVIDER));
  const instance = drawFrom(next, datasets.cloudInstances.list(PROVIDER));
  const duration = round(next() * 1000, 2);
  const durationUnit = drawFrom(next, ['hour', 'h', 'min', 'day', 'sec']);
  const data = round(next() * 512, 3);
  const dataUnit = drawFrom(next, ['GB', 'TB', 'MB', 'gb']);
  const year = next() < 0.5 ? {} : { year: drawFrom(next, [2021, 2022, 2023, 2024, 2025]) };
  const utilization = next() < 0.5 ? {} : { average_vcpu_utilization: round(next(), 2) };
  switch (kind) {
    case 'cpu':
      return {
        cpu_count: 1 + Math.floor(next() * 64),
        region,
        duration,
        duration_unit: durationUnit,
        ...utilization,
        ...year,
      };
    case 'memory':
      return { region, data, data_unit: dataUnit, duration, duration_unit: durationUnit, ...year };
    case 'storage':
      return {
        region,
        storage_type: drawFrom(next, ['ssd', 'hdd']),
        data,
        data_unit: dataUnit,
        duration,
        duration_unit: durationUnit,
        ...year,
      };
    case 'networking':
      return { region, data, data_unit: dataUnit, ...year };
    case 'embodied':
      return { instance, instance_count: 1 + Math.floor(next() * 10), duration, duration_unit: durationUnit };
    case 'instance':
      return { instance, region, duration, duration_unit: durationUnit, ...utilization, ...year };
  }
}

function spendCandidate(next: () => number, datasets: Datasets, codes: readonly string[]): Candidate {
  const region = drawFrom(next, datasets.spendFactors.regions);
  const margins =
    next() < 0.5
      ? {}
      : {
          tax_margin: round(next() * 0.2, 3),
          trade_margin: round(next() * 0.2, 3),
          transport_margin: round(next() * 0.05, 3),
        };
  return {
    activity: { classification_type: 'isic4', classification_code: drawFrom(next, codes) },
    spend_year: 2012 + Math.floor(next() * 14),
    spend_region: region,
    money: round(next() * 100_000, 2),
    money_unit: drawFrom(next, ['eur', 'usd', 'gbp', 'nok', 'brl', 'EUR']),
    ...margins,
  };
}

/** The call of one calculator, single and batch, with the datasets bound. */
export function engineCalls(lib: Lib, datasets: Datasets, kind: CalculatorName) {
  switch (kind) {
    case 'cpu':
      return {
        single: (r: unknown) => lib.calculateCpu(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateCpuBatch(PROVIDER, rs as never[], datasets),
      };
    case 'memory':
      return {
        single: (r: unknown) => lib.calculateMemory(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateMemoryBatch(PROVIDER, rs as never[], datasets),
      };
    case 'storage':
      return {
        single: (r: unknown) => lib.calculateStorage(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateStorageBatch(PROVIDER, rs as never[], datasets),
      };
    case 'networking':
      return {
        single: (r: unknown) => lib.calculateNetworking(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateNetworkingBatch(PROVIDER, rs as never[], datasets),
      };
    case 'embodied':
      return {
        single: (r: unknown) => lib.calculateEmbodied(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateEmbodiedBatch(PROVIDER, rs as never[], datasets),
      };
    case 'instance':
      return {
        single: (r: unknown) => lib.calculateInstance(PROVIDER, r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateInstanceBatch(PROVIDER, rs as never[], datasets),
      };
    case 'spend':
      return {
        single: (r: unknown) => lib.calculateSpend(r as never, datasets),
        batch: (rs: unknown[]) => lib.calculateSpendBatch(rs as never[], datasets),
      };
  }
}

/**
 * A pool of distinct valid requests (each checked once against the engine), from which batches are drawn. Pools
 * are small next to the batches, so a batch repeats requests, but every element is its own object.
 */
export function requestPool(
  lib: Lib,
  datasets: Datasets,
  tables: DatasetsModule['defaultTables'],
  kind: CalculatorName,
  size = 2048,
): Candidate[] {
  const next = seededRandom(0xc02e + CALCULATORS.indexOf(kind));
  const codes = Object.keys(tables.classifications.mappings.isic4 ?? {});
  const { single } = engineCalls(lib, datasets, kind);
  const pool: Candidate[] = [];
  for (let attempt = 0; pool.length < size && attempt < size * 20; attempt++) {
    const candidate =
      kind === 'spend' ? spendCandidate(next, datasets, codes) : cloudCandidate(kind, next, datasets);
    try {
      single(candidate);
      pool.push(candidate);
    } catch {
      // Not every random code has a factor in every region; only valid requests are measured.
    }
  }
  if (pool.length < size) throw new Error(`only ${pool.length} valid ${kind} requests found`);
  return pool;
}

/** `count` requests drawn from the pool in order, each a fresh copy (its nested activity too). */
export function batchOf(pool: readonly Candidate[], count: number): Candidate[] {
  const requests: Candidate[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const template = pool[index % pool.length] as Candidate;
    requests[index] =
      template.activity === undefined
        ? { ...template }
        : { ...template, activity: { ...(template.activity as object) } };
  }
  return requests;
}

/**
 * A varied request: every field drawn independently (amount, duration and its unit, utilisation, region,
 * instance type, year, currency, classification code, margins), as in a real ledger or bill, where rows rarely
 * repeat. Utilisation has two decimals (monitoring reports it in percent).
 */
function variedCandidate(
  kind: CalculatorName,
  next: () => number,
  datasets: Datasets,
  codes: readonly string[],
): Candidate {
  if (kind !== 'spend') {
    const candidate = cloudCandidate(kind, next, datasets);
    // The pooled candidate draws the same fields; varied ones add a year to embodied requests too.
    if (kind === 'embodied' && next() < 0.5) candidate.year = drawFrom(next, datasets.cloudInstances.years);
    return candidate;
  }
  const candidate = spendCandidate(next, datasets, codes);
  candidate.money_unit = drawFrom(next, datasets.fx.currencies);
  return candidate;
}

/**
 * `count` varied requests (see {@link variedCandidate}), each drawn independently from `seed`. Only requests the
 * plain-float reference accepts are kept (`accept`), so the engine's caches are not warmed by the selection.
 */
export function variedBatch(
  datasets: Datasets,
  tables: DatasetsModule['defaultTables'],
  kind: CalculatorName,
  count: number,
  seed: number,
  accept: (request: unknown) => boolean,
): Candidate[] {
  const next = seededRandom(seed * 7919 + CALCULATORS.indexOf(kind));
  const codes = Object.keys(tables.classifications.mappings.isic4 ?? {});
  const requests: Candidate[] = [];
  for (let attempt = 0; requests.length < count && attempt < count * 20; attempt++) {
    const candidate = variedCandidate(kind, next, datasets, codes);
    if (accept(candidate)) requests.push(candidate);
  }
  if (requests.length < count) throw new Error(`only ${requests.length} valid varied ${kind} requests found`);
  return requests;
}
