import { join } from 'node:path';
import * as z from 'zod';
import { type Decimal, add, decimal, div, isPositive, mul, sub, toNumber } from '../../src/core/decimal';
import { instanceKey } from '../../src/datasets/create';
import { CLOUD_PROVIDERS } from '../../src/datasets/constants';
import { CloudCoefficientsTable, CloudInstancesTable, type CloudProvider } from '../../src/datasets/tables';
import { azureArmName } from '../../src/loaders/parse-ccf-instances';
import { CcfAppEc2Record, CcfAppMachineRecord, CcfAppVmRecord } from './cloud/ccf-app-schema';
import { addedMinWatts } from './cloud-gpus';
import { ccfAppPlatformRows } from './cloud/platform-derived';
import { GPU_WATTS_ADDED } from './cloud/platform-specs';
import {
  assert,
  byProviderThen,
  compareStrings,
  isMain,
  readCsv,
  readJson,
  repoPath,
  sharedPath,
  writeJson,
} from './lib';

/**
 * The CCF application profile (`ccfAppDatasets`, issue 22 item 1): the constants the Cloud Carbon Footprint
 * application itself applies, as data. Reads `shared/data/ccf/provider_constants.json` and `instance_types.json`
 * (CCF trunk b7a049c7, MANIFEST §2b) and writes
 *
 * - `datasets/cloud/coefficients-ccf-app.json`: watts per vCPU from CCF's code (AWS 0.74/3.5, Azure 0.74/3.54
 *   averages, GCP 0.68/4.11 medians), PUE_AVG, GCP's per-region PUE (PUE_TRAILING_TWELVE_MONTH), the GPU watts
 *   (MIN/MAX_WATTS_BY_COMPUTE_PROCESSOR, the GPU entries), and the shared memory, storage, networking and lifetime
 *   constants;
 * - `datasets/cloud/instances-ccf-app.json`: the app's instance tables (`EC2_INSTANCE_TYPES`,
 *   `VIRTUAL_MACHINE_TYPE_SERIES_MAPPING`, `MACHINE_TYPE_EMBODIED…`) with the app's platform (the family's last,
 *   largest entry) and platform embodied figure, its GPU counts and models, and the memory the app charges for an
 *   instance (`calculateGigabyteHours`: only the memory above its processors' baseline; none for AWS burstable
 *   types), and the CPU watts CCF takes for the type's processors (`getMinWatts`/`getMaxWatts`) where it knows them.
 *
 * Deterministic: sorted rows, exact decimal arithmetic, no timestamps.
 */

const CCF_TRUNK = 'b7a049c7d25c0022919ab9010199dd9e77aa4577';
const CCF_ATTRIBUTION = 'Cloud Carbon Footprint, © 2021 Thoughtworks, Inc., Apache License 2.0';
const SOURCE_APP = 'ccf/instance_types.json';
/** Version of both tables: the CCF trunk commit they carry. */
const VERSION = '2024.03-b7a049c7';

// ---------------------------------------------------------------------------------------------------------------
// Source shapes (only the fields read here)

const wattsRecord = z.record(z.string(), z.number().finite().nonnegative());
const ProviderSchema = z.object({
  SSDCOEFFICIENT: z.number(),
  HDDCOEFFICIENT: z.number(),
  MEMORY_COEFFICIENT: z.number(),
  NETWORKING_COEFFICIENT: z.number(),
  PUE_AVG: z.number(),
  PUE_TRAILING_TWELVE_MONTH: z.record(z.string(), z.number()).optional(),
  SERVER_EXPECTED_LIFESPAN: z.number(),
  MIN_WATTS_AVG: z.number().optional(),
  MAX_WATTS_AVG: z.number().optional(),
  MIN_WATTS_MEDIAN: z.number().optional(),
  MAX_WATTS_MEDIAN: z.number().optional(),
  MIN_WATTS_BY_COMPUTE_PROCESSOR: wattsRecord,
  MAX_WATTS_BY_COMPUTE_PROCESSOR: wattsRecord,
  MEMORY_BY_COMPUTE_PROCESSOR: wattsRecord.optional(),
  MEMORY_AVG: z.number().optional(),
});
type ProviderConstants = z.infer<typeof ProviderSchema>;
const ConstantsFileSchema = z.object({
  ccf_trunk_2024_03: z.object({ aws: ProviderSchema, azure: ProviderSchema, gcp: ProviderSchema }),
});

