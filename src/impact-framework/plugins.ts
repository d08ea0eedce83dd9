// The files, not their folders: @grnsft/if-core has no exports map, and Node's ESM loader refuses folder imports.
import { PluginFactory } from '@grnsft/if-core/interfaces/index.js';
import { ERRORS } from '@grnsft/if-core/utils/index.js';
import { calculateEmbodied } from '../cloud/embodied';
import { type ElectricityResource, electricityEstimate } from '../cloud/electricity';
import { calculateInstance } from '../cloud/instance';
import { decimal, div, mul, sum, toNumber } from '../core/decimal';
import type { Estimate } from '../core/estimate';
import type { CloudInstanceDatasets, SpendDatasets } from '../datasets/types';
import { loadDatasets } from '../node/load-datasets';
import { normaliseCode } from '../spend/classification';
import { calculateSpend } from '../spend/spend';
import { badParameter, computeObservation, type Observation, quantity, text } from './observations';

/**
 * The plugins of `co2e-engine/impact-framework`: each maps an Impact Framework observation (IF's parameter names,
 * `duration` in seconds) to one library call and writes IF's outputs (energy in kWh, carbon in gCO2e) beside it.
 */

const { ConfigError } = ERRORS;

/** How IF aggregates a parameter over time and over components. */
type Aggregation = 'sum' | 'avg' | 'copy' | 'none';
interface Parameter {
  description: string;
  unit: string;
  'aggregation-method': { time: Aggregation; component: Aggregation };
}
type Parameters = Readonly<Record<string, Parameter>>;

const parameter = (description: string, unit: string, time: Aggregation, component = time): Parameter => ({
  description,
  unit,
  'aggregation-method': { time, component },
});

/** A plugin as IF 1.x loads it (`method:` + `path:` in a manifest): config, parameter metadata and mapping in. */
export type ImpactFrameworkPlugin = (
  config?: Record<string, unknown>,
  parametersMetadata?: { inputs?: Record<string, Parameter>; outputs?: Record<string, Parameter> },
  mapping?: Record<string, string>,
) => {
  metadata: { inputs: Record<string, Parameter>; outputs: Record<string, Parameter> };
  execute: (inputs: Array<Record<string, unknown>>) => Promise<Array<Record<string, unknown>>>;
};

/** The plugin's config: the dataset presets (or files) to compute with, and the factor year. */
interface PluginConfig {
  datasets: readonly string[];
  year: number | undefined;
}

const CONFIG_KEYS = ['datasets', 'year'];

/** Checks a manifest's `config:` for a plugin; a bad one is IF's `ConfigError`. */
function readConfig(config: Record<string, unknown> | undefined): PluginConfig {
  const given = config ?? {};
  const unknown = Object.keys(given).filter((key) => !CONFIG_KEYS.includes(key));
  if (unknown.length > 0)
    throw new ConfigError(
      `Unknown config ${unknown.map((key) => `'${key}'`).join(', ')}; known: datasets, year.`,
    );
  const datasets = given.datasets ?? ['default'];
  const specs = typeof datasets === 'string' ? [datasets] : datasets;
  if (
    !Array.isArray(specs) ||
    specs.length === 0 ||
    !specs.every((spec) => typeof spec === 'string' && spec !== '')
  )
    throw new ConfigError(
      `'datasets' must be a preset name or file, or a list of them (e.g. hosted-api-2021).`,
    );
  const year = given.year;
  if (year !== undefined && (typeof year !== 'number' || !Number.isInteger(year)))
    throw new ConfigError(`'year' must be a whole number (the factor year), got ${JSON.stringify(year)}.`);
  return { datasets: specs as string[], year };
}

const loaded = new Map<string, CloudInstanceDatasets & SpendDatasets>();

/** The datasets a config names, loaded once per process; a bad name or file is IF's `ConfigError`. */
function datasetsOf(config: PluginConfig): CloudInstanceDatasets & SpendDatasets {
  const key = JSON.stringify(config.datasets);
  let datasets = loaded.get(key);
  if (datasets === undefined) {
    try {
      datasets = loadDatasets(config.datasets);
    } catch (error) {
      throw new ConfigError(`'datasets': ${error instanceof Error ? error.message : String(error)}`);
    }
    loaded.set(key, datasets);
  }
  return datasets;
}

