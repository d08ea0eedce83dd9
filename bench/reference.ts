import { embodiedMetadata } from '../src/cloud/factors/embodied';
import { gridMetadata, usePhaseMetadata } from '../src/cloud/factors/use-phase';
import { factorId } from '../src/core/factor-id';
import type { CloudInstance, CloudRegion } from '../src/datasets/types';
import type { Datasets } from './workload';

/**
 * Plain-float reference implementations of the same formulas, the practical limit the engine is compared with:
 * hand-written validation (types, ranges, unknown keys), the same indexed dataset lookups, float arithmetic, and
 * an output object of the same shape. Factor metadata (names, ids) is built once per factor and cached, as an
 * engine could; the cloud metadata by the engine's own builders (src/cloud/factors/), so that the bench can check
 * every result deep-equal to the engine's (bench/compare.ts). No exactness: `0.1 + 0.2` stays
 * `0.30000000000000004` here.
 */

export class ReferenceError {
  constructor(
    readonly error_code: string,
    readonly path: string,
    readonly message: string,
  ) {}
}
const fail = (code: string, path: string, message: string): never => {
  throw new ReferenceError(code, path, message);
};

type Body = Record<string, unknown>;
const MAX = 1e15;

function object(value: unknown, allowed: ReadonlySet<string>): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('invalid_request', '', 'must be a JSON object');
  for (const key in value) if (!allowed.has(key)) fail('invalid_request', key, 'unknown field');
  return value as Body;
}
function quantity(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX)
    return fail('invalid_request', path, 'bad quantity');
  return value;
}
function count(value: unknown, path: string): number {
  const number = quantity(value, path);
  return Number.isInteger(number) ? number : fail('invalid_request', path, 'must be a whole number');
}
function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    return fail('invalid_request', path, 'bad string');
  return value;
}
function optionalYear(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1900 || value > 2200)
    return fail('invalid_request', 'year', 'bad year');
  return value;
}
function utilization(value: unknown): number {
  if (value === undefined) return 0.5;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    return fail('invalid_request', 'average_vcpu_utilization', 'bad utilization');
  return value;
}
function auditTrail(value: unknown): 'enabled' | 'disabled' {
  if (value === undefined) return 'enabled';
  return value === 'enabled' || value === 'disabled'
    ? value
    : fail('invalid_request', 'audit_trail', 'bad audit_trail');
}

const HOURS = new Map<string, [string, number]>([
  ['hour', ['hour', 1]],
  ['h', ['hour', 1]],
  ['min', ['min', 1 / 60]],
  ['sec', ['sec', 1 / 3600]],
  ['s', ['sec', 1 / 3600]],
  ['ms', ['ms', 1 / 3_600_000]],
  ['day', ['day', 24]],
]);
const GIGABYTES = new Map<string, number>([
  ['KB', 1e-6],
  ['MB', 1e-3],
  ['GB', 1],
  ['TB', 1000],
  ['PB', 1e6],
]);
function hours(duration: number, unit: unknown): number {
  if (unit === undefined) return duration;
  const found = typeof unit === 'string' ? HOURS.get(unit.toLowerCase()) : undefined;
  return found === undefined ? fail('invalid_request', 'duration_unit', 'bad unit') : duration * found[1];
}
function gigabytes(data: number, unit: unknown): number {
  if (unit === undefined) return data;
  const found = typeof unit === 'string' ? GIGABYTES.get(unit.toUpperCase()) : undefined;
  return found === undefined ? fail('invalid_request', 'data_unit', 'bad unit') : data * found;
}

interface Metadata {
  name: string;
  id: string;
  activity_id: string;
  access_type: 'public';
  source: string;
  source_dataset: string;
  year: number;
  region: string;
  category: string;
  source_lca_activity: string;
  data_quality_flags: string[];
}

