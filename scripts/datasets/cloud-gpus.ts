import * as z from 'zod';
import { CloudCoefficientsTable, CloudInstancesTable, type CloudProvider } from '../../src/datasets/tables';
import { azureArmName } from '../../src/loaders/parse-ccf-instances';
import { decimal, div, mul, toFixed } from '../../src/core/decimal';
import { GPU_WATTS_ADDED } from './cloud/platform-specs';
import { assert, compareStrings, readCsv, readJson, sharedPath } from './lib';

/** Idle watts of an added GPU: max × 46/407 (CCF's A100 idle-to-max ratio), to 0.01 W. */
export const addedMinWatts = (maxWatts: number): number =>
  Number(toFixed(div(mul(decimal(maxWatts), decimal(46)), decimal(407)), 2));

/**
 * GPUs of the default tables (issue 22 item 3; issue 21 item 6): the GPU count and model of each instance type, and
 * the watts per GPU model, so `calculateInstance` adds a GPU part, or says GPU power is not in the estimate.
 *
 * - Watts per GPU (idle / 100 %): CCF's `MIN/MAX_WATTS_BY_COMPUTE_PROCESSOR`, the GPU entries (CCF trunk b7a049c7,
 *   `shared/data/ccf/provider_constants.json`), as in the CCF application profile.
 * - Count and model, first source that has the type:
 *   1. the CCF app's GPU maps (`shared/data/ccf/instance_types.json`: AWS `gpu_count`/`gpu_processors`, Azure
 *      `vm_records`); Azure `NC…_Promo` sizes take their NC size's GPUs (the same hardware at a promotional price);
 *   2. AWS: the Teads sheet (`ccf-coefficients/data/aws-instances.csv`, `Instance Number of GPU`, `Platform GPU
 *      Name`, names as CCF writes them: `Tesla V100` → `Nvidia Tesla V100`);
 *   3. GCP: `ccf-coefficients/data/gcp-instances.csv` `Instance GPUs`; the model of the A2 series is the NVIDIA A100
 *      (Google Cloud's GPU machine types documentation: A2 machine types have A100 GPUs attached).
 * - Types the AWS 2026 list files under "Accelerated Computing" that no source gives a GPU count for (g6, inf2, new
 *   g4ad sizes …) get `gpu_model` alone (the family's model where a sibling has one, else `unknown`): the estimate
 *   then carries a notice that their accelerators' power is not in it.
 */

/** Teads' GPU names as CCF's compute-processor names. */
const TEADS_GPU_NAMES: Readonly<Record<string, string>> = {
  K520: 'Nvidia K520',
  'Radeon Pro V520': 'AMD Radeon Pro V520',
  T4: 'Nvidia T4',
  'Tesla A100': 'Nvidia Tesla A100',
  'Tesla K80': 'Nvidia Tesla K80',
  'Tesla M60': 'Nvidia Tesla M60',
  'Tesla V100': 'Nvidia Tesla V100',
};

/** GCP machine series and the GPU model attached to them (Google Cloud documentation). */
const GCP_SERIES_GPU: Readonly<Record<string, string>> = { a2: 'Nvidia Tesla A100' };

/** A type with accelerators that no source counts. */
export const UNKNOWN_GPU = 'unknown';

const gpuList = z.array(z.string()).nullable();
const AppSchema = z.object({
  aws: z.object({
    gpu_count: z.record(z.string(), z.number()),
    gpu_processors: z.record(z.string(), z.array(z.string())),
  }),
  azure: z.object({
    vm_records: z.array(
      z.object({ vm_size: z.string(), gpu_count: z.number().nullable(), gpu_processors: gpuList }),
    ),
  }),
  gcp: z.object({ gpu_machine_types: z.array(z.string()) }),
});
const wattsRecord = z.record(z.string(), z.number());
const ConstantsSchema = z.object({
  ccf_trunk_2024_03: z.record(
    z.string(),
    z.object({ MIN_WATTS_BY_COMPUTE_PROCESSOR: wattsRecord, MAX_WATTS_BY_COMPUTE_PROCESSOR: wattsRecord }),
  ),
});

type App = z.infer<typeof AppSchema>;
type Gpu = { gpu_count?: number; gpu_model: string };

/** The GPU models among CCF's compute processors: those its instance tables name as GPUs. */
function ccfGpuModels(app: App): Set<string> {
  const models = new Set(app.gcp.gpu_machine_types);
  for (const names of Object.values(app.aws.gpu_processors)) for (const name of names) models.add(name);
  for (const r of app.azure.vm_records) for (const name of r.gpu_processors ?? []) models.add(name);
  return models;
}

/** CCF's watts per GPU model, per provider, sorted by model. */
export function ccfGpuWatts(): Record<
  CloudProvider,
  Record<string, { min_watts: number; max_watts: number }>