const THOUSAND = decimal(1000);
/** kg → g, exactly (the decimal of the library's number × 1000). */
const grams = (kilograms: number): number => toNumber(mul(decimal(kilograms), THOUSAND));
/** The exact sum of output numbers. */
const total = (values: readonly number[]): number => toNumber(sum(values.map((value) => decimal(value))));
/** IF's `cpu/utilization` (percent) as the library's fraction, exactly (33.3 % → 0.333). */
const fraction = (percent: number): number => toNumber(div(decimal(percent), decimal(100)));

function utilization(observation: Observation, index: number): number {
  const percent = quantity(observation, 'cpu/utilization', index, { min: 'zero' });
  if (percent > 100) throw badParameter('cpu/utilization', 'above 100 (a percentage)', index);
  return fraction(percent);
}

const factorId = (estimate: Estimate): string | undefined => estimate.emission_factor?.id;

/** Builds a plugin: the config read once, then `compute` on each observation with its index. */
function plugin(
  inputs: Parameters,
  outputs: Parameters,
  compute: (
    observation: Observation,
    index: number,
    datasets: CloudInstanceDatasets & SpendDatasets,
    config: PluginConfig,
  ) => Record<string, unknown>,
): ImpactFrameworkPlugin {
  return PluginFactory<PluginConfig>({
    metadata: { inputs: { ...inputs }, outputs: { ...outputs } },
    configValidation: (config) => readConfig(config),
    implementation: async (observations, config) => {
      const datasets = datasetsOf(config);
      return observations.map((observation, index) => ({
        ...observation,
        ...compute(observation, index, datasets, config),
      }));
    },
  }) as unknown as ImpactFrameworkPlugin;
}

const TIME = {
  timestamp: parameter('start of the observation (ISO 8601)', 'ISO date', 'none'),
  duration: parameter('length of the observation', 'seconds', 'sum'),
};
const VENDOR = parameter('cloud provider: aws, azure or gcp', 'none', 'copy');
const REGION = parameter(
  "the provider's region, in its own spelling (eu-central-1, westeurope, europe-west1)",
  'none',
  'copy',
);
const INSTANCE_TYPE = parameter('instance type (t3a.large, Standard_D2s_v3, n2-standard-4)', 'none', 'copy');
const UTILIZATION = parameter('average CPU utilisation over the observation', 'percentage', 'avg');
const energyOutput = (what: string) => parameter(`${what} electricity, PUE included`, 'kWh', 'sum');
const carbonOutput = (what: string) => parameter(what, 'gCO2e', 'sum');
const factorOutput = (what: string) => parameter(`co2e-engine id of the ${what} factor`, 'none', 'none');

/** The library's request field → the IF parameter it came from, for error messages. */
const CLOUD_PARAMETERS = {
  provider_id: 'cloud/vendor',
  instance: 'cloud/instance-type',
  region: 'cloud/region',
  average_vcpu_utilization: 'cpu/utilization',
  duration: 'duration',
  cpu_count: 'vcpus-allocated',
  data: 'memory/capacity',
};

/**
 * A whole cloud instance per observation (`calculateInstance`): CPU and memory electricity, operational carbon at
 * the region's grid factor, and the embodied carbon of its CPUs.
 *
 * @example
 * ```yaml
 * cloud-instance:
 *   method: CloudInstance
 *   path: co2e-engine/impact-framework
 *   config: { datasets: default }
 * ```
 */