function estimate(
  co2e: number,
  activity: number,
  unit: string,
  factor: number,
  meta: Metadata,
  method: string,
  origin: string,
  audit: string,
) {
  const enabled = audit === 'enabled';
  return {
    co2e,
    co2e_unit: 'kg',
    co2e_calculation_method: method,
    co2e_calculation_origin: origin,
    emission_factor: enabled
      ? {
          name: meta.name,
          id: meta.id,
          activity_id: meta.activity_id,
          factor,
          access_type: meta.access_type,
          source: meta.source,
          source_dataset: meta.source_dataset,
          year: meta.year,
          region: meta.region,
          category: meta.category,
          source_lca_activity: meta.source_lca_activity,
          data_quality_flags: [...meta.data_quality_flags],
        }
      : null,
    constituent_gases: enabled
      ? {
          co2e_total: origin === 'co2e-engine' ? null : factor,
          co2e_other: null,
          co2: null,
          ch4: null,
          n2o: null,
        }
      : null,
    activity_data: { activity_value: activity, activity_unit: unit },
    audit_trail: audit,
  };
}

const metadataCache = new Map<string, Metadata>();
function cachedMetadata(key: string, build: () => unknown): Metadata {
  let meta = metadataCache.get(key);
  if (meta === undefined) {
    meta = build() as Metadata;
    metadataCache.set(key, meta);
  }
  return meta;
}

function cloudContext(datasets: Datasets, provider: string) {
  const coefficients = datasets.cloudCoefficients.get(provider as 'aws');
  return coefficients ?? fail('unsupported_provider', 'provider_id', 'unsupported provider');
}
function regionOf(datasets: Datasets, provider: string, region: string) {
  return (
    datasets.cloudRegions.get(provider as 'aws', region) ?? fail('unknown_region', 'region', 'unknown region')
  );
}
/** The region's PUE where the coefficients have one, else the provider's (src/cloud/pue.ts). */
function pueOf(coefficients: ReturnType<typeof cloudContext>, region: CloudRegion): number {
  return coefficients.pue_by_region?.[region.region] ?? coefficients.pue;
}
function gridOf(record: { grid_factors: Record<string, number> }, year: number): number {
  const value = record.grid_factors[year];
  return value === undefined ? fail('no_emission_factors_found', 'year', 'no factor') : value;
}

type Kind = 'cpu' | 'memory' | 'storage' | 'networking';
function useMetadata(
  datasets: Datasets,
  kind: Kind,
  provider: string,
  region: CloudRegion,
  year: number,
  variant?: { label: string; id: string },
  identity = '',
) {
  return cachedMetadata(
    `${kind}\u0000${provider}\u0000${region.region}\u0000${year}\u0000${variant?.id}\u0000${identity}`,
    () => usePhaseMetadata(kind, provider as 'aws', region, year, datasets, variant, identity),
  );
}

const CPU_KEYS = new Set([
  'cpu_count',
  'region',
  'average_vcpu_utilization',
  'duration',
  'duration_unit',
  'year',
  'audit_trail',
]);
export function referenceCpu(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, CPU_KEYS);
  const cpuCount = count(body.cpu_count, 'cpu_count');
  const region = regionOf(datasets, provider, text(body.region, 'region'));
  const u = utilization(body.average_vcpu_utilization);
  const activity = cpuCount * hours(quantity(body.duration, 'duration'), body.duration_unit);
  const year = optionalYear(body.year) ?? datasets.cloudRegions.defaultYear;
  const factor =
    (((coefficients.min_watts + u * (coefficients.max_watts - coefficients.min_watts)) *
      pueOf(coefficients, region)) /
      1000) *
    gridOf(region, year);
  const meta = useMetadata(datasets, 'cpu', provider, region, year, undefined, `u=${u}`);
  return estimate(
    activity * factor,
    activity,
    'CPU-hour',
    factor,
    meta,
    datasets.cloudRegions.gwp,
    'source',
    auditTrail(body.audit_trail),
  );
}

