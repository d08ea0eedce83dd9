import { deepFreeze } from '../core/freeze';
import { decimal, div, sum, toNumber } from '../core/decimal';
import { DatasetError } from '../datasets/errors';
import { type CloudInstancesTable, type CloudProvider } from '../datasets/tables';
import { readCsvRecords, type CsvRecord } from './csv';
import { checkedTable, parseMeta } from './validate';
import { Problems } from './problems';
import type { TableMeta } from './table-kinds';

type Instance = CloudInstancesTable['instances'][number];

/**
 * The ccf-coefficients files with instance specs and embodied emissions (the repository's `data/` and `output/`
 * CSVs, as github.com/cloud-carbon-footprint/ccf-coefficients writes them). Give the providers you have.
 */
export interface CcfInstanceFiles {
  /** `aws-instances.csv` and `coefficients-aws-embodied.csv`. */
  aws?: { instances: string; embodied: string };
  /** `azure-instances.csv` and `coefficients-azure-embodied.csv` (one row per size and microarchitecture, same order). */
  azure?: { instances: string; embodied: string };
  /** `gcp-instances.csv` and `coefficients-gcp-embodied-mean.csv`. */
  gcp?: { instances: string; embodiedMean: string };
}

/** An instance left out, and why. */
export interface DroppedInstance {
  provider: CloudProvider;
  instance: string;
  reason: string;
}

/** Result of {@link parseCcfInstances}. */
export interface CcfInstances {
  cloudInstances: CloudInstancesTable;
  /** Instances without usable specs or embodied emissions (missing, zero or unparseable values). */
  dropped: DroppedInstance[];
  /** Decisions taken on the way (restored constrained-vCPU counts, platform sizes, means), one line each. */
  notes: string[];
}

/** File names used in error messages and drop reasons. */
export const CCF_INSTANCE_FILES = /* @__PURE__ */ deepFreeze({
  aws: { instances: 'aws-instances.csv', embodied: 'coefficients-aws-embodied.csv' },
  azure: { instances: 'azure-instances.csv', embodied: 'coefficients-azure-embodied.csv' },
  gcp: { instances: 'gcp-instances.csv', embodiedMean: 'coefficients-gcp-embodied-mean.csv' },
} as const);

/**
 * Builds the instances table (vCPU, memory, platform vCPU, platform embodied kg CO2e) from ccf-coefficients CSVs,
 * taking the same decisions as the embedded default (`scripts/datasets/cloud/build-instances.ts` calls this):
 *
 * - AWS: specs from `aws-instances.csv` by instance type, embodied `total` from `coefficients-aws-embodied.csv`.
 * - Azure: the two CSVs row by row; constrained-vCPU sizes (`E16-4s v3`) get the active vCPUs from their name
 *   (the CSV holds a ratio); a series whose platform column is below its largest size uses that size as the
 *   platform; sizes repeated per microarchitecture become one row (their embodied totals averaged); names are
 *   written as ARM names (`Standard_D2s_v3`).
 * - GCP: specs from `gcp-instances.csv`, embodied `total_mean`; the most common platform vCPU over
 *   microarchitectures (ties to the larger).
 * - Rows with a missing, zero or unparseable value are dropped and listed in `dropped`.
 *
 * @example
 * ```ts
 * import { parseCcfInstances } from 'co2e-engine/loaders';
 * const { cloudInstances, dropped } = parseCcfInstances(
 *   { aws: { instances: awsInstancesCsv, embodied: awsEmbodiedCsv } },
 *   { dataset, default_year: 2024, gwp: 'ar4', years: [2024] },
 * );
 * ```
 * @throws {@link DatasetError} for malformed CSV or files that contradict each other (Azure files out of step, specs
 *   that differ between microarchitecture rows, an instance with more vCPUs than its platform).
 */
export function parseCcfInstances(files: CcfInstanceFiles, meta: TableMeta<'cloudInstances'>): CcfInstances {
  const dropped: DroppedInstance[] = [];
  const notes: string[] = [];
  const instances = [
    ...(files.aws ? awsInstances(files.aws, dropped) : []),
    ...(files.azure ? azureInstances(files.azure, dropped, notes) : []),
    ...(files.gcp ? gcpInstances(files.gcp, dropped, notes) : []),
  ].sort((a, b) => compareStrings(a.provider, b.provider) || compareStrings(a.instance, b.instance));
  const tableMeta = parseMeta('cloudInstances', meta, 'cloudInstances meta');
  const problems = new Problems('ccf-coefficients');
  const table = checkedTable('cloudInstances', { ...tableMeta, instances }, problems, () => ({ line: 1 }));
  return { cloudInstances: table, dropped, notes };
}