export const CloudInstance = plugin(
  {
    ...TIME,
    'cloud/vendor': VENDOR,
    'cloud/instance-type': INSTANCE_TYPE,
    'cloud/region': REGION,
    'cpu/utilization': UTILIZATION,
  },
  {
    'cpu/energy': energyOutput('CPU'),
    'memory/energy': energyOutput('memory'),
    // Only GPU instances write it, but IF drops an undeclared output from aggregation and `explain`.
    'gpu/energy': energyOutput('GPU'),
    energy: energyOutput('CPU, memory (and GPU)'),
    'carbon-operational': carbonOutput('CPU, memory (and GPU) electricity emissions'),
    'carbon-embodied': carbonOutput('embodied emissions of the CPUs over the observation'),
    carbon: carbonOutput('operational + embodied'),
    'grid/carbon-intensity': parameter("the region's grid factor", 'gCO2e/kWh', 'avg'),
    'grid/factor-id': factorOutput('grid'),
    'embodied/factor-id': factorOutput('embodied CPU'),
  },
  (observation, index, datasets, config) => {
    const request = {
      instance: text(observation, 'cloud/instance-type', index),
      region: text(observation, 'cloud/region', index),
      duration: quantity(observation, 'duration', index, { min: 'positive' }),
      duration_unit: 's',
      average_vcpu_utilization: utilization(observation, index),
      ...(config.year !== undefined && { year: config.year }),
    };
    const vendor = text(observation, 'cloud/vendor', index);
    const answer = computeObservation(index, CLOUD_PARAMETERS, () =>
      calculateInstance(vendor as 'aws', request as never, datasets),
    );
    const details = answer.calculation_details;
    const electricity = [
      answer.cpu_estimate,
      answer.memory_estimate,
      ...(answer.gpu_estimate ? [answer.gpu_estimate] : []),
    ];
    return {
      'cpu/energy': details.energy_used_cpu,
      'memory/energy': details.energy_used_memory,
      ...(details.energy_used_gpu !== undefined && { 'gpu/energy': details.energy_used_gpu }),
      energy: total(electricity.map((estimate) => estimate.activity_data.activity_value)),
      'carbon-operational': grams(total(electricity.map((estimate) => estimate.co2e))),
      'carbon-embodied': grams(answer.embodied_cpu_estimate.co2e),
      carbon: grams(answer.total_co2e),
      ...(answer.cpu_estimate.emission_factor && {
        'grid/carbon-intensity': grams(answer.cpu_estimate.emission_factor.factor),
        'grid/factor-id': answer.cpu_estimate.emission_factor.id,
      }),
      ...(factorId(answer.embodied_cpu_estimate) !== undefined && {
        'embodied/factor-id': factorId(answer.embodied_cpu_estimate),
      }),
    };
  },
);

/**
 * A use-phase resource plugin: the electricity (kWh, PUE included) of `<prefix>/energy`, its emissions at the
 * region's grid factor in `<prefix>/carbon` (g), and the factor id; IF's `Sum` adds them up to `energy` and
 * `carbon-operational` (see examples/impact-framework/).
 */
function usePhasePlugin(
  resource: ElectricityResource,
  prefix: string,
  label: string,
  inputs: Parameters,
  request: (observation: Observation, index: number) => Record<string, unknown>,
  parameters: Readonly<Record<string, string>>,
): ImpactFrameworkPlugin {
  return plugin(
    { ...TIME, 'cloud/vendor': VENDOR, 'cloud/region': REGION, ...inputs },
    {
      [`${prefix}/energy`]: energyOutput(label),
      [`${prefix}/carbon`]: carbonOutput(`${label} electricity emissions`),
      [`${prefix}/factor-id`]: factorOutput(`${label} grid`),
    },
    (observation, index, datasets, config) => {
      const vendor = text(observation, 'cloud/vendor', index);
      const body = {
        region: text(observation, 'cloud/region', index),
        ...request(observation, index),
        ...(config.year !== undefined && { year: config.year }),
      };
      const { estimate, metadata } = computeObservation(index, { ...CLOUD_PARAMETERS, ...parameters }, () =>
        electricityEstimate(resource, vendor, body, datasets),
      );
      return {
        [`${prefix}/energy`]: estimate.activity_data.activity_value,
        [`${prefix}/carbon`]: grams(estimate.co2e),
        [`${prefix}/factor-id`]: metadata.id,
      };
    },
  );
}

const seconds = (observation: Observation, index: number) => ({
  duration: quantity(observation, 'duration', index, { min: 'positive' }),
  duration_unit: 's',
});

/**
 * vCPUs per observation: `vcpus-allocated` × `duration` at `cpu/utilization` → `cpu/energy`, `cpu/carbon`.
 *
 * @example
 * ```yaml
 * cloud-cpu: { method: CloudCpu, path: co2e-engine/impact-framework }
 * ```
 */
export const CloudCpu = usePhasePlugin(
  'cpu',
  'cpu',
  'CPU',
  {
    'vcpus-allocated': parameter('vCPUs allocated', 'count', 'copy'),
    'cpu/utilization': UTILIZATION,
  },
  (observation, index) => ({
    cpu_count: quantity(observation, 'vcpus-allocated', index, { min: 'positive' }),
    average_vcpu_utilization: utilization(observation, index),
    ...seconds(observation, index),
  }),
  {},
);