const MEMORY_KEYS = new Set([
  'region',
  'data',
  'data_unit',
  'duration',
  'duration_unit',
  'year',
  'audit_trail',
]);
export function referenceMemory(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, MEMORY_KEYS);
  const region = regionOf(datasets, provider, text(body.region, 'region'));
  const activity =
    gigabytes(quantity(body.data, 'data'), body.data_unit) *
    hours(quantity(body.duration, 'duration'), body.duration_unit);
  const year = optionalYear(body.year) ?? datasets.cloudRegions.defaultYear;
  const factor = coefficients.memory_kwh_per_gb_hour * pueOf(coefficients, region) * gridOf(region, year);
  const meta = useMetadata(datasets, 'memory', provider, region, year);
  return estimate(
    activity * factor,
    activity,
    'GB-hour',
    factor,
    meta,
    datasets.cloudRegions.gwp,
    'source',
    auditTrail(body.audit_trail),
  );
}

const STORAGE_KEYS = new Set([...MEMORY_KEYS, 'storage_type']);
export function referenceStorage(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, STORAGE_KEYS);
  const region = regionOf(datasets, provider, text(body.region, 'region'));
  const type = typeof body.storage_type === 'string' ? body.storage_type.toLowerCase() : '';
  if (type !== 'ssd' && type !== 'hdd') fail('invalid_request', 'storage_type', 'bad storage type');
  const terabytes = gigabytes(quantity(body.data, 'data'), body.data_unit) / 1000;
  const activity = terabytes * hours(quantity(body.duration, 'duration'), body.duration_unit);
  const year = optionalYear(body.year) ?? datasets.cloudRegions.defaultYear;
  const wh = type === 'ssd' ? coefficients.ssd_wh_per_tb_hour : coefficients.hdd_wh_per_tb_hour;
  const factor = (wh / 1000) * pueOf(coefficients, region) * gridOf(region, year);
  const meta = useMetadata(datasets, 'storage', provider, region, year, {
    label: type.toUpperCase(),
    id: type,
  });
  return estimate(
    activity * factor,
    activity,
    'TB-hour',
    factor,
    meta,
    datasets.cloudRegions.gwp,
    'source',
    auditTrail(body.audit_trail),
  );
}

const NETWORKING_KEYS = new Set(['region', 'data', 'data_unit', 'year', 'audit_trail']);
export function referenceNetworking(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, NETWORKING_KEYS);
  const region = regionOf(datasets, provider, text(body.region, 'region'));
  const activity = gigabytes(quantity(body.data, 'data'), body.data_unit);
  const year = optionalYear(body.year) ?? datasets.cloudRegions.defaultYear;
  const factor = coefficients.networking_kwh_per_gb * pueOf(coefficients, region) * gridOf(region, year);
  const meta = useMetadata(datasets, 'networking', provider, region, year);
  return estimate(
    activity * factor,
    activity,
    'GB',
    factor,
    meta,
    datasets.cloudRegions.gwp,
    'source',
    auditTrail(body.audit_trail),
  );
}

function instanceOf(datasets: Datasets, provider: string, instance: string) {
  return (
    datasets.cloudInstances.get(provider as 'aws', instance) ??
    fail('unknown_instance', 'instance', 'unknown instance')
  );
}
function embodiedParts(
  datasets: Datasets,
  provider: string,
  instance: ReturnType<typeof instanceOf>,
  lifetime: number,
  year: number,
) {
  if (!datasets.cloudInstances.years.includes(year))
    fail('no_emission_factors_found', 'year', 'no embodied factor');
  const factor = (instance.platform_embodied_kgco2e * instance.vcpu) / (instance.platform_vcpu * lifetime);
  const meta = cachedMetadata(`embodied\u0000${provider}\u0000${instance.instance}\u0000${year}`, () =>
    embodiedMetadata(provider as 'aws', instance as CloudInstance, year, datasets),
  );
  return { factor, meta };
}

