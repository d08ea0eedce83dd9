/**
 * Rows of today's families whose embodied figure is derived from their platform's published specs (issue 38): the
 * Teads parts formula (`src/cloud/factors/platform-embodied.ts`, which reproduces 1,617 of the 1,619 figures of
 * ccf-coefficients' embodied files) applied to {@link PLATFORM_SPECS}. A type with a published figure keeps it; a
 * type whose figure was derived from a predecessor family is replaced, as its own platform is now known.
 */
import { toNumber } from '../../../src/core/decimal';
import { platformEmbodied } from '../../../src/cloud/factors/platform-embodied';
import type { CloudInstancesTable, CloudProvider } from '../../../src/datasets/tables';
import { type InstanceTable, familyOf, SOURCE_AWS_2026, SOURCE_GCP_2026 } from '../cloud-instance-additions';
import { assert, parseDecimal } from '../lib';
import {
  AZURE_GPU_SIZES,
  AZURE_SERIES_ALIASES,
  AZURE_V6_SIZES,
  gcpTurinSizes,
  PLATFORM_SPECS,
  type PlatformSpecRow,
} from './platform-specs';

type Instance = CloudInstancesTable['instances'][number];

/** A size of a family: name, vCPUs and memory (GiB). */
export interface FamilySize {
  instance: string;
  vcpu: number;
  memory_gib: number;
}

/**
 * The family of a GCP machine type as {@link PLATFORM_SPECS} names it: the type without its size number, a local-SSD
 * or metal variant apart (`c3-standard-4-lssd` → `c3-standard-lssd`, `c3-standard-192-metal` → `c3-standard-metal`,
 * `a3-highgpu-8g` → `a3-highgpu`).
 */
export function gcpFamily(type: string): string {
  const match = /^([a-z0-9]+-[a-z]+)-\d+g?(-lssd|-metal)?$/.exec(type);
  return match ? `${match[1]}${match[2] ?? ''}` : type;
}

export function familyKey(provider: CloudProvider, instance: string): string {
  if (provider === 'gcp') return gcpFamily(instance);
  const family = familyOf(provider, instance);
  return provider === 'azure' ? (AZURE_SERIES_ALIASES[family] ?? family) : family;
}

/** The sizes of every provider's source lists, by `provider/family`. */
export function familySizes(
  aws2026: readonly Record<string, string>[],
  gcp2026: readonly Record<string, string>[],
): Map<string, FamilySize[]> {
  const sizes = new Map<string, FamilySize[]>();
  const seen = new Set<string>();
  const add = (provider: CloudProvider, size: FamilySize) => {
    // The GCP 2026 list repeats a few rows (c4a-standard-1 …): one size once.
    if (seen.has(`${provider}/${size.instance}`)) return;
    seen.add(`${provider}/${size.instance}`);
    const key = `${provider}/${familyKey(provider, size.instance)}`;
    sizes.set(key, [...(sizes.get(key) ?? []), size]);
  };
  for (const r of aws2026) {
    const vcpu = parseDecimal(r.vCPUs);
    const memory = parseDecimal(r['Memory (GiB)']);
    if (vcpu !== undefined && memory !== undefined)
      add('aws', { instance: (r['Instance Type'] ?? '').trim(), vcpu, memory_gib: memory });
  }
  for (const r of gcp2026) {
    const vcpu = parseDecimal(r['Instance vCPU']);
    const memory = parseDecimal(r['Instance Memory']);
    if (vcpu !== undefined && memory !== undefined)
      add('gcp', { instance: r['Instance Type'] ?? '', vcpu, memory_gib: memory });
  }
  for (const size of gcpTurinSizes()) add('gcp', size);
  for (const [letter, suffix, list] of AZURE_V6_SIZES)
    for (const size of list.split(' ')) {
      const [vcpu, memory] = size.split(':').map(Number) as [number, number];
      add('azure', { instance: `Standard_${letter}${vcpu}${suffix}`, vcpu, memory_gib: memory });
    }
  for (const [instance, vcpu, memory] of AZURE_GPU_SIZES)
    add('azure', { instance, vcpu, memory_gib: memory });
  return sizes;
}

/** Where a family's sizes come from, for the build log and SOURCES.md. */
export const SIZE_SOURCE: Readonly<Record<CloudProvider, string>> = {
  aws: SOURCE_AWS_2026,
  gcp: `${SOURCE_GCP_2026}; C4D and N4D: Google's general-purpose machine family page (read 2026-11-27)`,
  azure: 'microsoft/aspire 59d405ff AksNodeVmSizes.Generated.cs (Azure Resource SKUs)',
};

/** The platform of a family: its largest size (most vCPUs, then most memory). */
export function largestSize(sizes: readonly FamilySize[]): FamilySize {
  return sizes.reduce((a, b) =>
    b.vcpu > a.vcpu || (b.vcpu === a.vcpu && b.memory_gib > a.memory_gib) ? b : a,
  );
}

/** The platform embodied kg CO2e of a family from its specs and its largest size. */
export function familyEmbodiedKg(spec: PlatformSpecRow, platform: FamilySize): number {
  return toNumber(
    platformEmbodied({
      memory_gb: platform.memory_gib,
      cpu_sockets: spec.cpu_sockets,
      hdd_count: spec.hdd_count,
      ssd_count: spec.ssd_count,
      gpu_count: spec.gpu_count,
    }).total,
  );
}

/**
 * Adds (or, for predecessor-derived rows, replaces) every size of every family of {@link PLATFORM_SPECS}; returns
 * the count of rows written per provider.
 */