/** Locale-independent string order, so the table is the same on every machine. */
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A plain decimal string (`12`, `0.60`) as a number, else undefined: decimal commas, `N/A` and exponents are not values. */
function plainDecimal(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

function fail(file: string, line: number, problem: string): never {
  throw new DatasetError(file, `line ${line}`, problem, { line });
}

/** Emits a row, or records why it cannot be used. */
function instanceOrDrop(
  dropped: DroppedInstance[],
  provider: CloudProvider,
  instance: string,
  fields: { vcpu?: number; memory_gib?: number; platform_vcpu?: number; platform_embodied_kgco2e?: number },
  where: { file: string; line: number },
): Instance | undefined {
  const bad = Object.entries(fields)
    .filter(([, value]) => value === undefined || value <= 0)
    .map(([name]) => name);
  if (bad.length > 0) {
    dropped.push({ provider, instance, reason: `missing, zero or unparseable ${bad.join(', ')}` });
    return undefined;
  }
  const row = fields as Required<typeof fields>;
  if (row.vcpu > row.platform_vcpu)
    fail(where.file, where.line, `${provider}/${instance}: vcpu ${row.vcpu} > platform ${row.platform_vcpu}`);
  return { provider, instance, ...row };
}

function awsInstances(files: NonNullable<CcfInstanceFiles['aws']>, dropped: DroppedInstance[]): Instance[] {
  const names = CCF_INSTANCE_FILES.aws;
  const specs = new Map(
    readCsvRecords(files.instances, names.instances).map((row) => [row.record['Instance type'], row.record]),
  );
  const rows: Instance[] = [];
  for (const { record: embodied, line } of readCsvRecords(files.embodied, names.embodied)) {
    const type = embodied.type ?? '';
    const spec = specs.get(type);
    if (!spec) {
      dropped.push({ provider: 'aws', instance: type, reason: `not in ${names.instances}` });
      continue;
    }
    const row = instanceOrDrop(
      dropped,
      'aws',
      type,
      {
        vcpu: plainDecimal(spec['Instance vCPU']),
        memory_gib: plainDecimal(spec['Instance Memory (in GB)']),
        platform_vcpu: plainDecimal(spec['Platform Total Number of vCPU']),
        platform_embodied_kgco2e: plainDecimal(embodied.total),
      },
      { file: names.embodied, line },
    );
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * CCF size name → ARM size name: `D2s v3` → `Standard_D2s_v3`. Also drops the Azure-docs footnote marker CCF
 * kept (`M128 1`, `E80ids v4 1`) and restores the ARM casing of B- and GS-series names (`B1MS` → `B1ms`,
 * `Gs4-8` → `GS4-8`).
 */
export function azureArmName(ccfName: string): string {
  const name = ccfName
    .trim()
    .replace(/\s+1$/, '')
    .replace(/^B(\d+)([A-Z]+)$/, (_, size: string, suffix: string) => `B${size}${suffix.toLowerCase()}`)
    .replace(/^Gs(?=\d)/, 'GS')
    .replace(/\s+/g, '_');
  return name.startsWith('Standard_') ? name : `Standard_${name}`;
}

interface AzureRow {
  series: string;
  type: string;
  line: number;
  vcpu?: number;
  memory_gib?: number;
  platform_vcpu?: number;
  total?: number;
}

/**
 * Azure: the two CSVs read row by row, constrained-vCPU counts restored, platforms raised to their series' largest
 * size, then one instance per ARM size name.
 */
function azureInstances(
  files: NonNullable<CcfInstanceFiles['azure']>,
  dropped: DroppedInstance[],
  notes: string[],
): Instance[] {
  const rows = azureRows(files);
  restoreConstrainedVcpus(rows, notes);
  raiseSeriesPlatforms(rows, notes);
  const out: Instance[] = [];
  for (const [name, group] of azureSizes(rows)) {
    const row = azureSizeInstance(name, group, dropped, notes);
    if (row) out.push(row);
  }
  return out;
}

/** Read: one row per (size, microarchitecture), both CSVs out of one pipeline in the same order. */
function azureRows(files: NonNullable<CcfInstanceFiles['azure']>): AzureRow[] {
  const names = CCF_INSTANCE_FILES.azure;
  const embodied = readCsvRecords(files.embodied, names.embodied);
  const specs = readCsvRecords(files.instances, names.instances);
  if (embodied.length !== specs.length) {
    throw new DatasetError(
      names.embodied,
      '',
      `${embodied.length} rows, but ${names.instances} has ${specs.length}; the two files must be row by row`,
    );
  }
  return embodied.map(({ record: e, line }, index) => {
    const s = specs[index]?.record ?? {};
    if (e.type !== s['Virtual Machine'] || e.microarchitecture !== s.Microarchitecture) {
      fail(
        names.embodied,
        line,
        `${e.type}/${e.microarchitecture} vs ${s['Virtual Machine']}/${s.Microarchitecture} in ${names.instances}: the files are out of step`,
      );
    }
    return {
      series: s.Series ?? '',
      type: e.type ?? '',
      line,
      vcpu: plainDecimal(s['Instance vCPUs']),
      memory_gib: plainDecimal(s['Instance Memory']),
      platform_vcpu: plainDecimal(s['Platform vCPUs (highest vCPU possible)']),
      total: plainDecimal(e.total),
    };
  });
}

/**
 * Check: constrained-vCPU sizes (`E16-4s v3`) hold active/parent vCPUs in the vCPU column (0.25) and the parent
 * size's vCPUs in the platform column (16). Restore the active count (4), as CCF's own constrained-vCPU table has it.
 */
function restoreConstrainedVcpus(rows: AzureRow[], notes: string[]): void {
  const constrained = new Set<string>();
  for (const row of rows) {
    if (row.vcpu === undefined || Number.isInteger(row.vcpu) || row.platform_vcpu === undefined) continue;
    const active = Number(/^[A-Za-z]+\d+-(\d+)/.exec(row.type)?.[1]);
    const restored = row.vcpu * row.platform_vcpu;
    if (!(Math.abs(restored - active) < 1e-6)) {
      fail(
        CCF_INSTANCE_FILES.azure.instances,
        row.line,
        `Azure ${row.type}: fractional vCPU ${row.vcpu} × ${row.platform_vcpu} is not the name's ${active}`,
      );
    }
    row.vcpu = active;
    constrained.add(row.type);
  }
  if (constrained.size > 0) {
    notes.push(
      `azure: ${constrained.size} constrained-vCPU sizes: vcpu = active vCPUs from the name (CSV held the ratio)`,
    );
  }
}

/**
 * Check: a series whose platform column is below an instance's vCPUs (Mv2 `208 < 416`, NCas_T4_v3 `24 < 64`) takes the
 * largest instance of the series as the platform, for every size of the series (as CCF's code does).
 */
function raiseSeriesPlatforms(rows: AzureRow[], notes: string[]): void {
  const seriesMax = new Map<string, { platform: number; vcpu: number }>();
  for (const row of rows) {
    const max = seriesMax.get(row.series) ?? { platform: 0, vcpu: 0 };
    seriesMax.set(row.series, {
      platform: Math.max(max.platform, row.platform_vcpu ?? 0),
      vcpu: Math.max(max.vcpu, row.vcpu ?? 0),
    });
  }
  for (const [series, max] of [...seriesMax].sort(([a], [b]) => compareStrings(a, b))) {
    if (max.vcpu <= max.platform) continue;
    const sizes = new Set<string>();
    for (const row of rows) {
      if (row.series !== series) continue;
      row.platform_vcpu = max.vcpu;
      sizes.add(row.type);
    }
    notes.push(
      `azure: series "${series}" platform vCPU ${max.platform} < largest size ${max.vcpu}; platform_vcpu = ${max.vcpu} for ${[...sizes].join(', ')}`,
    );
  }
}

/** Select: the rows of each ARM size name (a size repeats once per microarchitecture); names must differ in case. */
function azureSizes(rows: readonly AzureRow[]): Map<string, [AzureRow, ...AzureRow[]]> {
  const bySize = new Map<string, [AzureRow, ...AzureRow[]]>();
  for (const row of rows) {
    const name = azureArmName(row.type);
    const group = bySize.get(name);
    if (group === undefined) bySize.set(name, [row]);
    else group.push(row);
  }
  const lowerNames = new Set([...bySize.keys()].map((name) => name.toLowerCase()));
  if (lowerNames.size !== bySize.size)
    throw new DatasetError(
      CCF_INSTANCE_FILES.azure.instances,
      '',
      'Azure ARM names collide case-insensitively',
    );
  return bySize;
}

/**
 * Aggregate: one instance per size, its specs the same on every microarchitecture row, its embodied total their
 * mean where they differ (noted); a size with a missing value is dropped.
 */
function azureSizeInstance(
  name: string,
  group: readonly [AzureRow, ...AzureRow[]],
  dropped: DroppedInstance[],
  notes: string[],
): Instance | undefined {
  const [first] = group;
  const file = CCF_INSTANCE_FILES.azure.instances;
  for (const row of group) {
    if (
      row.vcpu !== first.vcpu ||
      row.memory_gib !== first.memory_gib ||
      row.platform_vcpu !== first.platform_vcpu
    )
      fail(file, row.line, `Azure ${name}: specs differ between microarchitecture rows`);
  }
  const totals = group.map((row) => row.total);
  let total = first.total;
  if (!totals.every((value) => value !== undefined)) total = undefined;
  else if (new Set(totals).size > 1) {
    total = toNumber(div(sum(totals.map(decimal)), decimal(totals.length)));
    notes.push(`azure: ${name} embodied totals differ by microarchitecture; mean ${total} used`);
  }
  const { vcpu, memory_gib, platform_vcpu } = first;
  return instanceOrDrop(
    dropped,
    'azure',
    name,
    { vcpu, memory_gib, platform_vcpu, platform_embodied_kgco2e: total },
    { file, line: first.line },
  );
}

/** Most common value; a tie goes to the largest. */
function mode(values: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: [number, number] | undefined;
  for (const [value, count] of counts) {
    if (!best || count > best[1] || (count === best[1] && value > best[0])) best = [value, count];
  }
  return best?.[0];
}

/** GCP: the spec rows of each machine type (one per microarchitecture), an instance per embodied-mean row. */
function gcpInstances(
  files: NonNullable<CcfInstanceFiles['gcp']>,
  dropped: DroppedInstance[],
  notes: string[],
): Instance[] {
  const names = CCF_INSTANCE_FILES.gcp;
  const specs = new Map<string, [CsvRecord, ...CsvRecord[]]>();
  for (const row of readCsvRecords(files.instances, names.instances)) {
    const type = row.record['Machine type'] ?? '';
    const group = specs.get(type);
    if (group === undefined) specs.set(type, [row]);
    else group.push(row);
  }
  const out: Instance[] = [];
  for (const { record: embodied, line } of readCsvRecords(files.embodiedMean, names.embodiedMean)) {
    const type = embodied.type ?? '';
    const group = specs.get(type);
    if (!group) {
      dropped.push({ provider: 'gcp', instance: type, reason: `not in ${names.instances}` });
      continue;
    }
    const platformVcpu = gcpPlatformVcpu(type, group, notes);
    const first = group[0].record;
    const row = instanceOrDrop(
      dropped,
      'gcp',
      type,
      {
        vcpu: plainDecimal(first['Instance vCPUs']),
        memory_gib: plainDecimal(first['Instance Memory']),
        platform_vcpu: platformVcpu,
        platform_embodied_kgco2e: plainDecimal(embodied.total_mean),
      },
      { file: names.embodiedMean, line },
    );
    if (row) out.push(row);
  }
  return out;
}

/**
 * Check and aggregate a machine type's microarchitecture rows: the same vCPUs and memory on each, the platform the
 * most common platform vCPU count (noted where they differ); undefined when a row has none.
 */
function gcpPlatformVcpu(
  type: string,
  group: readonly [CsvRecord, ...CsvRecord[]],
  notes: string[],
): number | undefined {
  const records = group.map((row) => row.record);
  const vcpus = new Set(records.map((r) => r['Instance vCPUs']));
  const memories = new Set(records.map((r) => plainDecimal(r['Instance Memory'])));
  if (vcpus.size !== 1 || memories.size !== 1)
    fail(
      CCF_INSTANCE_FILES.gcp.instances,
      group[0].line,
      `GCP ${type}: instance specs differ by microarchitecture`,
    );
  const platforms = records.map((r) => plainDecimal(r['Platform vCPUs (highest vCPU possible)']));
  const platformVcpu = platforms.every((value) => value !== undefined) ? mode(platforms) : undefined;
  if (new Set(platforms).size > 1) {
    notes.push(
      `gcp: ${type} platform vCPUs ${platforms.join('/')} by microarchitecture; ${platformVcpu} used`,
    );
  }
  return platformVcpu;
}