const EMBODIED_KEYS = new Set([
  'instance',
  'instance_count',
  'duration',
  'duration_unit',
  'year',
  'audit_trail',
]);
export function referenceEmbodied(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, EMBODIED_KEYS);
  const instance = instanceOf(datasets, provider, text(body.instance, 'instance'));
  const activity =
    count(body.instance_count, 'instance_count') *
    hours(quantity(body.duration, 'duration'), body.duration_unit);
  const year = optionalYear(body.year) ?? datasets.cloudInstances.defaultYear;
  const { factor, meta } = embodiedParts(
    datasets,
    provider,
    instance,
    coefficients.server_lifetime_hours,
    year,
  );
  return estimate(
    activity * factor,
    activity,
    'instance-hour',
    factor,
    meta,
    datasets.cloudInstances.gwp,
    'source',
    auditTrail(body.audit_trail),
  );
}

const INSTANCE_KEYS = new Set([
  'instance',
  'region',
  'duration',
  'duration_unit',
  'average_vcpu_utilization',
  'year',
  'audit_trail',
]);
/** The engine's GPU rule (src/cloud/gpu.ts): watts at CCF's 50 % GPU utilisation, or a notice when there are none. */
function gpuPart(
  instance: ReturnType<typeof instanceOf>,
  coefficients: ReturnType<typeof cloudContext>,
  pue: number,
): { count: number; model: string; kwhPerHour: number } | { notice: Notice } | undefined {
  const model = instance.gpu_model;
  if (model === undefined) return undefined;
  const gpus = instance.gpu_count ?? 0;
  const watts = coefficients.gpu_watts?.[model];
  if (gpus > 0 && watts !== undefined) {
    const perGpu = watts.min_watts + GPU_UTILIZATION * (watts.max_watts - watts.min_watts);
    return { count: gpus, model, kwhPerHour: ((gpus * perGpu) / 1000) * pue };
  }
  return {
    notice: {
      code: 'gpu_power_not_estimated',
      severity: 'warning',
      message: `${instance.instance}: GPU power is not in the estimate`,
    },
  };
}
const GPU_UTILIZATION = 0.5;
interface Notice {
  code: string;
  message: string;
  severity: string;
}

