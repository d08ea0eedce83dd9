import type { Datasets } from './workload';

/**
 * Plain-float reference implementations of the same formulas, the practical limit the engine is compared with:
 * hand-written validation (types, ranges, unknown keys), the same indexed dataset lookups, float arithmetic, and
 * an output object of the same shape. Factor metadata (names, ids) is built once per factor and cached, as an
 * engine could. No exactness: `0.1 + 0.2` stays `0.30000000000000004` here.
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
      ? { co2e_total: factor, co2e_other: null, co2: null, ch4: null, n2o: null }
      : null,
    activity_data: { activity_value: activity, activity_unit: unit },
    audit_trail: audit,
  };
}

/** A cheap stable id (FNV-1a); computed once per factor thanks to the cache. */
function cheapId(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const metadataCache = new Map<string, Metadata>();
function cachedMetadata(key: string, build: () => Omit<Metadata, 'id'>): Metadata {
  let meta = metadataCache.get(key);
  if (meta === undefined) {
    meta = { ...build(), id: cheapId(key) };
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
function gridOf(record: { grid_factors: Record<string, number> }, year: number): number {
  const value = record.grid_factors[year];
  return value === undefined ? fail('no_emission_factors_found', 'year', 'no factor') : value;
}

type Kind = 'cpu' | 'memory' | 'storage' | 'networking';
const LABEL: Record<Kind, string> = {
  cpu: 'CPU',
  memory: 'Memory',
  storage: 'Storage',
  networking: 'Networking',
};
function useMetadata(
  datasets: Datasets,
  kind: Kind,
  provider: string,
  region: { region: string; location: string },
  year: number,
  variant = '',
) {
  return cachedMetadata(`${kind}|${provider}|${region.region}|${year}|${variant}`, () => ({
    name: `${provider.toUpperCase()} (${region.region}) ${variant}${LABEL[kind]}`,
    activity_id: `${kind}-provider_${provider}-region_${region.region.replaceAll('-', '_')}`,
    access_type: 'public',
    source: datasets.cloudCoefficients.info.source,
    source_dataset: `${datasets.cloudCoefficients.info.source_dataset}; grid: ${datasets.cloudRegions.info.source_dataset}`,
    year,
    region: region.location,
    category: `Cloud Computing - ${LABEL[kind]}`,
    source_lca_activity: 'use_phase',
    data_quality_flags: ['notable_methodological_variance'],
  }));
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
    (((coefficients.min_watts + u * (coefficients.max_watts - coefficients.min_watts)) * coefficients.pue) /
      1000) *
    gridOf(region, year);
  const meta = useMetadata(datasets, 'cpu', provider, region, year, `u=${u}`);
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
  const factor = coefficients.memory_kwh_per_gb_hour * coefficients.pue * gridOf(region, year);
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
  const factor = (wh / 1000) * coefficients.pue * gridOf(region, year);
  const meta = useMetadata(datasets, 'storage', provider, region, year, `${type.toUpperCase()} `);
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
  const factor = coefficients.networking_kwh_per_gb * coefficients.pue * gridOf(region, year);
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
  const meta = cachedMetadata(`embodied|${provider}|${instance.instance}|${year}`, () => ({
    name: `${provider.toUpperCase()} ${instance.instance} Embodied CPU`,
    activity_id: `embodied_cpu-provider_${provider}-instance_${instance.instance}`,
    access_type: 'public',
    source: datasets.cloudInstances.info.source,
    source_dataset: datasets.cloudInstances.info.source_dataset,
    year,
    region: 'GLOBAL',
    category: 'Cloud Computing - Embodied CPU',
    source_lca_activity: 'upstream-end_of_life',
    data_quality_flags: ['notable_methodological_variance'],
  }));
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
  const energyCpu =
    ((instance.vcpu *
      time *
      (coefficients.min_watts + u * (coefficients.max_watts - coefficients.min_watts))) /
      1000) *
    coefficients.pue;
  const memoryGigabytes = instance.memory_gib * 1.073741824;
  const energyMemory = memoryGigabytes * time * coefficients.memory_kwh_per_gb_hour * coefficients.pue;
  const gridMeta = cachedMetadata(`grid|${provider}|${region.region}|${electricityYear}`, () => ({
    name: `Electricity supplied from grid: ${provider.toUpperCase()} (${region.region}), zone ${region.grid_zone}`,
    activity_id: `electricity-supply_grid-provider_${provider}-region_${region.region}`,
    access_type: 'public',
    source: datasets.cloudRegions.info.source,
    source_dataset: datasets.cloudRegions.info.source_dataset,
    year: electricityYear,
    region: region.location,
    category: 'Electricity',
    source_lca_activity: 'electricity_generation',
    data_quality_flags: [],
  }));
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
    total_co2e: cpuEstimate.co2e + memoryEstimate.co2e + embodiedEstimate.co2e,
    total_co2e_unit: 'kg',
    memory_estimate: memoryEstimate,
    cpu_estimate: cpuEstimate,
    embodied_cpu_estimate: embodiedEstimate,
    calculation_details: {
      instance: body.instance,
      instance_memory: memoryGigabytes,
      memory_unit: 'GB',
      vcpu_cores: instance.vcpu,
      average_vcpu_utilization: u,
      power_usage_effectiveness: coefficients.pue,
      energy_used_cpu: energyCpu,
      energy_used_memory: energyMemory,
      energy_unit: 'kWh',
    },
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
): { rate: number; year: number | null } {
  if (from === to) return { rate: 1, year: null };
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
  const rows = products.flatMap((product) => datasets.spendFactors.get(product, region) ?? []);
  if (rows.length === 0) fail('no_emission_factors_found', 'activity', 'no factor');
  // The engine's product rule: output × the code's share of the product's classes (docs/spend.md).
  const weights = rows.map((row) => {
    const output = datasets.classifications.weight(region, row.product);
    const share = datasets.classifications.share?.(type, code, row.product);
    return output === undefined || share === undefined ? output : (output * share[0]) / share[1];
  });
  const weighted =
    rows.length > 1 &&
    weights.every((weight) => weight !== undefined) &&
    weights.reduce((a: number, b) => a + (b as number), 0) > 0;
  let factor: number;
  if (rows.length === 1) factor = rows[0]!.kgco2e;
  else if (weighted)
    factor =
      rows.reduce((sum, row, index) => sum + row.kgco2e * (weights[index] as number), 0) /
      weights.reduce((a: number, b) => a + (b as number), 0);
  else factor = rows.reduce((sum, row) => sum + row.kgco2e, 0) / rows.length;
  const shares = rows.map((row, index) => ({
    product: row.product,
    name: row.name,
    factor: row.kgco2e,
    weight: weighted ? (weights[index] as number) : null,
  }));

  const factorCurrency = datasets.spendFactors.currency;
  const fx = fxRate(datasets, currency, factorCurrency, spendYear);
  const notices: Array<{ code: string; message: string; severity: string }> = [];
  if (fx.year !== null && fx.year !== spendYear)
    notices.push({
      code: 'fx_year_fallback',
      message: `No ${spendYear} rate; ${fx.year} used.`,
      severity: 'warning',
    });
  const values = MARGINS.map((name, index) => {
    const given = supplied[index];
    if (given !== undefined) return given;
    const records = rows.map((row) => datasets.margins.get(region, row.product));
    return records.every((record) => record?.[name] !== undefined)
      ? records.reduce((sum, record) => sum + (record?.[name] ?? 0), 0) / records.length
      : 0;
  });
  if (
    supplied.some((value) => value === undefined) &&
    values.some((value, index) => value === 0 && supplied[index] === undefined)
  ) {
    notices.push({
      code: 'default_margins_unavailable',
      message: `No default margins for ${region}; 0 used.`,
      severity: 'warning',
    });
  }
  const basicShare = 1 - values[0]! - values[1]! - values[2]!;
  if (!(basicShare > 0)) fail('invalid_request', 'tax_margin', 'margins too large');

  const factorYear = datasets.spendFactors.factorYear;
  const forward = spendYear >= factorYear;
  const [from, to] = forward ? [factorYear, spendYear] : [spendYear, factorYear];
  const product = rows.length === 1 ? rows[0]!.product : undefined;
  let compounded = 1;
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

  const meta = cachedMetadata(`spend|${type}|${code}|${region}`, () => ({
    name: rows.length === 1 ? rows[0]!.name : `${type} ${code}: mean of ${rows.length} products`,
    activity_id: rows.length === 1 ? rows[0]!.activity_id : `${type}-${code.toLowerCase()}-mean`,
    access_type: 'public',
    source: datasets.spendFactors.info.source,
    source_dataset: datasets.spendFactors.info.source_dataset,
    year: factorYear,
    region,
    category: 'Procurement',
    source_lca_activity: 'unknown',
    data_quality_flags: [...new Set(rows.flatMap((row) => row.data_quality_flags))].sort(),
  }));
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
      inflation_applied: level - 1,
      margin_sources: Object.fromEntries(
        MARGINS.map((name, index) => [name, supplied[index] === undefined ? 'default' : 'supplied']),
      ),
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
