import { describe, expect, it } from 'vitest';
import { addedMinWatts } from '../../scripts/datasets/cloud-gpus';
import { familyKey, gcpFamily, largestSize } from '../../scripts/datasets/cloud/platform-derived';
import {
  AZURE_V6_SIZES,
  GCP_TURIN_SIZES,
  gcpTurinSizes,
  GPU_WATTS_ADDED,
  PLATFORM_SPECS,
} from '../../scripts/datasets/cloud/platform-specs';
import coefficientsJson from '../../datasets/cloud/coefficients.json';
import instancesJson from '../../datasets/cloud/instances.json';
import type { CloudCoefficientsTable, CloudInstancesTable } from '../../src/datasets/tables';

const instances = instancesJson as CloudInstancesTable;
const coefficients = coefficientsJson as CloudCoefficientsTable;

describe('the platform specs table (scripts/datasets/cloud/platform-specs.ts)', () => {
  it('has one row per family, whole non-negative counts, at least one socket, a source and a note', () => {
    const ids = PLATFORM_SPECS.map((row) => `${row.provider}/${row.family}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of PLATFORM_SPECS) {
      const id = `${row.provider}/${row.family}`;
      expect(row.cpu_sockets, id).toBeGreaterThanOrEqual(1);
      for (const count of [row.cpu_sockets, row.hdd_count, row.ssd_count, row.gpu_count])
        expect(Number.isInteger(count) && count >= 0, id).toBe(true);
      expect(row.source, id).toMatch(/^https:\/\//);
      expect(row.note.length, id).toBeGreaterThan(10);
      expect(row.processor.length, id).toBeGreaterThan(3);
      // GPUs: a model and a count per size, the platform's count being its largest size's.
      expect(row.gpu_count > 0, id).toBe(row.gpu_model !== undefined);
      if (row.gpus_by_size !== undefined)
        expect(Math.max(...Object.values(row.gpus_by_size)), id).toBe(row.gpu_count);
    }
  });

  it('covers every family issue 38 names', () => {
    const families = new Set(PLATFORM_SPECS.map((row) => `${row.provider}/${row.family}`));
    for (const family of 'm7i c7i r7i m7a c7a r7a m8i c8i r8i m8g c8g r8g i7ie g6 g6e p5'.split(' '))
      expect(families, family).toContain(`aws/${family}`);
    for (const family of 'c3-standard c3d-standard c4-standard c4a-standard c4d-standard n4-standard n4d-standard t2a-standard a3-highgpu g2-standard'.split(
      ' ',
    ))
      expect(families, family).toContain(`gcp/${family}`);
    for (const family of 'D#s_v6 E#s_v6 D#as_v6 E#as_v6 D#ps_v6 E#ps_v6 F#as_v6 NC#ads_H100_v5 ND#isr_H100_v5 NV#ads_A10_v5'.split(
      ' ',
    ))
      expect(families, family).toContain(`azure/${family}`);
  });

  it('Azure sizes: unique names, positive vCPUs and memory, each series in the specs table', () => {
    const names = new Set<string>();
    const families = new Set(PLATFORM_SPECS.filter((r) => r.provider === 'azure').map((r) => r.family));
    for (const [letter, suffix, list] of AZURE_V6_SIZES) {
      expect(families).toContain(`${letter}#${suffix}`);
      for (const size of list.split(' ')) {
        const [vcpu, memory] = size.split(':').map(Number);
        expect(vcpu! > 0 && memory! > 0, size).toBe(true);
        const name = `Standard_${letter}${vcpu}${suffix}`;
        expect(names.has(name), name).toBe(false);
        names.add(name);
      }
    }
    expect(names.size).toBe(177);
  });

  it('GCP C4D and N4D sizes: 76 unique types, each family in the specs table, memory per vCPU as Google writes it', () => {
    const sizes = gcpTurinSizes();
    expect(sizes.length).toBe(76);
    expect(new Set(sizes.map((s) => s.instance)).size).toBe(76);
    const families = new Set(PLATFORM_SPECS.filter((r) => r.provider === 'gcp').map((r) => r.family));
    for (const size of sizes) expect(families, size.instance).toContain(familyKey('gcp', size.instance));
    for (const [family, suffix] of GCP_TURIN_SIZES) expect(families).toContain(`${family}${suffix}`);
    // Spot checks against Google's tables: c4d-standard-384 1,488 GB, c4d-highmem-384-metal 3,072 GB, n4d-highcpu-48 90 GB.
    const memory = new Map(sizes.map((s) => [s.instance, s.memory_gib]));
    expect(memory.get('c4d-standard-384')).toBe(1488);
    expect(memory.get('c4d-highmem-384-metal')).toBe(3072);
    expect(memory.get('n4d-highcpu-48')).toBe(90);
    expect(memory.get('c4d-standard-8-lssd')).toBe(31);
  });

  it('every derived row is in its family, on the family largest size as platform', () => {
    const derived = instances.instances.filter(
      (row) => row.embodied_method === 'derived from platform specs',
    );
    expect(derived.length).toBe(608);
    const byFamily = new Map<string, typeof derived>();
    for (const row of derived) {
      const key = `${row.provider}/${familyKey(row.provider, row.instance)}`;
      byFamily.set(key, [...(byFamily.get(key) ?? []), row]);
    }
    for (const [family, rows] of byFamily) {
      const platform = largestSize(
        rows.map((r) => ({ instance: r.instance, vcpu: r.vcpu, memory_gib: r.memory_gib })),
      );
      for (const row of rows) {
        expect(row.platform_vcpu, row.instance).toBe(platform.vcpu);
        expect(row.platform_embodied_kgco2e, row.instance).toBeGreaterThanOrEqual(1000);
      }
      expect(new Set(rows.map((r) => r.platform_embodied_kgco2e)).size, family).toBe(1);
    }
  });

  it('names GCP families without their size', () => {
    expect(gcpFamily('c3-standard-4')).toBe('c3-standard');
    expect(gcpFamily('c3-standard-4-lssd')).toBe('c3-standard-lssd');
    expect(gcpFamily('c3-highmem-192-metal')).toBe('c3-highmem-metal');
    expect(gcpFamily('a3-highgpu-8g')).toBe('a3-highgpu');
    expect(gcpFamily('e2-micro')).toBe('e2-micro');
  });

  it('GPU watts of the added models: vendor max, min at CCF A100 ratio 46/407, in every provider', () => {
    // H100: 700 × 46/407 = 79.115… → 79.12; L4: 72 × 46/407 = 8.137… → 8.14; L40S: 350 × 46/407 = 39.557… → 39.56
    expect(addedMinWatts(700)).toBe(79.12);
    expect(addedMinWatts(72)).toBe(8.14);
    expect(addedMinWatts(350)).toBe(39.56);
    for (const [model, { max_watts }] of Object.entries(GPU_WATTS_ADDED))
      for (const provider of ['aws', 'azure', 'gcp'] as const)
        expect(coefficients.providers[provider]?.gpu_watts?.[model], `${provider} ${model}`).toEqual({
          min_watts: addedMinWatts(max_watts),
          max_watts,
        });
  });
});