const processors = z.array(z.string()).nullable();
const gpus = { gpu_count: z.number().nullable(), gpu_processors: processors };
const AppFileSchema = z.object({
  aws: z.object({
    ec2_records: z.array(
      CcfAppEc2Record.extend({
        family_largest_memory_gb: z.number(),
        compute_processors: processors,
        ...gpus,
        burstable_baseline_utilization_pct: z.number().nullable(),
      }),
    ),
  }),
  azure: z.object({
    vm_records: z.array(
      CcfAppVmRecord.extend({
        series_largest_memory_gb: z.number(),
        compute_processors: processors,
        ...gpus,
      }),
    ),
    /** `VIRTUAL_MACHINE_TYPE_CONSTRAINED_VCPU_CAPABLE_MAPPING`: size → [vCPUs, memory GB, platform vCPUs, t CO2e]. */
    constrained_vcpu_raw: z.record(z.string(), z.tuple([z.number(), z.number(), z.number(), z.number()])),
    compute_processors_raw: z.record(z.string(), z.array(z.string())),
  }),
  gcp: z.object({
    machine_records: z.array(CcfAppMachineRecord),
    shared_core_records: z.array(CcfAppMachineRecord),
    n1_shared_core_raw: z.record(z.string(), z.tuple([z.number(), z.number()])),
    gpu_machine_types: z.array(z.string()),
    compute_processors_raw: z.record(z.string(), z.array(z.string())),
  }),
});
type AppFile = z.infer<typeof AppFileSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Coefficients

/** CCF's code: `MIN_WATTS_AVG`/`MAX_WATTS_AVG` (AWS, Azure) or `…_MEDIAN` (GCP). Pinned, so SOURCES.md stays true. */
export const CCF_APP_WATTS: Record<CloudProvider, readonly [number, number]> = {
  aws: [0.74, 3.5],
  azure: [0.74, 3.54],
  gcp: [0.68, 4.11],
};

/** GCP's per-region PUE in CCF trunk b7a049c7 (`GcpFootprintEstimationConstants.ts`, PUE_TRAILING_TWELVE_MONTH). */
export const CCF_GCP_REGION_PUE: Readonly<Record<string, number>> = {
  'asia-east1': 1.12,
  'asia-southeast1': 1.13,
  'europe-north1': 1.09,
  'europe-west1': 1.09,
  'europe-west4': 1.07,
  'us-central1': 1.11,
  'us-central2': 1.11,
  'us-east4': 1.08,
};

/** The GPU models among CCF's compute processors: those its instance tables name as GPUs. */
function gpuModels(app: AppFile): Set<string> {
  const models = new Set<string>(app.gcp.gpu_machine_types);
  for (const r of [...app.aws.ec2_records, ...app.azure.vm_records])
    for (const model of r.gpu_processors ?? []) models.add(model);
  return models;
}

const sortedRecord = <V>(entries: Array<[string, V]>): Record<string, V> =>
  Object.fromEntries(entries.sort(([a], [b]) => compareStrings(a, b)));