export function referenceInstance(provider: string, request: unknown, datasets: Datasets) {
  const coefficients = cloudContext(datasets, provider);
  const body = object(request, INSTANCE_KEYS);
  const instance = instanceOf(datasets, provider, text(body.instance, 'instance'));
  const region = regionOf(datasets, provider, text(body.region, 'region'));
  const time = hours(quantity(body.duration, 'duration'), body.duration_unit);
  const u = utilization(body.average_vcpu_utilization);
  const year = optionalYear(body.year);
  const electricityYear = year ?? datasets.cloudRegions.defaultYear;
  const grid = gridOf(region, electricityYear);
  const audit = auditTrail(body.audit_trail);
  // The region's PUE where the coefficients have one (src/cloud/pue.ts).
  const pue = pueOf(coefficients, region);
  const energyCpu =
    ((instance.vcpu *
      time *
      (coefficients.min_watts + u * (coefficients.max_watts - coefficients.min_watts))) /
      1000) *
    pue;
  const memoryGigabytes = instance.memory_gib * 1.073741824;
  const chargedGigabytes = instance.charged_memory_gb ?? memoryGigabytes;
  const energyMemory = chargedGigabytes * time * coefficients.memory_kwh_per_gb_hour * pue;
  const gridMeta = cachedMetadata(`grid\u0000${provider}\u0000${region.region}\u0000${electricityYear}`, () =>
    gridMetadata(provider as 'aws', region, electricityYear, datasets),
  );
  const method = datasets.cloudRegions.gwp;
  const embodied = embodiedParts(
    datasets,
    provider,
    instance,
    coefficients.server_lifetime_hours,
    year ?? datasets.cloudInstances.defaultYear,
  );
  const cpuEstimate = estimate(
    energyCpu * grid,
    energyCpu,
    'kWh',
    grid,
    gridMeta,
    method,
    'co2e-engine',
    audit,
  );
  const memoryEstimate = estimate(
    energyMemory * grid,
    energyMemory,
    'kWh',
    grid,
    gridMeta,
    method,
    'co2e-engine',
    audit,
  );
  const gpu = gpuPart(instance, coefficients, pue);
  const energyGpu = gpu !== undefined && 'kwhPerHour' in gpu ? time * gpu.kwhPerHour : undefined;
  const gpuEstimate =
    energyGpu === undefined
      ? undefined
      : estimate(energyGpu * grid, energyGpu, 'kWh', grid, gridMeta, method, 'co2e-engine', audit);
  const embodiedEstimate = estimate(
    time * embodied.factor,
    time,
    'instance-hour',
    embodied.factor,
    embodied.meta,
    datasets.cloudInstances.gwp,
    'source',
    audit,
  );
  return {
    total_co2e:
      cpuEstimate.co2e +
      memoryEstimate.co2e +
      (gpuEstimate === undefined ? 0 : gpuEstimate.co2e) +
      embodiedEstimate.co2e,
    total_co2e_unit: 'kg',
    memory_estimate: memoryEstimate,
    cpu_estimate: cpuEstimate,
    ...(gpuEstimate !== undefined && { gpu_estimate: gpuEstimate }),
    embodied_cpu_estimate: embodiedEstimate,
    calculation_details: {
      instance: body.instance,
      instance_memory: memoryGigabytes,
      memory_unit: 'GB',
      vcpu_cores: instance.vcpu,
      average_vcpu_utilization: u,
      power_usage_effectiveness: pue,
      energy_used_cpu: energyCpu,
      energy_used_memory: energyMemory,
      ...(instance.charged_memory_gb !== undefined && { charged_memory: instance.charged_memory_gb }),
      ...(gpu !== undefined &&
        'kwhPerHour' in gpu && {
          gpu_count: gpu.count,
          gpu_model: gpu.model,
          average_gpu_utilization: GPU_UTILIZATION,
          energy_used_gpu: energyGpu,
        }),
      energy_unit: 'kWh',
    },
    ...(gpu !== undefined && 'notice' in gpu && { notices: [{ ...gpu.notice }] }),
  };
}

const SPEND_KEYS = new Set([
  'activity',
  'spend_year',
  'spend_region',
  'money',
  'money_unit',
  'tax_margin',
  'trade_margin',
  'transport_margin',
  'audit_trail',
]);
const ACTIVITY_KEYS = new Set(['classification_type', 'classification_code']);
const MARGINS = ['tax_margin', 'trade_margin', 'transport_margin'] as const;

function margin(value: unknown, name: string, nonNegative: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value > 1 || value < (nonNegative ? 0 : -MAX))
    return fail('invalid_request', name, 'bad margin');
  return value;
}

/** Rate year: the spend year, else the nearest earlier year with both rates, else the nearest later one. */
function fxRate(
  datasets: Datasets,
  from: string,
  to: string,
  year: number,
): { rate: number; year: number | null; partial: string[] } {
  if (from === to) return { rate: 1, year: null, partial: [] };
  const years = datasets.fx.years(from).filter((candidate) => datasets.fx.rate(to, candidate) !== undefined);
  if (years.length === 0) fail('unsupported_currency', 'money_unit', 'no rates');
  let used = years.includes(year) ? year : undefined;
  if (used === undefined)
    used =
      [...years].reverse().find((candidate) => candidate < year) ??
      years.find((candidate) => candidate > year);
  const chosen = used as number;
  return {
    rate: (datasets.fx.rate(to, chosen) as number) / (datasets.fx.rate(from, chosen) as number),
    year: chosen,
    // A rate year averaging only part of the year (src/spend/currency.ts), for either currency.
    partial: [from, to].filter((currency) => datasets.fx.partialYear?.(currency, chosen) !== undefined),
  };
}

