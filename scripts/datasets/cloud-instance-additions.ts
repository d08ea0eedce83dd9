import * as z from 'zod';
import { decimal, div, mul, toFixed, toNumber } from '../../src/core/decimal';
import { instanceKey } from '../../src/datasets/keys';
import type { CloudInstancesTable, CloudProvider } from '../../src/datasets/tables';
import { azureArmName } from '../../src/loaders/parse-ccf-instances';
import { assert, compareStrings, parseDecimal } from './lib';
import { CcfAppFileSchema } from './cloud/ccf-app-schema';

/**
 * Instance types beyond ccf-coefficients' embodied files (issue 11 item 2), from two more CCF sources:
 *
 * 1. `ccf/instance_types.json`, the CCF app's own tables (trunk b7a049c7): same Teads basis as the table (its
 *    figures equal ccf-coefficients' for 317 of 339 shared Azure sizes and most AWS types). Platform vCPU = the
 *    family's largest size (`family_largest_vcpu`), as the CCF app computes it.
 * 2. `ccf-coefficients/aws-instances-latest-2026.csv`: newer AWS families, without platform vCPU and with embodied
 *    figures on another basis (0.4–1.5× the Teads figure of the same type). Platform vCPU = the family's largest
 *    size in that file; embodied = the predecessor family's Teads figure × the ratio of the two families' 2026
 *    figures (see {@link deriveFromPredecessor}).
 *
 * GCP's 2026 file has unit-inconsistent embodied figures and is used only for the memory of CCF-app GCP types
 * (which carry none). Everything left out is returned with its source and reason; nothing is guessed.
 */

type Instance = CloudInstancesTable['instances'][number];

/** A type a source lists that the table leaves out, and why. */
export interface ExcludedInstance {
  provider: CloudProvider;
  instance: string;
  /** Source file, relative to `../shared/data`. */
  source: string;
  reason: string;
}

/**
 * An added type's embodied figure per platform vCPU must lie within this factor (either side) of its family's median
 * in the table, or for a new family of its class's median family; a derived family's also of its predecessor's.
 * The family band holds for every row of the table but one named source anomaly
 * (tests/datasets/cloud-instance-rules.test.ts).
 */
export const FAMILY_BAND = 2.5;

export const SOURCE_APP = 'ccf/instance_types.json';
export const SOURCE_AWS_2026 = 'ccf/ccf-coefficients/aws-instances-latest-2026.csv';
export const SOURCE_GCP_2026 = 'ccf/ccf-coefficients/gcp-instances-latest-2026.csv';

/**
 * The family of an instance type, for the sibling rules: AWS the part before the last `.` (`m7g`, `db.r5`), GCP
 * the part before the trailing size (`c2d-standard`), Azure the size name without its number
 * (`Standard_D16as_v5` → `D#as_v5`; constrained-vCPU sizes apart: `E16-4s_v3` → `E#-#s_v3`).
 */
export function familyOf(provider: CloudProvider, instance: string): string {
  if (provider === 'aws') return instance.slice(0, instance.lastIndexOf('.'));
  if (provider === 'gcp') return instance.replace(/-\d+$/, '');
  const match = /^Standard_([A-Za-z]+)\d+(-\d+)?(.*)$/.exec(instance);
  return match ? `${match[1]}#${match[2] ? '-#' : ''}${match[3]}` : instance;
}

/**
 * The class of an instance type: the letters its family starts with (AWS `m` for m5/m6g/m7i, `db.r`; Azure `E`,
 * `NC`; GCP the series, `n2d`). A family new to the table is checked against its class.
 */
export function classOf(provider: CloudProvider, instance: string): string {
  if (provider === 'aws') return /^(?:[a-z]+\.)?[a-z]+/.exec(instance)?.[0] ?? instance;
  if (provider === 'gcp') return instance.split('-')[0] ?? instance;
  return /^Standard_([A-Z]+)/.exec(instance)?.[1] ?? instance;
}

/** Constrained-vCPU Azure sizes: their platform is the parent size (a CCF convention), outside the band rule. */
export const isConstrained = (provider: CloudProvider, instance: string): boolean =>
  provider === 'azure' && /^Standard_[A-Za-z]+\d+-\d+/.test(instance);

