import { describe, expect, it } from 'vitest';

/**
 * Issue 39 item 4: every table and dataset the package exports is deeply frozen, so no importer can change what
 * another (or a dataset built afterwards) computes with. Walks every export of every package entry (package.json
 * `exports`, through their sources) and every object reachable from it, dataset parts built on first use included.
 */

const ENTRIES: Record<string, () => Promise<Record<string, unknown>>> = {
  'co2e-engine': () => import('../../src/index'),
  'co2e-engine/billing': () => import('../../src/billing/index'),
  'co2e-engine/datasets': () => import('../../src/embedded/index'),
  'co2e-engine/datasets/cloud': () => import('../../src/embedded/cloud'),
  'co2e-engine/datasets/cloud/ccf-grid': () => import('../../src/embedded/ccf-grid'),
  'co2e-engine/datasets/cloud/electricitymaps-grid': () => import('../../src/embedded/electricitymaps-grid'),
  'co2e-engine/datasets/cloud/hosted-api-2021-grid': () => import('../../src/embedded/hosted-api-2021-grid'),
  'co2e-engine/datasets/cloud/instances': () => import('../../src/embedded/cloud-instances'),
  'co2e-engine/datasets/spend': () => import('../../src/embedded/spend'),
  'co2e-engine/http': () => import('../../src/http/index'),
  'co2e-engine/loaders': () => import('../../src/loaders/index'),
  'co2e-engine/node': () => import('../../src/node/index'),
};

function throws(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch {
    return true;
  }
}

/** Paths to every object reachable from `root` (functions' own properties aside) that is not frozen. */
function unfrozen(root: unknown, name: string): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[root, name]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if ('_zod' in value) continue; // a request or table schema: code, not data
    if (value instanceof Set || value instanceof Map) {
      const probe = value instanceof Set ? () => value.add(0) : () => value.set(0, 0);
      if (!Object.isFrozen(value) || !throws(probe))
        found.push(`${path} (a ${value.constructor.name} that can change)`);
      continue;
    }
    if (ArrayBuffer.isView(value)) {
      found.push(`${path} (a typed array, whose contents freezing cannot protect)`);
      continue;
    }
    if (!Object.isFrozen(value)) found.push(path);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      // A getter (a dataset part built on first use) is read: what it returns must be frozen too.
      const inner = 'value' in descriptor ? descriptor.value : descriptor.get?.call(value);
      stack.push([inner, `${path}.${String(key)}`]);
    }
  }
  return found;
}

describe('every exported table and dataset is deeply frozen (issue 39 item 4)', () => {
  it.each(Object.keys(ENTRIES))('%s', async (entry) => {
    const module = await ENTRIES[entry]!();
    const problems: string[] = [];
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function') continue; // functions and classes: code, not data
      problems.push(...unfrozen(value, name));
    }
    const exports = [...new Set(problems.map((path) => path.split('.')[0]))];
    expect(
      { exports, examples: problems.filter((path) => !/\.\d+(\.|$)/.test(path)).slice(0, 60) },
      `${problems.length} mutable objects`,
    ).toEqual({
      exports: [],
      examples: [],
    });
  });

  it("the issue's reproduction: a changed instance row throws, and datasets built afterwards are unchanged", async () => {
    const { cloudInstancesTable } = await import('../../src/embedded/cloud-instances');
    const { cloudDatasetsWith } = await import('../../src/embedded/cloud');
    const { ccfGridRegionsTable } = await import('../../src/embedded/ccf-grid');
    const { calculateEmbodied } = await import('../../src/index');
    const row = cloudInstancesTable.instances.find((instance) => instance.instance === 'm5.large')!;
    expect(() => {
      (row as { platform_embodied_kgco2e: number }).platform_embodied_kgco2e = 1e9;
    }).toThrow(TypeError);
    expect(() => {
      (cloudInstancesTable.instances as unknown[]).push({});
    }).toThrow(TypeError);
    const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable, instances: cloudInstancesTable });
    // 72 instance-hours × 1610.79 kg × 2/96 vCPU / 35040 h (tests/cloud/golden.test.ts)
    expect(
      calculateEmbodied('aws', { instance: 'm5.large', instance_count: 3, duration: 24 }, datasets).co2e,
    ).toBe(0.068955051369863);
  });
});