export function addPlatformDerived(
  table: InstanceTable,
  sizes: ReadonlyMap<string, readonly FamilySize[]>,
): Record<CloudProvider, number> {
  const written: Record<CloudProvider, number> = { aws: 0, azure: 0, gcp: 0 };
  for (const spec of PLATFORM_SPECS) {
    const family = sizes.get(`${spec.provider}/${spec.family}`);
    assert(
      family !== undefined && family.length > 0,
      `platform specs: no sizes for ${spec.provider} ${spec.family}`,
    );
    const platform = largestSize(family);
    const embodied = familyEmbodiedKg(spec, platform);
    for (const size of family) {
      const existing = table.rows.get(table.key(spec.provider, size.instance));
      if (existing !== undefined && existing.embodied_method === undefined) continue; // published: kept
      const gpus = spec.gpus_by_size?.[size.instance];
      assert(
        spec.gpus_by_size === undefined || gpus !== undefined,
        `platform specs: ${size.instance} has no GPU count in ${spec.family}'s gpus_by_size`,
      );
      const row: Instance = {
        provider: spec.provider,
        instance: size.instance,
        vcpu: size.vcpu,
        memory_gib: size.memory_gib,
        platform_vcpu: platform.vcpu,
        platform_embodied_kgco2e: embodied,
        ...(gpus === undefined ? {} : { gpu_count: gpus, gpu_model: spec.gpu_model! }),
        embodied_method: 'derived from platform specs',
      };
      table.rows.set(table.key(spec.provider, size.instance), row);
      written[spec.provider] += 1;
    }
  }
  return written;
}

/** CCF's 2026 watts per vCPU and memory per chip for a microarchitecture (ccf-coefficients `coefficients-*-use.csv`). */
interface UseFigures {
  min_watts: number;
  max_watts: number;
  gb_per_chip: number;
}

/**
 * Arm processors CCF has no SPECpower result for. ccf-coefficients 2026 gives Graviton2/3/3E/4 the figures of EPYC 2nd
 * Gen by assumption (MANIFEST §2a; its `use_coefficients` says so for Graviton); the other Arm parts of today's
 * families take the same assumption, named here.
 */
const ARM_AS_EPYC_2ND_GEN = new Set(['Graviton4', 'Axion', 'Cobalt 100', 'Ampere Altra']);

/**
 * The CCF profile's rows for today's families (issue 38): the default table's platform-derived rows with the CPU watts
 * CCF's 2026 coefficients give their microarchitecture (AWS and Azure: `coefficients-aws-use.csv`, whose
 * microarchitectures CCF's Azure file of 2022 lacks; GCP: `coefficients-gcp-use.csv`, GCP-adjusted max), rounded to
 * 0.01 W as the CCF app's constants are, and CCF's memory rule (AWS, Azure: only the memory above the processors'
 * baseline; GCP: all of it). A type whose microarchitecture the provider's file has no figure for (GCP C4D and N4D on
 * EPYC 5th Gen, which `coefficients-gcp-use.csv` lacks) is not given another file's watts: it is returned in
 * `excluded` with the reason, so `ccfAppDatasets` refuses it by name.
 */
export function ccfAppPlatformRows(
  defaults: readonly Instance[],
  use: Record<'aws' | 'gcp', readonly Record<string, string>[]>,
  chargedMemoryGb: (chips: number, largestMemory: number, perChip: number, memory: number) => number,
): {
  rows: Instance[];
  excluded: { provider: CloudProvider; instance: string; source: string; reason: string }[];
} {
  const figures = (provider: 'aws' | 'gcp') =>
    new Map(
      use[provider].map((r) => [
        r.Architecture ?? '',
        {
          min_watts: Number(r['Min Watts']),
          max_watts: Number(r['Max Watts']),
          gb_per_chip: Number(r['GB/Chip']),
        } satisfies UseFigures,
      ]),
    );
  const byProvider = { aws: figures('aws'), gcp: figures('gcp') };
  const specs = new Map(PLATFORM_SPECS.map((spec) => [`${spec.provider}/${spec.family}`, spec]));
  const derived = defaults.filter((row) => row.embodied_method === 'derived from platform specs');
  const largestMemory = new Map<string, number>();
  for (const row of derived) {
    const key = `${row.provider}/${familyKey(row.provider, row.instance)}`;
    const current = largestMemory.get(key);
    const platform = derived.filter((r) => `${r.provider}/${familyKey(r.provider, r.instance)}` === key);
    if (current === undefined) largestMemory.set(key, largestSize(platform).memory_gib);
  }
  const rows: Instance[] = [];
  const excluded: { provider: CloudProvider; instance: string; source: string; reason: string }[] = [];
  for (const row of derived) {
    const key = `${row.provider}/${familyKey(row.provider, row.instance)}`;
    const spec = specs.get(key);
    assert(spec !== undefined, `ccf-app: no platform specs for ${key}`);
    const architecture = ARM_AS_EPYC_2ND_GEN.has(spec.microarchitecture)
      ? 'EPYC 2nd Gen'
      : spec.microarchitecture;
    const file = row.provider === 'gcp' ? 'gcp' : 'aws';
    const use = byProvider[file].get(architecture);
    if (use === undefined) {
      excluded.push({
        provider: row.provider,
        instance: row.instance,
        source: `ccf/ccf-coefficients/coefficients-${file}-use.csv`,
        reason: `ccf-coefficients 2026 ${file} use file has no ${architecture} watts`,
      });
      continue;
    }
    const round = (watts: number) => Math.round(watts * 100) / 100;
    const charged =
      row.provider === 'gcp'
        ? {}
        : {
            charged_memory_gb: chargedMemoryGb(
              spec.cpu_sockets,
              largestMemory.get(key)!,
              use.gb_per_chip,
              row.memory_gib,
            ),
          };
    rows.push({ ...row, ...charged, min_watts: round(use.min_watts), max_watts: round(use.max_watts) });
  }
  return { rows, excluded };
}
