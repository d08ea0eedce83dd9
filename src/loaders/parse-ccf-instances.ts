import { deepFreeze } from '../core/freeze';
import { decimal, div, sum, toNumber } from '../core/decimal';
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
 * @throws {@link DatasetError} for malformed CSV, or once every file is read, for every place the files contradict
 *   each other (Azure files out of step, specs that differ between microarchitecture rows, an instance with more vCPUs
 *   than its platform): the first in its message, all of them in `problems`.
 */
export function parseCcfInstances(files: CcfInstanceFiles, meta: TableMeta<'cloudInstances'>): CcfInstances {
  const found: Findings = { dropped: [], notes: [], problems: new Problems('ccf-coefficients') };
  const instances = [
    ...(files.aws ? awsInstances(files.aws, found) : []),
    ...(files.azure ? azureInstances(files.azure, found) : []),
    ...(files.gcp ? gcpInstances(files.gcp, found) : []),
  ].sort((a, b) => compareStrings(a.provider, b.provider) || compareStrings(a.instance, b.instance));
  found.problems.throwIfAny();
  const tableMeta = parseMeta('cloudInstances', meta, 'cloudInstances meta');
  const table = checkedTable('cloudInstances', { ...tableMeta, instances }, found.problems, () => ({
    line: 1,
  }));
  return { cloudInstances: table, dropped: found.dropped, notes: found.notes };
}

/** What reading the files finds besides instances: rows left out, decisions taken, contradictions between files. */
interface Findings {
  dropped: DroppedInstance[];
  notes: string[];
  problems: Problems;
}