const perPlatformVcpu = (row: Instance): number => row.platform_embodied_kgco2e / row.platform_vcpu;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Tonnes → kg, exactly. */
const tonnesToKg = (tonnes: number): number => toNumber(mul(decimal(tonnes), decimal(1000)));

// ---------------------------------------------------------------------------------------------------------------
// Source shapes (only the fields read here)

const AppFileSchema = CcfAppFileSchema.extend({
  aws: CcfAppFileSchema.shape.aws.extend({
    u_tb1_records: z.array(z.object({ instance_type: z.string() })),
  }),
});

interface Candidate {
  row: Instance;
  family: string;
  source: string;
  /**
   * A family derived from a predecessor (`deriveFromPredecessor`) has been checked against that predecessor, within
   * {@link FAMILY_BAND}. Its first size is then not held to its class's median family as well: a class spans
   * generations and platform sizes (the rules test allows 4.5× there), so the family band at the class level
   * rejected a real family at its edge (c8g: 0.39× against 0.4×, issue 22 item 4).
   */
  checkedAgainstPredecessor?: boolean;
}

/** The table being built: rows by lookup key, with the family index the sibling rules read. */
export class InstanceTable {
  readonly rows = new Map<string, Instance>();
  readonly excluded: ExcludedInstance[] = [];
  /** Families whose embodied figure this script derived: never a predecessor, so every ratio starts from a source figure. */
  readonly derivedFamilies = new Set<string>();

  constructor(initial: readonly Instance[]) {
    for (const row of initial) this.rows.set(this.key(row.provider, row.instance), row);
  }

  key = (provider: CloudProvider, instance: string): string =>
    `${provider}/${instanceKey(provider, instance)}`;

  has = (provider: CloudProvider, instance: string): boolean => this.rows.has(this.key(provider, instance));

  exclude(provider: CloudProvider, instance: string, source: string, reason: string): void {
    this.excluded.push({ provider, instance, source, reason });
  }

  /** Rows of a family (constrained-vCPU sizes apart). */
  family(provider: CloudProvider, family: string): Instance[] {
    return [...this.rows.values()].filter(
      (row) =>
        row.provider === provider &&
        !isConstrained(provider, row.instance) &&
        familyOf(provider, row.instance) === family,
    );
  }

  /**
   * Adds a candidate unless it breaks a rule: positive specs, vCPU ≤ platform vCPU, and embodied per platform vCPU
   * within {@link FAMILY_BAND} of the family's rows already in the table.
   */
  add({ row, family, source, checkedAgainstPredecessor = false }: Candidate): boolean {
    const { provider, instance } = row;
    const bad = (['vcpu', 'memory_gib', 'platform_vcpu', 'platform_embodied_kgco2e'] as const).filter(
      (field) => !(Number.isFinite(row[field]) && row[field] > 0),
    );
    if (bad.length > 0) {
      this.exclude(provider, instance, source, `missing or zero ${bad.join(', ')}`);
      return false;
    }
    if (row.vcpu > row.platform_vcpu) {
      this.exclude(provider, instance, source, `vCPU ${row.vcpu} > platform vCPU ${row.platform_vcpu}`);
      return false;
    }
    // Siblings: the family's rows; for a family new to the table, the medians of its class's families.
    let siblings = this.family(provider, family).map(perPlatformVcpu);
    let what = `its family ${family}'s median`;
    if (siblings.length === 0 && !checkedAgainstPredecessor) {
      const cls = classOf(provider, instance);
      const families = new Map<string, number[]>();
      for (const other of this.rows.values()) {
        if (other.provider !== provider || isConstrained(provider, other.instance)) continue;
        if (classOf(provider, other.instance) !== cls) continue;
        const key = familyOf(provider, other.instance);
        families.set(key, [...(families.get(key) ?? []), perPlatformVcpu(other)]);
      }
      siblings = [...families.values()].map(median);
      what = `the median of class ${cls}'s ${siblings.length} families`;
    }
    if (siblings.length > 0) {
      const reference = median(siblings);
      const ratio = perPlatformVcpu(row) / reference;
      if (ratio > FAMILY_BAND || ratio < 1 / FAMILY_BAND) {
        this.exclude(
          provider,
          instance,
          source,
          `embodied ${round2(perPlatformVcpu(row))} kg per platform vCPU is ${round2(ratio)}× ${what} ${round2(reference)} (band ${FAMILY_BAND}×)`,
        );
        return false;
      }
    }
    this.rows.set(this.key(provider, instance), row);
    return true;
  }
}

