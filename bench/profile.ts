import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by component (our code, zod,
 * big.js, garbage collection, …) and inclusive time of the engine's main steps.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by component, share of the profiled time. */
  components: Array<{ component: string; ms: number; share: number }>;
  /** The functions with the most self time. */
  topSelf: Array<{ name: string; component: string; ms: number; share: number }>;
  /** Inclusive time (self + callees) of named engine steps. */
  steps: Array<{ name: string; ms: number; share: number }>;
}

export function componentOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)')
    return 'V8/idle';
  if (url.includes('/node_modules/zod/')) return 'zod (validation)';
  if (url.includes('/node_modules/big.js/')) return 'big.js (decimal arithmetic)';
  if (url.includes('/dist/')) return 'co2e-engine';
  if (url.includes('/bench/')) return 'benchmark harness';
  if (url === '') return 'V8 built-ins';
  return 'other';
}

/** Inclusive-time steps worth naming: the engine's stages as they appear in the built code. */
const STEPS = [
  'calculateCpu',
  'calculateSpend',
  'parseRequest',
  'runBatch',
  'resolveProvider',
  'resolveRegion',
  'gridFactor',
  'usePhaseFactor',
  'usePhaseMetadata',
  'factorId',
  'buildEstimate',
  'estimateFromCo2e',
  'outputNumber',
  'toNumber',
  'decimal',
  'toHours',
  'toGigabytes',
  'selectFactor',
  'convertCurrency',
  'applyMargins',
  'priceChange',
  'spendMetadata',
  'withPathPrefix',
  'div',
  'mul',
  'add',
  'sub',
];

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Self time per node from the sample stream (each sample's delta is charged to the node sampled).
  const selfUs = new Map<number, number>();
  profile.samples.forEach((nodeId, index) =>
    selfUs.set(nodeId, (selfUs.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );
  const totalUs = [...selfUs.values()].reduce((sum, value) => sum + value, 0);

  const components = new Map<string, number>();
  const functions = new Map<string, { component: string; us: number }>();
  for (const [nodeId, us] of selfUs) {
    const { functionName, url, lineNumber } = (byId.get(nodeId) as ProfileNode).callFrame;
    const component = componentOf(url, functionName);
    components.set(component, (components.get(component) ?? 0) + us);
    const file = url.split('/').slice(-2).join('/');
    const name = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    const entry = functions.get(name) ?? { component, us: 0 };
    entry.us += us;
    functions.set(name, entry);
  }

  // Inclusive time per step name: a node's subtree, counted once per outermost occurrence on a path.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stepUs = new Map<string, number>();
  for (const [nodeId, us] of selfUs) {
    const seen = new Set<string>();
    for (let current: number | undefined = nodeId; current !== undefined; current = parent.get(current)) {
      const name = (byId.get(current) as ProfileNode).callFrame.functionName;
      if (STEPS.includes(name) && !seen.has(name)) {
        seen.add(name);
        stepUs.set(name, (stepUs.get(name) ?? 0) + us);
      }
    }
  }

  const ms = (us: number) => us / 1000;
  return {
    totalMs: ms(totalUs),
    components: [...components]
      .map(([component, us]) => ({ component, ms: ms(us), share: us / totalUs }))
      .sort((a, b) => b.ms - a.ms),
    topSelf: [...functions]
      .map(([name, { component, us }]) => ({ name, component, ms: ms(us), share: us / totalUs }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
    steps: [...stepUs]
      .map(([name, us]) => ({ name, ms: ms(us), share: us / totalUs }))
      .sort((a, b) => b.ms - a.ms),
  };
}