/**
 * Memory per observation: `memory/capacity` GB × `duration` → `memory/energy`, `memory/carbon`.
 *
 * @example
 * ```yaml
 * cloud-memory: { method: CloudMemory, path: co2e-engine/impact-framework }
 * ```
 */
export const CloudMemory = usePhasePlugin(
  'memory',
  'memory',
  'memory',
  { 'memory/capacity': parameter('memory allocated', 'GB', 'copy') },
  (observation, index) => ({
    data: quantity(observation, 'memory/capacity', index, { min: 'zero' }),
    data_unit: 'GB',
    ...seconds(observation, index),
  }),
  {},
);

/**
 * Storage per observation: `storage/capacity` GB of `storage/type` (`ssd` or `hdd`) × `duration` →
 * `storage/energy`, `storage/carbon`.
 *
 * @example
 * ```yaml
 * cloud-storage: { method: CloudStorage, path: co2e-engine/impact-framework }
 * ```
 */
export const CloudStorage = usePhasePlugin(
  'storage',
  'storage',
  'storage',
  {
    'storage/capacity': parameter('data stored (times its replication)', 'GB', 'copy'),
    'storage/type': parameter('ssd or hdd', 'none', 'copy'),
  },
  (observation, index) => ({
    storage_type: text(observation, 'storage/type', index).toLowerCase(),
    data: quantity(observation, 'storage/capacity', index, { min: 'zero' }),
    data_unit: 'GB',
    ...seconds(observation, index),
  }),
  { data: 'storage/capacity', storage_type: 'storage/type' },
);

/**
 * Data transferred between data centres per observation: `network/data-in` + `network/data-out` GB →
 * `network/energy`, `network/carbon`.
 *
 * @example
 * ```yaml
 * cloud-networking: { method: CloudNetworking, path: co2e-engine/impact-framework }
 * ```
 */
export const CloudNetworking = usePhasePlugin(
  'networking',
  'network',
  'network',
  {
    'network/data-in': parameter('data received', 'GB', 'sum'),
    'network/data-out': parameter('data sent', 'GB', 'sum'),
  },
  (observation, index) => {
    // `== null`: a blank `network/data-in:` in YAML is null, as absent as a missing one.
    if (observation['network/data-in'] == null && observation['network/data-out'] == null)
      throw badParameter('network/data-in', 'required (or network/data-out)', index);
    const gigabytes = [
      quantity(observation, 'network/data-in', index, { min: 'zero', fallback: 0 }),
      quantity(observation, 'network/data-out', index, { min: 'zero', fallback: 0 }),
    ];
    return { data: total(gigabytes), data_unit: 'GB' };
  },
  { data: 'network/data-in' },
);

/**
 * The embodied carbon of one instance's CPUs per observation (`calculateEmbodied`, instance_count 1) →
 * `carbon-embodied` (g) and `embodied/factor-id`.
 *
 * @example
 * ```yaml
 * cloud-embodied: { method: CloudEmbodied, path: co2e-engine/impact-framework }
 * ```
 */
export const CloudEmbodied = plugin(
  { ...TIME, 'cloud/vendor': VENDOR, 'cloud/instance-type': INSTANCE_TYPE },
  {
    'carbon-embodied': carbonOutput('embodied emissions of the CPUs over the observation'),
    'embodied/factor-id': factorOutput('embodied CPU'),
  },
  (observation, index, datasets, config) => {
    const vendor = text(observation, 'cloud/vendor', index);
    const request = {
      instance: text(observation, 'cloud/instance-type', index),
      instance_count: 1,
      ...seconds(observation, index),
      ...(config.year !== undefined && { year: config.year }),
    };
    const estimate = computeObservation(index, CLOUD_PARAMETERS, () =>
      calculateEmbodied(vendor as 'aws', request as never, datasets),
    );
    return {
      'carbon-embodied': grams(estimate.co2e),
      ...(factorId(estimate) !== undefined && { 'embodied/factor-id': factorId(estimate) }),
    };
  },
);

/** The library's spend field → the IF parameter. */
const SPEND_PARAMETERS = {
  activity: 'spend/classification-code',
  spend_year: 'spend/year',
  spend_region: 'spend/region',
  money: 'spend/money',
  money_unit: 'spend/currency',
};