/** Locale-independent string order, so the table is the same on every machine. */
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A plain decimal string (`12`, `0.60`) as a number, else undefined: decimal commas, `N/A` and exponents are not values. */
function plainDecimal(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** Items by key, in first-seen order, each key with its items in input order. */
function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, [T, ...T[]]> {
  const groups = new Map<string, [T, ...T[]]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

/**
 * Join: each row of an embodied file with the specs of its `type` (a type without specs is dropped), then an
 * instance of the fields `fields` reads from both (undefined: left out, its problem recorded).
 */
function joinedInstances<Spec>(
  provider: CloudProvider,
  embodied: { text: string; file: string },
  specs: { get(type: string): Spec | undefined; file: string },
  found: Findings,
  fields: (type: string, embodied: Record<string, string>, spec: Spec) => InstanceFields | undefined,
): Instance[] {
  const instances: Instance[] = [];
  for (const { record, line } of readCsvRecords(embodied.text, embodied.file)) {
    const type = record.type ?? '';
    const spec = specs.get(type);
    if (spec === undefined) {
      found.dropped.push({ provider, instance: type, reason: `not in ${specs.file}` });
      continue;
    }
    const values = fields(type, record, spec);
    const instance = values && instanceOrDrop(found, provider, type, values, { file: embodied.file, line });
    if (instance) instances.push(instance);
  }
  return instances;
}

/** An instance's figures as read, each undefined where missing or unparseable. */
interface InstanceFields {
  vcpu?: number;
  memory_gib?: number;
  platform_vcpu?: number;
  platform_embodied_kgco2e?: number;
}

/** Emits a row, or records why it cannot be used (dropped) or what it contradicts (a problem at `where`). */
function instanceOrDrop(
  found: Findings,
  provider: CloudProvider,
  instance: string,
  fields: InstanceFields,
  where: { file: string; line: number },
): Instance | undefined {
  const bad = Object.entries(fields)
    .filter(([, value]) => value === undefined || value <= 0)
    .map(([name]) => name);
  if (bad.length > 0) {
    found.dropped.push({ provider, instance, reason: `missing, zero or unparseable ${bad.join(', ')}` });
    return undefined;
  }
  const row = fields as Required<typeof fields>;
  if (row.vcpu > row.platform_vcpu) {
    const problem = `${provider}/${instance}: vcpu ${row.vcpu} > platform ${row.platform_vcpu}`;
    found.problems.add({ line: where.line }, problem, where.file);
    return undefined;
  }
  return { provider, instance, ...row };
}

function awsInstances(files: NonNullable<CcfInstanceFiles['aws']>, found: Findings): Instance[] {
  const names = CCF_INSTANCE_FILES.aws;
  const specs = new Map(
    readCsvRecords(files.instances, names.instances).map((row) => [row.record['Instance type'], row.record]),
  );
  const embodied = { text: files.embodied, file: names.embodied };
  return joinedInstances(
    'aws',
    embodied,
    { get: (type) => specs.get(type), file: names.instances },
    found,
    (_, e, spec) => ({
      vcpu: plainDecimal(spec['Instance vCPU']),
      memory_gib: plainDecimal(spec['Instance Memory (in GB)']),
      platform_vcpu: plainDecimal(spec['Platform Total Number of vCPU']),
      platform_embodied_kgco2e: plainDecimal(e.total),
    }),
  );
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
function azureInstances(files: NonNullable<CcfInstanceFiles['azure']>, found: Findings): Instance[] {
  const rows = azureRows(files, found.problems);
  restoreConstrainedVcpus(rows, found);
  raiseSeriesPlatforms(rows, found.notes);
  const out: Instance[] = [];
  for (const [name, group] of azureSizes(rows, found.problems)) {
    const row = azureSizeInstance(name, group, found);
    if (row) out.push(row);
  }
  return out;
}

/**
 * Read: one row per (size, microarchitecture), both CSVs out of one pipeline in the same order. A row out of step
 * is a problem (and left out); files of different lengths cannot be paired at all.
 */
function azureRows(files: NonNullable<CcfInstanceFiles['azure']>, problems: Problems): AzureRow[] {
  const names = CCF_INSTANCE_FILES.azure;
  const embodied = readCsvRecords(files.embodied, names.embodied);
  const specs = readCsvRecords(files.instances, names.instances);
  if (embodied.length !== specs.length) {
    const [longer, shorter] =
      embodied.length > specs.length
        ? [
            { rows: embodied, file: names.embodied },
            { rows: specs, file: names.instances },
          ]
        : [
            { rows: specs, file: names.instances },
            { rows: embodied, file: names.embodied },
          ];
    problems.add(
      { line: longer.rows[shorter.rows.length]!.line },
      `${longer.rows.length} rows, but ${shorter.file} has ${shorter.rows.length}; the two files must be row by row`,
      longer.file,
    );
    return [];
  }
  const rows: AzureRow[] = [];
  embodied.forEach(({ record: e, line }, index) => {
    const s = specs[index]!.record;
    if (e.type !== s['Virtual Machine'] || e.microarchitecture !== s.Microarchitecture) {
      problems.add(
        { line },
        `${e.type}/${e.microarchitecture} vs ${s['Virtual Machine']}/${s.Microarchitecture} in ${names.instances}: the files are out of step`,
        names.embodied,
      );
      return;
    }
    rows.push({
      series: s.Series ?? '',
      type: e.type ?? '',
      line,
      vcpu: plainDecimal(s['Instance vCPUs']),
      memory_gib: plainDecimal(s['Instance Memory']),
      platform_vcpu: plainDecimal(s['Platform vCPUs (highest vCPU possible)']),
      total: plainDecimal(e.total),
    });
  });
  return rows;
}

/**
 * Check: constrained-vCPU sizes (`E16-4s v3`) hold active/parent vCPUs in the vCPU column (0.25) and the parent
 * size's vCPUs in the platform column (16). Restore the active count (4), as CCF's own constrained-vCPU table has it.
 */
function restoreConstrainedVcpus(rows: AzureRow[], found: Findings): void {
  const constrained = new Set<string>();
  for (const row of rows) {
    if (row.vcpu === undefined || Number.isInteger(row.vcpu) || row.platform_vcpu === undefined) continue;
    const active = Number(/^[A-Za-z]+\d+-(\d+)/.exec(row.type)?.[1]);
    const restored = row.vcpu * row.platform_vcpu;
    if (!(Math.abs(restored - active) < 1e-6)) {
      found.problems.add(
        { line: row.line },
        `Azure ${row.type}: fractional vCPU ${row.vcpu} × ${row.platform_vcpu} is not the name's ${active}`,
        CCF_INSTANCE_FILES.azure.instances,
      );
      continue;
    }
    row.vcpu = active;
    constrained.add(row.type);
  }
  if (constrained.size > 0) {
    found.notes.push(
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

/**
 * Select: the rows of each ARM size name (a size repeats once per microarchitecture); names must differ in more than
 * case (the engine looks instances up case-insensitively), a size that does not is a problem and left out.
 */
function azureSizes(rows: readonly AzureRow[], problems: Problems): Map<string, [AzureRow, ...AzureRow[]]> {
  const bySize = groupBy(rows, (row) => azureArmName(row.type));
  const firstByLowerName = new Map<string, string>();
  for (const [name, group] of bySize) {
    const first = firstByLowerName.get(name.toLowerCase());
    if (first === undefined) firstByLowerName.set(name.toLowerCase(), name);
    else {
      const problem = `Azure ARM names ${first} and ${name} collide case-insensitively`;
      problems.add({ line: group[0].line }, problem, CCF_INSTANCE_FILES.azure.instances);
      bySize.delete(name);
    }
  }
  return bySize;
}

/**
 * Aggregate: one instance per size, its specs the same on every microarchitecture row (each row that differs is a
 * problem), its embodied total their mean where they differ (noted); a size with a missing value is dropped.
 */
function azureSizeInstance(
  name: string,
  group: readonly [AzureRow, ...AzureRow[]],
  found: Findings,
): Instance | undefined {
  const [first] = group;
  const file = CCF_INSTANCE_FILES.azure.instances;
  const differing = group.filter(
    (row) =>
      row.vcpu !== first.vcpu ||
      row.memory_gib !== first.memory_gib ||
      row.platform_vcpu !== first.platform_vcpu,
  );
  for (const row of differing)
    found.problems.add(
      { line: row.line },
      `Azure ${name}: specs differ between microarchitecture rows`,
      file,
    );
  if (differing.length > 0) return undefined;
  const totals = group.map((row) => row.total);
  let total = first.total;
  if (!totals.every((value) => value !== undefined)) total = undefined;
  else if (new Set(totals).size > 1) {
    total = toNumber(div(sum(totals.map(decimal)), decimal(totals.length)));
    found.notes.push(`azure: ${name} embodied totals differ by microarchitecture; mean ${total} used`);
  }
  const { vcpu, memory_gib, platform_vcpu } = first;
  return instanceOrDrop(
    found,
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
function gcpInstances(files: NonNullable<CcfInstanceFiles['gcp']>, found: Findings): Instance[] {
  const names = CCF_INSTANCE_FILES.gcp;
  const specs = groupBy(
    readCsvRecords(files.instances, names.instances),
    (row) => row.record['Machine type'] ?? '',
  );
  const embodied = { text: files.embodiedMean, file: names.embodiedMean };
  const bySpecs = { get: (type: string) => specs.get(type), file: names.instances };
  return joinedInstances('gcp', embodied, bySpecs, found, (type, e, group) => {
    if (!gcpSpecsAgree(type, group, found.problems)) return undefined;
    const first = group[0].record;
    return {
      vcpu: plainDecimal(first['Instance vCPUs']),
      memory_gib: plainDecimal(first['Instance Memory']),
      platform_vcpu: gcpPlatformVcpu(type, group, found.notes),
      platform_embodied_kgco2e: plainDecimal(e.total_mean),
    };
  });
}

/** Check a machine type's microarchitecture rows: the same vCPUs and memory on each, else a problem at the first. */
function gcpSpecsAgree(
  type: string,
  group: readonly [CsvRecord, ...CsvRecord[]],
  problems: Problems,
): boolean {
  const records = group.map((row) => row.record);
  const vcpus = new Set(records.map((r) => r['Instance vCPUs']));
  const memories = new Set(records.map((r) => plainDecimal(r['Instance Memory'])));
  if (vcpus.size === 1 && memories.size === 1) return true;
  const problem = `GCP ${type}: instance specs differ by microarchitecture`;
  problems.add({ line: group[0].line }, problem, CCF_INSTANCE_FILES.gcp.instances);
  return false;
}

/**
 * Aggregate a machine type's microarchitecture rows: the platform is the most common platform vCPU count (noted
 * where they differ); undefined when a row has none.
 */
function gcpPlatformVcpu(
  type: string,
  group: readonly [CsvRecord, ...CsvRecord[]],
  notes: string[],
): number | undefined {
  const platforms = group.map((row) => plainDecimal(row.record['Platform vCPUs (highest vCPU possible)']));
  const platformVcpu = platforms.every((value) => value !== undefined) ? mode(platforms) : undefined;
  if (new Set(platforms).size > 1) {
    notes.push(
      `gcp: ${type} platform vCPUs ${platforms.join('/')} by microarchitecture; ${platformVcpu} used`,
    );
  }
  return platformVcpu;
}