export function referenceSpend(request: unknown, datasets: Datasets) {
  const body = object(request, SPEND_KEYS);
  const activity = object(body.activity, ACTIVITY_KEYS);
  const type = text(activity.classification_type, 'activity.classification_type').toLowerCase();
  const code = text(activity.classification_code, 'activity.classification_code')
    .trim()
    .toUpperCase()
    .replaceAll('.', '');
  const spendYear = optionalYear(body.spend_year) ?? fail('invalid_request', 'spend_year', 'required');
  const region =
    typeof body.spend_region === 'string' && /^[A-Za-z]{2}$/.test(body.spend_region)
      ? body.spend_region.toUpperCase()
      : fail('invalid_request', 'spend_region', 'bad region');
  const money = quantity(body.money, 'money');
  const currency =
    typeof body.money_unit === 'string' && /^[A-Za-z]{3}$/.test(body.money_unit)
      ? body.money_unit.toLowerCase()
      : fail('invalid_request', 'money_unit', 'bad currency');
  const supplied = MARGINS.map((name) => margin(body[name], name, name !== 'tax_margin'));
  const audit = auditTrail(body.audit_trail);

  const products =
    datasets.classifications.products(type, code) ??
    fail('unknown_classification_code', 'activity.classification_code', 'unknown code');
  if (!datasets.spendFactors.regions.includes(region))
    fail('no_emission_factors_found', 'spend_region', 'no factors for the region');
  let rows = products.flatMap((product) => datasets.spendFactors.get(product, region) ?? []);
  if (rows.length === 0) fail('no_emission_factors_found', 'activity', 'no factor');
  const notices: Array<{ code: string; message: string; severity: string }> = [];
  if (rows.length < products.length)
    notices.push({
      code: 'products_without_factor',
      message: 'Some products have no factor.',
      severity: 'warning',
    });
  // The engine's product rule: output × the code's share of the product's classes (docs/spend.md).
  let weights = rows.map((row) => {
    const output = datasets.classifications.weight(region, row.product);
    const share = datasets.classifications.share?.(type, code, row.product);
    return output === undefined || share === undefined ? output : (output * share[0]) / share[1];
  });
  let weighted =
    rows.length > 1 &&
    weights.every((weight) => weight !== undefined) &&
    weights.reduce((a: number, b) => a + (b as number), 0) > 0;
  if (weighted) {
    const used = rows.filter((_, index) => (weights[index] as number) > 0);
    if (used.length === 1) {
      rows = used;
      weights = [undefined];
      weighted = false;
    }
  } else if (rows.length > 1)
    notices.push({ code: 'unweighted_mean', message: 'The factor is a plain mean.', severity: 'warning' });
  let factor: number;
  if (rows.length === 1) factor = rows[0]!.kgco2e;
  else if (weighted)
    factor =
      rows.reduce((sum, row, index) => sum + row.kgco2e * (weights[index] as number), 0) /
      weights.reduce((a: number, b) => a + (b as number), 0);
  else factor = rows.reduce((sum, row) => sum + row.kgco2e, 0) / rows.length;
  const shares = rows.map((row, index) => ({
    product: row.product,
    name: datasets.classifications.productName(row.product) ?? row.name,
    factor: row.kgco2e,
    weight: weighted ? (weights[index] as number) : null,
  }));

  const factorCurrency = datasets.spendFactors.currency;
  const fx = fxRate(datasets, currency, factorCurrency, spendYear);
  if (fx.year !== null && fx.year !== spendYear)
    notices.push({
      code: 'fx_year_fallback',
      message: `No ${spendYear} rate; ${fx.year} used.`,
      severity: 'warning',
    });
  for (const partial of fx.partial)
    notices.push({
      code: 'fx_partial_year',
      message: `The ${fx.year} rate of ${partial} is a partial year.`,
      severity: 'warning',
    });
  const origins: Record<string, 'supplied' | 'default' | 'none'> = {};
  let missingDefaults = false;
  const values = MARGINS.map((name, index) => {
    const given = supplied[index];
    if (given !== undefined) {
      origins[name] = 'supplied';
      return given;
    }
    const records = rows.map((row) => datasets.margins.get(region, row.product));
    if (!records.every((record) => record?.[name] !== undefined)) {
      origins[name] = 'none';
      missingDefaults = true;
      return 0;
    }
    origins[name] = 'default';
    if (records.length === 1) return records[0]![name] as number;
    if (!weighted)
      return records.reduce((sum, record) => sum + (record![name] as number), 0) / records.length;
    return (
      records.reduce(
        (sum, record, index) => sum + (record![name] as number) * (weights[index] as number),
        0,
      ) / weights.reduce((a: number, b) => a + (b as number), 0)
    );
  });
  if (missingDefaults)
    notices.push({
      code: 'default_margins_unavailable',
      message: `No default margins for ${region}; 0 used.`,
      severity: 'warning',
    });
  const basicShare = 1 - values[0]! - values[1]! - values[2]!;
  if (!(basicShare > 0)) fail('invalid_request', 'tax_margin', 'margins too large');

  const factorYear = datasets.spendFactors.factorYear;
  const forward = spendYear >= factorYear;
  const [from, to] = forward ? [factorYear, spendYear] : [spendYear, factorYear];
  const product = rows.length === 1 ? rows[0]!.product : undefined;
  let compounded = 1;
  // compounded − 1, kept apart so that a level near 1 keeps its digits: (1 + a)(1 + r) − 1 = a + r + a·r.
  let growth = 0;
  const years: number[] = [];
  const missing: number[] = [];
  for (let year = from + 1; year <= to; year++) {
    const rate =
      (product === undefined ? undefined : datasets.inflation.sectorRate(region, product, year)) ??
      datasets.inflation.countryRate(region, year);
    if (rate === undefined) missing.push(year);
    else {
      years.push(year);
      compounded *= 1 + rate / 100;
      growth += rate / 100 + (growth * rate) / 100;
    }
  }
  if (missing.length > 0)
    notices.push({
      code: 'partial_inflation_adjustment',
      message: `Inflation data for ${region} is missing for ${missing.join(', ')}.`,
      severity: 'warning',
    });
  const level = forward ? compounded : 1 / compounded;
  const amount = money * fx.rate;
  const activityValue = (amount * basicShare) / level;

  const meta = cachedMetadata(`spend\u0000${type}\u0000${code}\u0000${region}\u0000${rows.length}`, () =>
    spendMetadata(datasets, type, code, region, rows, weighted),
  );
  const usedDefaults = MARGINS.some((name) => origins[name] === 'default');
  return {
    estimate: estimate(
      activityValue * factor,
      activityValue,
      factorCurrency,
      factor,
      meta,
      datasets.spendFactors.gwp,
      rows.length === 1 ? 'source' : 'co2e-engine',
      audit,
    ),
    calculation_details: {
      tax_margin: values[0],
      trade_margin: values[1],
      transport_margin: values[2],
      inflation_applied: forward ? growth : -growth / compounded,
      margin_sources: origins,
      ...(usedDefaults ? { margin_datasets: marginDatasets(datasets, region, rows) } : {}),
      inflation_years: years,
      exchange_rate: fx.rate,
      exchange_rate_year: fx.year,
      money_in_factor_currency: amount,
      factor_currency: factorCurrency,
      factor_year: factorYear,
      price_basis: datasets.spendFactors.priceBasis,
      products: shares,
    },
    notices,
  };
}