/**
 * Procurement spend per observation (`calculateSpend`): `spend/money` in `spend/currency`, `spend/region`,
 * `spend/classification-type` + `spend/classification-code`, `spend/year` (else the year of `timestamp`) →
 * `carbon` (g), `spend/factor-id`, and `spend/notices` (codes) when the library names a fallback.
 *
 * @example
 * ```yaml
 * spend: { method: Spend, path: co2e-engine/impact-framework }
 * ```
 */
export const Spend = plugin(
  {
    timestamp: TIME.timestamp,
    'spend/money': parameter("amount spent, in purchaser's price", 'currency', 'sum'),
    'spend/currency': parameter('currency code (eur, usd, …)', 'none', 'copy'),
    'spend/region': parameter('region of the spend (two letters)', 'none', 'copy'),
    'spend/classification-type': parameter('isic4, nace2 or naics2017', 'none', 'copy'),
    'spend/classification-code': parameter('the activity code', 'none', 'copy'),
    'spend/year': parameter('year of the spend (default: the year of timestamp)', 'year', 'copy'),
  },
  {
    carbon: carbonOutput('emissions of the spend (GHG Protocol Scope 3 category 1)'),
    'spend/factor-id': factorOutput('spend'),
    'spend/notices': parameter(
      'codes of what the estimate notes (partial_inflation_adjustment, …)',
      'none',
      'none',
    ),
  },
  (observation, index, datasets) => {
    const year = observation['spend/year'] ?? yearOf(observation, index);
    const type = text(observation, 'spend/classification-type', index);
    const request = {
      activity: {
        classification_type: type,
        classification_code: classificationCode(observation, index, type, datasets),
      },
      spend_year: year,
      spend_region: text(observation, 'spend/region', index),
      money: quantity(observation, 'spend/money', index, { min: 'zero' }),
      money_unit: text(observation, 'spend/currency', index).toLowerCase(),
    };
    const answer = computeObservation(index, SPEND_PARAMETERS, () =>
      calculateSpend(request as never, datasets),
    );
    return {
      carbon: grams(answer.estimate.co2e),
      ...(factorId(answer.estimate) !== undefined && { 'spend/factor-id': factorId(answer.estimate) }),
      ...(answer.notices.length > 0 && {
        'spend/notices': answer.notices.map((notice) => notice.code).join(', '),
      }),
    };
  },
);

/** The most digits a classification code has (NAICS 6; ISIC, NACE and MCC 4), for the zeros YAML may have dropped. */
const LONGEST_CODE = 6;

/**
 * `spend/classification-code` as text. A YAML manifest may give a code unquoted, as a number: 4711 is the code
 * '4711', but YAML reads 011 as 11, so a number that some leading zeros would make a code of the same type too is
 * refused rather than read as the other industry.
 */
function classificationCode(
  observation: Observation,
  index: number,
  type: string,
  datasets: SpendDatasets,
): string {
  const code = observation['spend/classification-code'];
  if (!(typeof code === 'number' && Number.isSafeInteger(code) && code >= 0))
    return text(observation, 'spend/classification-code', index);
  const digits = String(code);
  const lowerType = type.toLowerCase();
  const known = (candidate: string) =>
    datasets.classifications.products(lowerType, normaliseCode(lowerType, candidate)) !== undefined;
  const padded: string[] = [];
  for (let zeros = '0'; zeros.length + digits.length <= LONGEST_CODE; zeros += '0')
    if (known(zeros + digits)) padded.push(zeros + digits);
  if (padded.length === 0) return digits;
  const codes = [...(known(digits) ? [digits] : []), ...padded].map((candidate) => `'${candidate}'`);
  throw badParameter(
    'spend/classification-code',
    `the number ${digits}, and YAML drops leading zeros: quote the code (${codes.join(' or ')})`,
    index,
  );
}

/** The UTC year of the observation's `timestamp`, for a spend without `spend/year`. */
function yearOf(observation: Observation, index: number): number {
  const stamp = observation.timestamp;
  const date = typeof stamp === 'string' || stamp instanceof Date ? new Date(stamp) : undefined;
  if (date === undefined || Number.isNaN(date.getTime()))
    throw badParameter('spend/year', 'required (or a valid timestamp)', index);
  return date.getUTCFullYear();
}