> {
  const app = AppSchema.parse(readJson(sharedPath('ccf/instance_types.json')));
  const constants = ConstantsSchema.parse(
    readJson(sharedPath('ccf/provider_constants.json')),
  ).ccf_trunk_2024_03;
  const models = ccfGpuModels(app);
  const result = {} as Record<CloudProvider, Record<string, { min_watts: number; max_watts: number }>>;
  for (const provider of ['aws', 'azure', 'gcp'] as const) {
    const c = constants[provider];
    assert(c !== undefined, `provider_constants.json lacks ${provider}`);
    const ccf = Object.entries(c.MIN_WATTS_BY_COMPUTE_PROCESSOR)
      .filter(([model]) => models.has(model))
      .map(([model, min]): [string, { min_watts: number; max_watts: number }] => {
        const max = c.MAX_WATTS_BY_COMPUTE_PROCESSOR[model];
        assert(max !== undefined, `${provider} ${model}: min watts without max watts`);
        return [model, { min_watts: min, max_watts: max }];
      });
    // Today's GPUs, which CCF's tables lack (scripts/datasets/cloud/platform-specs.ts GPU_WATTS_ADDED).
    const added = Object.entries(GPU_WATTS_ADDED).map(
      ([model, { max_watts }]): [string, { min_watts: number; max_watts: number }] => {
        assert(!models.has(model), `${model}: CCF now has watts for it; drop it from GPU_WATTS_ADDED`);
        return [model, { min_watts: addedMinWatts(max_watts), max_watts }];
      },
    );
    result[provider] = Object.fromEntries([...ccf, ...added].sort(([a], [b]) => compareStrings(a, b)));
  }
  return result;
}

/** The coefficients table with CCF's watts per GPU model added to each provider. */
export function withGpuWatts(table: CloudCoefficientsTable): CloudCoefficientsTable {
  const watts = ccfGpuWatts();
  const providers: CloudCoefficientsTable['providers'] = {};
  for (const [provider, coefficients] of Object.entries(table.providers) as Array<
    [CloudProvider, NonNullable<CloudCoefficientsTable['providers'][CloudProvider]>]
  >)
    providers[provider] = { ...coefficients, gpu_watts: watts[provider] };
  return CloudCoefficientsTable.parse({ ...table, providers });
}

/** GPU count and model per (provider, instance), from the sources in the order above. */
function gpuSources(): Map<string, Gpu> {
  const app = AppSchema.parse(readJson(sharedPath('ccf/instance_types.json')));
  const gpus = new Map<string, Gpu>();
  const set = (provider: CloudProvider, instance: string, gpu: Gpu) => {
    const key = `${provider}|${instance}`;
    if (!gpus.has(key)) gpus.set(key, gpu);
  };
  for (const [instance, count] of Object.entries(app.aws.gpu_count)) {
    const models = app.aws.gpu_processors[instance];
    assert(models?.length === 1, `aws ${instance}: ${count} GPUs without one model`);
    set('aws', instance, { gpu_count: count, gpu_model: models[0]! });
  }
  for (const r of app.azure.vm_records) {
    if (r.gpu_count === null || r.gpu_count === 0) continue;
    assert(r.gpu_processors?.length === 1, `azure ${r.vm_size}: GPUs without one model`);
    const gpu = { gpu_count: r.gpu_count, gpu_model: r.gpu_processors[0]! };
    set('azure', azureArmName(r.vm_size), gpu);
    // NC-series Promo: the NC sizes' hardware at a promotional price.
    if (/^NC\d+r?$/.test(r.vm_size)) set('azure', azureArmName(`${r.vm_size}_Promo`), gpu);
  }
  for (const r of readCsv(sharedPath('ccf/ccf-coefficients/aws-instances.csv'))) {
    const count = Number(r['Instance Number of GPU']);
    if (!(count > 0)) continue;
    const name = r['Platform GPU Name'] ?? '';
    const model = TEADS_GPU_NAMES[name];
    assert(model !== undefined, `aws-instances.csv: GPU name ${name} has no CCF name in TEADS_GPU_NAMES`);
    set('aws', (r['Instance type'] ?? '').trim(), { gpu_count: count, gpu_model: model });
  }
  for (const r of readCsv(sharedPath('ccf/ccf-coefficients/gcp-instances.csv'))) {
    const count = Number(r['Instance GPUs']);
    if (!(count > 0)) continue;
    const type = r['Machine type'] ?? '';
    const model = GCP_SERIES_GPU[type.split('-')[0] ?? ''];
    assert(
      model !== undefined,
      `gcp-instances.csv: ${type} has GPUs of a series without a model in GCP_SERIES_GPU`,
    );
    set('gcp', type, { gpu_count: count, gpu_model: model });
  }
  return gpus;
}

/** AWS types the 2026 list files under Accelerated Computing. */
function awsAccelerated(): Set<string> {
  return new Set(
    readCsv(sharedPath('ccf/ccf-coefficients/aws-instances-latest-2026.csv'))
      .filter((r) => (r.Category ?? '').startsWith('Accelerated'))
      .map((r) => (r['Instance Type'] ?? '').trim()),
  );
}

/** The instance table with `gpu_count` and `gpu_model` on every type that has GPUs (see the file comment). */
export function withGpus(table: CloudInstancesTable): CloudInstancesTable {
  const gpus = gpuSources();
  const accelerated = awsAccelerated();
  const familyModel = new Map<string, string>();
  for (const [key, gpu] of gpus) familyModel.set(key.split('.')[0]!, gpu.gpu_model);
  let counted = 0;
  let uncounted = 0;
  const instances = table.instances.map((row) => {
    const gpu = gpus.get(`${row.provider}|${row.instance}`);
    if (gpu !== undefined) {
      counted++;
      return { ...row, ...gpu };
    }
    // A row that states its GPUs (derived from its platform's specs, issue 38) keeps them.
    if (row.gpu_model !== undefined) return row;
    if (row.provider === 'aws' && accelerated.has(row.instance)) {
      uncounted++;
      return { ...row, gpu_model: familyModel.get(`aws|${row.instance}`.split('.')[0]!) ?? UNKNOWN_GPU };
    }
    return row;
  });
  console.log(
    `  GPUs: ${counted} types with count and model, ${uncounted} accelerated types without a count`,
  );
  return CloudInstancesTable.parse({ ...table, instances });
}