type SpendRow = NonNullable<ReturnType<Datasets['spendFactors']['get']>>;

const marginDatasetsCache = new Map<string, string[]>();
function marginDatasets(datasets: Datasets, region: string, rows: readonly SpendRow[]): string[] {
  const key = `${region}\u0000${rows.map((row) => row.product).join('\u0000')}`;
  let named = marginDatasetsCache.get(key);
  if (named === undefined) {
    const { margins } = datasets;
    named = [
      ...new Set(
        rows.map((row) => {
          const info = margins.recordDataset?.(region, row.product) ?? margins.info;
          return `${info.id}@${info.version}`;
        }),
      ),
    ].sort();
    marginDatasetsCache.set(key, named);
  }
  return [...named];
}

/** The engine's spend metadata rule (src/spend/spend.ts), built once per factor. */
function spendMetadata(
  datasets: Datasets,
  type: string,
  code: string,
  region: string,
  rows: readonly SpendRow[],
  weighted: boolean,
): Metadata {
  const infos = [
    ...new Map(
      rows
        .map((row) => row.dataset ?? datasets.spendFactors.info)
        .map((info) => [`${info.id}\u0000${info.version}`, info] as const),
    ).values(),
  ];
  const identity = infos.flatMap((info) => [info.id, info.version]);
  const base = {
    access_type: 'public' as const,
    source: [...new Set(infos.map((info) => info.source))].join('; '),
    source_dataset: [...new Set(infos.map((info) => info.source_dataset))].join('; '),
    year: datasets.spendFactors.factorYear,
    region,
    source_lca_activity: 'unknown',
  };
  const single = rows.length === 1 ? rows[0] : undefined;
  if (single !== undefined)
    return {
      ...base,
      name: single.name,
      id: factorId([...identity, single.activity_id, single.product, region]),
      activity_id: single.activity_id,
      category: 'Procurement',
      data_quality_flags: [...single.data_quality_flags],
    };
  const products = rows.map((row) => row.product);
  const mapping = datasets.classifications.mappingDataset?.(type, code) ?? datasets.classifications.info;
  return {
    ...base,
    name: `${type} ${code}: ${weighted ? 'output-weighted' : 'unweighted'} mean of ${products.length} ${datasets.classifications.productClassification} products (${products.join(', ')})`,
    id: factorId([...identity, mapping.id, mapping.version, type, code, region]),
    activity_id: `${type}-${code.toLowerCase().replaceAll('.', '_')}-mean`,
    category: 'Procurement',
    data_quality_flags: [...new Set(rows.flatMap((row) => row.data_quality_flags))].sort(),
  };
}