const round2 = (value: number): string => toFixed(decimal(value), 2);

// ---------------------------------------------------------------------------------------------------------------
// 1. The CCF app's tables

/** Names in the CCF app that are not EC2 types, each with the type it means (checked to be in the table). */
const APP_MISSPELLINGS: Readonly<Record<string, string>> = {
  'c2.8xlarge': 'cc2.8xlarge', // 32 vCPU, 60.5 GiB: the Cluster Compute type; EC2 has no c2 family
};

/**
 * Adds the CCF app's types that the table lacks. `gcpMemory` gives GiB by GCP machine type (the app has none).
 */
export function addCcfAppInstances(
  table: InstanceTable,
  appJson: unknown,
  gcpMemory: ReadonlyMap<string, { vcpu: number; memory_gib: number }>,
): void {
  const app = AppFileSchema.parse(appJson);
  for (const r of app.aws.ec2_records) {
    // Names as written, less stray whitespace (`d3.xlarge\t`).
    const instance = r.instance_type.trim();
    if (table.has('aws', instance)) continue;
    const misspelt = APP_MISSPELLINGS[instance];
    if (misspelt !== undefined) {
      assert(
        table.has('aws', misspelt),
        `${SOURCE_APP}: ${instance} is listed as a misspelling of ${misspelt}, which is not in the table`,
      );
      table.exclude(
        'aws',
        instance,
        SOURCE_APP,
        `not an EC2 type: a misspelling of ${misspelt} (same specs), which the table has`,
      );
      continue;
    }
    table.add({
      source: SOURCE_APP,
      family: familyOf('aws', instance),
      row: {
        provider: 'aws',
        instance,
        vcpu: r.vcpu,
        memory_gib: r.memory_gb,
        platform_vcpu: r.family_largest_vcpu,
        platform_embodied_kgco2e:
          r.platform_embodied_tco2e === null ? 0 : tonnesToKg(r.platform_embodied_tco2e),
      },
    });
  }
  for (const r of app.aws.u_tb1_records) {
    if (table.has('aws', r.instance_type)) continue;
    table.exclude(
      'aws',
      r.instance_type,
      SOURCE_APP,
      'the CCF app reads u-*tb1 embodied figures from the memory position of its tuple (MANIFEST §2b known defect)',
    );
  }
  for (const r of app.azure.vm_records) {
    const instance = azureArmName(r.vm_size);
    if (table.has('azure', instance)) continue;
    table.add({
      source: SOURCE_APP,
      family: familyOf('azure', instance),
      row: {
        provider: 'azure',
        instance,
        vcpu: r.vcpu,
        memory_gib: r.memory_gb,
        platform_vcpu: r.series_largest_vcpu,
        platform_embodied_kgco2e:
          r.platform_embodied_tco2e === null ? 0 : tonnesToKg(r.platform_embodied_tco2e),
      },
    });
  }
  for (const r of app.gcp.machine_records) {
    if (table.has('gcp', r.machine_type)) continue;
    const memory = gcpMemory.get(r.machine_type);
    if (memory === undefined || memory.vcpu !== r.vcpu) {
      table.exclude(
        'gcp',
        r.machine_type,
        SOURCE_APP,
        `no memory figure: the CCF app has none for GCP, and ${SOURCE_GCP_2026} ${memory ? `has vCPU ${memory.vcpu}, not ${r.vcpu}` : 'does not list it'}`,
      );
      continue;
    }
    table.add({
      source: `${SOURCE_APP}; memory from ${SOURCE_GCP_2026}`,
      family: familyOf('gcp', r.machine_type),
      row: {
        provider: 'gcp',
        instance: r.machine_type,
        vcpu: r.vcpu,
        memory_gib: memory.memory_gib,
        platform_vcpu: r.family_largest_vcpu,
        platform_embodied_kgco2e:
          r.platform_embodied_tco2e === null ? 0 : tonnesToKg(r.platform_embodied_tco2e),
      },
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. AWS 2026

interface Aws2026Row {
  instance: string;
  family: string;
  vcpu: number | undefined;
  memory_gib: number | undefined;
  /** Platform embodied, tonnes, on the 2026 file's basis. */
  tonnes: number | undefined;
}

/** `m7g` → letters `m`, generation 7, suffix `g`; undefined for names outside that pattern (`u-3tb1`, `mac2-m2`). */
function generationOf(family: string): { letters: string; generation: number; suffix: string } | undefined {
  const match = /^([a-z]+)(\d+)([a-z]*(?:-[a-z]+)?)$/.exec(family);
  return match ? { letters: match[1]!, generation: Number(match[2]), suffix: match[3]! } : undefined;
}

/**
 * The figure most of a family's rows in the table have (`m6i`: 1787.9 on nine rows, 1787.9024 on the one the CCF
 * app added), or why there is none (a tie).
 */
function familyMode(values: number[]): number | string {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return 'no rows';
  if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1])
    return `its rows in the table are split between ${ranked.map(([value]) => value).join(' and ')}`;
  return ranked[0]![0];
}

/** The one value all stated sizes of a family agree on, or why there is none. */
function familyValue(values: Array<number | undefined>): number | string {
  const stated = [...new Set(values.filter((v): v is number => v !== undefined))];
  if (stated.length === 0) return 'no size of the family has an embodied figure';
  if (stated.length > 1) return `its sizes state different embodied figures (${stated.join(', ')} t)`;
  return stated[0]!;
}

/**
 * The embodied figure of a new family on the table's (Teads) basis: the predecessor family's Teads figure × (new
 * family's 2026 figure ÷ predecessor's 2026 figure), rounded to 0.01 kg like the source. The predecessor is the
 * family of the highest lower generation with the same letters and suffix (`m7g` → `m6g`, `c7a` → `c6a` or
 * `c5a`) that has one Teads figure in the table (the most common) and one figure in the 2026 file, so both figures of the ratio come
 * from the same file and basis. Returns why not, as a string, when no predecessor qualifies.
 */
export function deriveFromPredecessor(
  table: InstanceTable,
  family: string,
  newTonnes: number,
  tonnes2026: ReadonlyMap<string, number | string>,
): { kg: number; predecessor: string; predecessorPerVcpu: number } | string {
  const parts = generationOf(family);
  if (!parts) return `family name ${family} has no generation number`;
  for (let generation = parts.generation - 1; generation >= 1; generation -= 1) {
    const predecessor = `${parts.letters}${generation}${parts.suffix}`;
    const rows = table.family('aws', predecessor);
    const stated = tonnes2026.get(predecessor);
    if (rows.length === 0 || typeof stated !== 'number' || table.derivedFamilies.has(predecessor)) continue;
    const teads = familyMode(rows.map((row) => row.platform_embodied_kgco2e));
    if (typeof teads !== 'number') continue;
    const kg = Number(toFixed(div(mul(decimal(teads), decimal(newTonnes)), decimal(stated)), 2));
    return { kg, predecessor, predecessorPerVcpu: median(rows.map(perPlatformVcpu)) };
  }
  return `no predecessor family (same letters and suffix, lower generation) with figures in both the table and ${SOURCE_AWS_2026}`;
}

/** Adds the AWS types of the 2026 file that the table lacks, by the family rules above. */
export function addAws2026Instances(table: InstanceTable, records: readonly Record<string, string>[]): void {
  const rows: Aws2026Row[] = records.map((r) => {
    const instance = r['Instance Type'] ?? '';
    return {
      instance,
      family: familyOf('aws', instance),
      vcpu: parseDecimal(r.vCPUs),
      memory_gib: parseDecimal(r['Memory (GiB)']),
      tonnes: parseDecimal(r['Platform Embedded Emissions (mtCo2eq)']),
    };
  });
  const byFamily = new Map<string, Aws2026Row[]>();
  for (const row of rows) byFamily.set(row.family, [...(byFamily.get(row.family) ?? []), row]);
  const tonnes2026 = new Map(
    [...byFamily].map(([family, sizes]) => [family, familyValue(sizes.map((s) => s.tonnes))]),
  );

  for (const [family, sizes] of [...byFamily].sort(([a], [b]) => compareStrings(a, b))) {
    const fresh = sizes.filter((s) => !table.has('aws', s.instance));
    if (fresh.length === 0) continue;
    const exclude = (reason: string) => {
      for (const s of fresh) table.exclude('aws', s.instance, SOURCE_AWS_2026, reason);
    };
    const existing = table.family('aws', family);
    if (existing.length > 0) {
      // New sizes of a family the table has: the platform and embodied figure most of the family's rows have.
      const platform = familyMode(existing.map((r) => r.platform_vcpu));
      const embodied = familyMode(existing.map((r) => r.platform_embodied_kgco2e));
      if (typeof platform !== 'number' || typeof embodied !== 'number') {
        exclude(
          `no platform vCPU or embodied figure for the family: ${[platform, embodied].filter((v) => typeof v === 'string').join('; ')}`,
        );
        continue;
      }
      for (const s of fresh) {
        table.add({
          source: `${SOURCE_AWS_2026} (specs); platform and embodied of its family in the table`,
          family,
          row: candidate(s, platform, embodied),
        });
      }
      continue;
    }
    const stated = tonnes2026.get(family)!;
    if (typeof stated !== 'number') {
      exclude(stated);
      continue;
    }
    const derived = deriveFromPredecessor(table, family, stated, tonnes2026);
    if (typeof derived === 'string') {
      exclude(derived);
      continue;
    }
    const platform = Math.max(...fresh.map((s) => s.vcpu ?? 0));
    const ratio = derived.kg / platform / derived.predecessorPerVcpu;
    if (ratio > FAMILY_BAND || ratio < 1 / FAMILY_BAND) {
      exclude(
        `derived embodied per platform vCPU is ${round2(ratio)}× that of predecessor ${derived.predecessor} (band ${FAMILY_BAND}×)`,
      );
      continue;
    }
    table.derivedFamilies.add(family);
    for (const s of fresh) {
      table.add({
        source: `${SOURCE_AWS_2026} (specs); embodied derived from ${derived.predecessor}`,
        family,
        row: { ...candidate(s, platform, derived.kg), embodied_method: 'derived from predecessor family' },
        checkedAgainstPredecessor: true,
      });
    }
  }
}

function candidate(s: Aws2026Row, platform: number, embodied: number): Instance {
  return {
    provider: 'aws',
    instance: s.instance,
    vcpu: s.vcpu ?? 0,
    memory_gib: s.memory_gib ?? 0,
    platform_vcpu: platform,
    platform_embodied_kgco2e: embodied,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. GCP 2026

/** Memory and vCPU by machine type, from the GCP 2026 file (the only GCP source with memory for new types). */
export function gcp2026Specs(
  records: readonly Record<string, string>[],
): Map<string, { vcpu: number; memory_gib: number }> {
  const specs = new Map<string, { vcpu: number; memory_gib: number }>();
  for (const r of records) {
    const vcpu = parseDecimal(r['Instance vCPU']);
    const memory = parseDecimal(r['Instance Memory']);
    if (vcpu !== undefined && memory !== undefined)
      specs.set(r['Instance Type'] ?? '', { vcpu, memory_gib: memory });
  }
  return specs;
}

/**
 * Lists the GCP 2026 types the table lacks as excluded: that file's embodied figures are not on any single unit or
 * basis (for the types both files have, 2026 ÷ Teads spans the range in the reason), so no figure can be derived.
 */
export function excludeGcp2026(table: InstanceTable, records: readonly Record<string, string>[]): void {
  const ratios: number[] = [];
  for (const r of records) {
    const kg = parseDecimal(r['Platform Embedded Emissions (kgCo2eq)']);
    const ours = table.rows.get(table.key('gcp', r['Instance Type'] ?? ''));
    // Published (Teads) figures only: a figure derived from platform specs is not a source's.
    if (kg !== undefined && ours && ours.embodied_method === undefined)
      ratios.push(kg / ours.platform_embodied_kgco2e);
  }
  assert(ratios.length > 0, `${SOURCE_GCP_2026}: no type in common with the table to compare`);
  const range = `${round2(Math.min(...ratios))}–${Math.round(Math.max(...ratios))}`;
  for (const r of records) {
    const instance = r['Instance Type'] ?? '';
    if (table.has('gcp', instance)) continue;
    table.exclude(
      'gcp',
      instance,
      SOURCE_GCP_2026,
      `its embodied figure (${r['Platform Embedded Emissions (kgCo2eq)'] || 'none'} kg) is on no consistent unit: for the ${ratios.length} types in both files it is ${range}× the Teads figure`,
    );
  }
}