export function buildCcfAppCoefficients(constants: Record<CloudProvider, ProviderConstants>, app: AppFile) {
  const gpus = gpuModels(app);
  const providers: CloudCoefficientsTable['providers'] = {};
  for (const provider of CLOUD_PROVIDERS) {
    const c = constants[provider];
    const min = c.MIN_WATTS_AVG ?? c.MIN_WATTS_MEDIAN;
    const max = c.MAX_WATTS_AVG ?? c.MAX_WATTS_MEDIAN;
    assert(
      min === CCF_APP_WATTS[provider][0] && max === CCF_APP_WATTS[provider][1],
      `${provider}: CCF code watts are now ${min}/${max}; update CCF_APP_WATTS and SOURCES.md`,
    );
    const regionPue = c.PUE_TRAILING_TWELVE_MONTH ?? {};
    assert(
      JSON.stringify(sortedRecord(Object.entries(regionPue))) ===
        JSON.stringify(provider === 'gcp' ? CCF_GCP_REGION_PUE : {}),
      `${provider}: CCF's per-region PUE changed; update CCF_GCP_REGION_PUE and SOURCES.md`,
    );
    const gpuWatts = Object.entries(c.MIN_WATTS_BY_COMPUTE_PROCESSOR)
      .filter(([model]) => gpus.has(model))
      .map(([model, minWatts]): [string, { min_watts: number; max_watts: number }] => {
        const maxWatts = c.MAX_WATTS_BY_COMPUTE_PROCESSOR[model];
        assert(maxWatts !== undefined, `${provider} ${model}: min watts without max watts`);
        return [model, { min_watts: minWatts, max_watts: maxWatts }];
      });
    // Today's GPUs, which the app lacks (issue 38; the default table's figures, platform-specs.ts GPU_WATTS_ADDED).
    for (const [model, { max_watts }] of Object.entries(GPU_WATTS_ADDED))
      gpuWatts.push([model, { min_watts: addedMinWatts(max_watts), max_watts }]);
    providers[provider] = {
      min_watts: CCF_APP_WATTS[provider][0],
      max_watts: CCF_APP_WATTS[provider][1],
      pue: c.PUE_AVG,
      memory_kwh_per_gb_hour: c.MEMORY_COEFFICIENT,
      ssd_wh_per_tb_hour: c.SSDCOEFFICIENT,
      hdd_wh_per_tb_hour: c.HDDCOEFFICIENT,
      networking_kwh_per_gb: c.NETWORKING_COEFFICIENT,
      server_lifetime_hours: c.SERVER_EXPECTED_LIFESPAN,
      ...(Object.keys(regionPue).length > 0 && { pue_by_region: sortedRecord(Object.entries(regionPue)) }),
      ...(gpuWatts.length > 0 && { gpu_watts: sortedRecord(gpuWatts) }),
    };
  }
  return CloudCoefficientsTable.parse({
    dataset: {
      id: 'ccf-app-coefficients',
      version: VERSION,
      source: 'CCF',
      source_dataset: 'Cloud Carbon Footprint application constants',
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. The constants of the CCF application's code (trunk ${CCF_TRUNK.slice(0, 8)}, ` +
        '2024-03): watts per vCPU and per GPU, PUE (GCP per region), memory, storage, networking, lifetime.',
    },
    providers,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Instances

/** CCF's `getPhysicalChips`: one physical chip per 96 vCPUs of the family's largest type, rounded up. */
const physicalChips = (largestVcpu: number): number => Math.ceil(largestVcpu / 96);

/** AWS families CCF gives two chips whatever their size (`AWSMemoryEstimatesBuilder`). */
const TWO_CHIP_FAMILIES = new Set(['m5zn', 'z1d']);

/**
 * CCF's memory per physical chip for the processors (`getMemory`): their mean, or `MEMORY_AVG` when a processor has
 * no figure (CCF's mean is then NaN or undefined, which it replaces by the average).
 */
function processorMemory(constants: ProviderConstants, names: readonly string[] | null): Decimal {
  const figures = (names ?? ['Unknown']).map((name) => constants.MEMORY_BY_COMPUTE_PROCESSOR?.[name]);
  if (figures.length > 0 && figures.every((figure) => figure !== undefined && figure !== 0))
    return div(
      figures.reduce<Decimal>((sum, figure) => add(sum, decimal(figure!)), decimal(0)),
      decimal(figures.length),
    );
  assert(constants.MEMORY_AVG !== undefined, 'MEMORY_AVG missing');
  return decimal(constants.MEMORY_AVG);
}

/**
 * CCF's `calculateGigabyteHours` for one hour: the memory of the family's largest type per chip less the processors'
 * memory per chip, shared by the instance's part of the largest type's memory; 0 when not positive.
 */
export function chargedMemoryGb(
  chips: number,
  largestMemory: number,
  processorMemoryPerChip: Decimal,
  instanceMemory: number,
): number {
  const perChip = div(decimal(largestMemory), decimal(chips));
  const delta = sub(perChip, processorMemoryPerChip);
  if (!isPositive(delta)) return 0;
  return toNumber(div(mul(delta, decimal(instanceMemory)), decimal(largestMemory)));
}

type Row = CloudInstancesTable['instances'][number];
type Excluded = NonNullable<CloudInstancesTable['excluded']>[number];

const tonnesToKg = (tonnes: number): number => toNumber(mul(decimal(tonnes), decimal(1000)));

/** Processors whose watts CCF takes the median of, not the mean (`getWattsByAverageOrMedian`: outliers). */
const MEDIAN_PROCESSORS = new Set(['Sandy Bridge', 'Ivy Bridge']);

function meanOrMedian(figures: readonly number[], median: boolean): Decimal {
  const values = figures.map((figure) => decimal(figure));
  if (!median)
    return div(
      values.reduce((sum, v) => add(sum, v), decimal(0)),
      decimal(values.length),
    );
  const sorted = [...figures].sort((a, b) => a - b).map((figure) => decimal(figure));
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : div(add(sorted[middle - 1]!, sorted[middle]!), decimal(2));
}

/**
 * The CPU watts per vCPU CCF's estimators take for an instance's processors (`getMinWatts`/`getMaxWatts` of each
 * provider's `…FootprintEstimationConstants.ts`): the mean of the processors' MIN/MAX_WATTS_BY_COMPUTE_PROCESSOR (the
 * median when Sandy Bridge or Ivy Bridge is among them). None when CCF falls back to the provider's figure (the
 * profile's `min_watts`/`max_watts`): unknown processors, or one without a figure (CCF's mean is then NaN).
 */
export function processorWatts(
  constants: ProviderConstants,
  names: readonly string[] | null,
): { min_watts: number; max_watts: number } | undefined {
  if (names === null || names.length === 0) return undefined;
  const min = names.map((name) => constants.MIN_WATTS_BY_COMPUTE_PROCESSOR[name]);
  const max = names.map((name) => constants.MAX_WATTS_BY_COMPUTE_PROCESSOR[name]);
  const known = (list: Array<number | undefined>): list is number[] =>
    list.every((w) => w !== undefined && w > 0);
  if (!known(min) || !known(max)) return undefined;
  const median = names.some((name) => MEDIAN_PROCESSORS.has(name));
  return { min_watts: toNumber(meanOrMedian(min, median)), max_watts: toNumber(meanOrMedian(max, median)) };
}

/** GCP machine types CCF treats as shared-core (`SHARED_CORE_PROCESSORS`): their own processor entry. */
const GCP_SHARED_CORE = ['e2-micro', 'e2-small', 'e2-medium', 'f1-micro', 'g1-small'];

/**
 * The processors CCF's GCP billing estimate takes for a machine type (`BillingExportTable`
 * `getComputeProcessorsFromMachineType`): a shared-core type's own entry, else the entry of the type's first two
 * letters (so n2d and c2d take n2's and c2's Cascade Lake, and t2d none), else none.
 */
export function gcpBillingProcessors(app: AppFile, machineType: string): readonly string[] | null {
  const key =
    GCP_SHARED_CORE.find((core) => machineType.includes(core)) ?? machineType.slice(0, 2).toLowerCase();
  return app.gcp.compute_processors_raw[key] ?? null;
}

function gpuFields(count: number | null, models: readonly string[] | null, where: string) {
  if (count === null || count === 0) return {};
  assert(models !== null && models.length === 1, `${where}: ${count} GPUs without one model`);
  return { gpu_count: count, gpu_model: models[0]! };
}

export function buildCcfAppInstances(
  constants: Record<CloudProvider, ProviderConstants>,
  app: AppFile,
  /** GCP memory (GiB) by machine type, from the default table: the CCF app has no GCP memory figures. */
  gcpMemory: ReadonlyMap<string, number>,
): CloudInstancesTable {
  const rows = new Map<string, Row>();
  const excluded = new Map<string, Excluded>();
  const exclude = (provider: CloudProvider, instance: string, reason: string) => {
    const key = `${provider}|${reason}`;
    const entry = excluded.get(key) ?? { provider, source: SOURCE_APP, reason, instances: [] };
    entry.instances.push(instance);
    excluded.set(key, entry);
  };
  const add = (row: Row) => {
    const key = `${row.provider}|${instanceKey(row.provider, row.instance)}`;
    // The app lists a few names twice (the same tuple under two families); the first stands.
    if (!rows.has(key)) rows.set(key, row);
  };

  for (const r of app.aws.ec2_records) {
    const instance = r.instance_type.trim();
    if (r.platform_embodied_tco2e === null || r.platform_embodied_tco2e === 0) {
      exclude('aws', instance, 'the CCF app has no embodied figure for it');
      continue;
    }
    const chips = TWO_CHIP_FAMILIES.has(r.family) ? 2 : physicalChips(r.family_largest_vcpu);
    add({
      provider: 'aws',
      instance,
      vcpu: r.vcpu,
      memory_gib: r.memory_gb,
      platform_vcpu: r.family_largest_vcpu,
      platform_embodied_kgco2e: tonnesToKg(r.platform_embodied_tco2e),
      ...processorWatts(constants.aws, r.compute_processors),
      ...gpuFields(r.gpu_count, r.gpu_processors, `aws ${instance}`),
      charged_memory_gb:
        r.burstable_baseline_utilization_pct !== null
          ? 0
          : chargedMemoryGb(
              chips,
              r.family_largest_memory_gb,
              processorMemory(constants.aws, r.compute_processors),
              r.memory_gb,
            ),
    });
  }
  for (const r of app.azure.vm_records) {
    const instance = azureArmName(r.vm_size);
    if (r.platform_embodied_tco2e === null || r.platform_embodied_tco2e === 0) {
      exclude('azure', instance, 'the CCF app has no embodied figure for it');
      continue;
    }
    add({
      provider: 'azure',
      instance,
      vcpu: r.vcpu,
      memory_gib: r.memory_gb,
      platform_vcpu: r.series_largest_vcpu,
      platform_embodied_kgco2e: tonnesToKg(r.platform_embodied_tco2e),
      ...processorWatts(constants.azure, r.compute_processors),
      ...gpuFields(r.gpu_count, r.gpu_processors, `azure ${instance}`),
      charged_memory_gb: chargedMemoryGb(
        physicalChips(r.series_largest_vcpu),
        r.series_largest_memory_gb,
        processorMemory(constants.azure, r.compute_processors),
        r.memory_gb,
      ),
    });
  }
  // Constrained-vCPU sizes (DS11-1 v2, E16-4s v3 …), which CCF keeps apart from its series: their vCPUs, platform
  // vCPUs and embodied figure from that table (ConsumptionManagement.getDataFromSeriesNameAndUsageType), no memory
  // charged (CCF charges memory only for a size of a series), processors by size.
  for (const [size, [vcpu, memory, platformVcpu, tonnes]] of Object.entries(app.azure.constrained_vcpu_raw))
    add({
      provider: 'azure',
      instance: azureArmName(size),
      vcpu,
      memory_gib: memory,
      platform_vcpu: platformVcpu,
      platform_embodied_kgco2e: tonnesToKg(tonnes),
      ...processorWatts(constants.azure, app.azure.compute_processors_raw[size] ?? null),
      charged_memory_gb: 0,
    });
  // The shared-core types after the machine families (CCF's MACHINE_FAMILY_SHARED_CORE_TO_MACHINE_TYPE_MAPPING: e2-micro,
  // -small, -medium on the e2 platform; N1_SHARED_CORE_MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING: f1-micro, g1-small, whose
  // platform CCF takes as that table's last entry, n1-standard-96, while the embodied figure is the type's own).
  const n1Shared = Object.entries(app.gcp.n1_shared_core_raw);
  const [, [n1SharedPlatformVcpu]] = n1Shared[n1Shared.length - 1]!;
  const gcpRecords = [
    ...app.gcp.machine_records,
    ...app.gcp.shared_core_records,
    ...n1Shared.map(([machineType, [vcpu, tonnes]]) => ({
      family: 'n1-shared-core',
      machine_type: machineType,
      vcpu,
      platform_embodied_tco2e: tonnes,
      family_largest_vcpu: n1SharedPlatformVcpu,
    })),
  ];
  for (const r of gcpRecords) {
    const memory = gcpMemory.get(r.machine_type);
    if (r.platform_embodied_tco2e === null || r.platform_embodied_tco2e === 0) {
      exclude('gcp', r.machine_type, 'the CCF app has no embodied figure for it');
      continue;
    }
    if (memory === undefined) {
      exclude(
        'gcp',
        r.machine_type,
        'no memory figure: the CCF app has none for GCP, and the default table lacks it',
      );
      continue;
    }
    // GCP bills memory apart (RAM SKUs), and CCF charges what is billed: the whole memory.
    add({
      provider: 'gcp',
      instance: r.machine_type,
      vcpu: r.vcpu,
      memory_gib: memory,
      platform_vcpu: r.family_largest_vcpu,
      platform_embodied_kgco2e: tonnesToKg(r.platform_embodied_tco2e),
      ...processorWatts(constants.gcp, gcpBillingProcessors(app, r.machine_type)),
    });
  }
  const instances = [...rows.values()]
    .filter(
      (row) =>
        row.vcpu <= row.platform_vcpu ||
        (exclude(row.provider, row.instance, "vCPU above the family's largest type in the CCF app"), false),
    )
    .sort(byProviderThen('instance'));
  return CloudInstancesTable.parse({
    dataset: {
      id: 'ccf-app-instances',
      version: VERSION,
      source: 'CCF',
      source_dataset: 'Cloud Carbon Footprint application instance tables (Teads method)',
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. Instance tables of the CCF application (trunk ${CCF_TRUNK.slice(0, 8)}, 2024-03), ` +
        'based on the Teads Carbon Footprint dataset and SPECpower_ssj2008 results.',
    },
    default_year: 2021,
    gwp: 'ar4',
    years: [2021, 2022, 2023, 2024, 2025],
    instances,
    excluded: [...excluded.values()]
      .map((entry) => ({ ...entry, instances: [...entry.instances].sort(compareStrings) }))
      .sort((a, b) => compareStrings(a.provider, b.provider) || compareStrings(a.reason, b.reason)),
  });
}

/** Builds the CCF app profile's tables from the committed default ones and writes them to `outDir` (default `datasets/cloud/`). */
export function buildCcfApp(options: { outDir?: string } = {}): void {
  const outDir = options.outDir ?? repoPath('datasets/cloud');
  const constants = ConstantsFileSchema.parse(
    readJson(sharedPath('ccf/provider_constants.json')),
  ).ccf_trunk_2024_03;
  const app = AppFileSchema.parse(readJson(sharedPath('ccf/instance_types.json')));
  const defaults = CloudInstancesTable.parse(readJson(repoPath('datasets/cloud/instances.json')));
  const gcpMemory = new Map(
    defaults.instances.filter((row) => row.provider === 'gcp').map((row) => [row.instance, row.memory_gib]),
  );
  const coefficients = buildCcfAppCoefficients(constants, app);
  const appInstances = buildCcfAppInstances(constants, app, gcpMemory);
  // Today's families (issue 38): the default table's platform-derived rows with CCF's 2026 per-processor watts.
  const known = new Set(appInstances.instances.map((row) => `${row.provider}/${row.instance}`));
  const today = ccfAppPlatformRows(
    defaults.instances,
    {
      aws: readCsv(sharedPath('ccf/ccf-coefficients/coefficients-aws-use.csv')),
      gcp: readCsv(sharedPath('ccf/ccf-coefficients/coefficients-gcp-use.csv')),
    },
    (chips, largest, perChip, memory) => chargedMemoryGb(chips, largest, decimal(perChip), memory),
  );
  // Today's types CCF has no watts for are refused by name, one group per reason.
  const todayExcluded = new Map<string, Excluded>();
  for (const { provider, instance, source, reason } of today.excluded) {
    if (known.has(`${provider}/${instance}`)) continue;
    const key = `${provider}|${reason}`;
    const entry = todayExcluded.get(key) ?? { provider, source, reason, instances: [] };
    entry.instances.push(instance);
    todayExcluded.set(key, entry);
  }
  const instances = CloudInstancesTable.parse({
    ...appInstances,
    instances: [
      ...appInstances.instances,
      ...today.rows.filter((row) => !known.has(`${row.provider}/${row.instance}`)),
    ].sort(byProviderThen('instance')),
    excluded: [...(appInstances.excluded ?? []), ...todayExcluded.values()]
      .map((entry) => ({ ...entry, instances: [...entry.instances].sort(compareStrings) }))
      .sort((a, b) => compareStrings(a.provider, b.provider) || compareStrings(a.reason, b.reason)),
  });
  const count = (provider: CloudProvider) =>
    instances.instances.filter((row) => row.provider === provider).length;
  console.log(
    `ccf-app instances: aws ${count('aws')}, azure ${count('azure')}, gcp ${count('gcp')}; ` +
      `with GPUs ${instances.instances.filter((row) => (row.gpu_count ?? 0) > 0).length}`,
  );
  writeJson(join(outDir, 'coefficients-ccf-app.json'), coefficients);
  writeJson(join(outDir, 'instances-ccf-app.json'), instances);
}

if (isMain(import.meta.url)) buildCcfApp();