/** Same contract as the engine's batches: in order, a bad element becomes its error body. */
export function referenceBatch<T>(
  requests: readonly unknown[],
  calculate: (request: unknown) => T,
): Array<T | ReferenceError> {
  const results: Array<T | ReferenceError> = new Array(requests.length);
  for (let index = 0; index < requests.length; index++) {
    try {
      results[index] = calculate(requests[index]);
    } catch (error) {
      if (!(error instanceof ReferenceError)) throw error;
      results[index] = new ReferenceError(
        error.error_code,
        `requests[${index}].${error.path}`,
        error.message,
      );
    }
  }
  return results;
}

/** The reference of each calculator, with the provider and datasets bound. */
export function referenceCalls(datasets: Datasets, kind: string, provider: string) {
  const singles: Record<string, (request: unknown) => unknown> = {
    cpu: (request: unknown) => referenceCpu(provider, request, datasets),
    memory: (request: unknown) => referenceMemory(provider, request, datasets),
    storage: (request: unknown) => referenceStorage(provider, request, datasets),
    networking: (request: unknown) => referenceNetworking(provider, request, datasets),
    embodied: (request: unknown) => referenceEmbodied(provider, request, datasets),
    instance: (request: unknown) => referenceInstance(provider, request, datasets),
    spend: (request: unknown) => referenceSpend(request, datasets),
  };
  const single = singles[kind];
  if (single === undefined) throw new Error(`no reference for ${kind}`);
  return { single, batch: (requests: unknown[]) => referenceBatch(requests, single) };
}

/** Whether the reference accepts a request (used to draw valid varied requests without warming the engine). */
export const acceptedBy = (reference: { single: (request: unknown) => unknown }) => (request: unknown) => {
  try {
    reference.single(request);
    return true;
  } catch (error) {
    if (error instanceof ReferenceError) return false;
    throw error;
  }
};
