import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';

/**
 * Bundles a snippet the way a browser app would (esbuild, minified, tree-shaken, ESM, platform browser): either
 * from the packed package installed in a scratch project (`installedPackage()`, what apps get; the budgets), or
 * with `co2e-engine` resolved to the TypeScript sources (no build needed; the tree-shaking checks). zod and big.js
 * are bundled in: they ship to the user's browser too.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SOURCE_ENTRIES: Readonly<Record<string, string>> = {
  'co2e-engine': `${ROOT}src/index.ts`,
  'co2e-engine/datasets': `${ROOT}src/embedded/index.ts`,
  'co2e-engine/billing': `${ROOT}src/billing/index.ts`,
  'co2e-engine/datasets/cloud': `${ROOT}src/embedded/cloud.ts`,
  'co2e-engine/datasets/spend': `${ROOT}src/embedded/spend.ts`,
  'co2e-engine/datasets/cloud/ccf-grid': `${ROOT}src/embedded/ccf-grid.ts`,
  'co2e-engine/datasets/cloud/electricitymaps-grid': `${ROOT}src/embedded/electricitymaps-grid.ts`,
  'co2e-engine/datasets/cloud/hosted-api-2021-grid': `${ROOT}src/embedded/hosted-api-2021-grid.ts`,
  'co2e-engine/datasets/cloud/instances': `${ROOT}src/embedded/cloud-instances.ts`,
  'co2e-engine/schemas': `${ROOT}src/schemas.ts`,
};

/** Resolves the package's own specifiers to its sources (exact matches only, so a typo fails the build). */
const packageSources: Plugin = {
  name: 'co2e-engine-sources',
  setup(pluginBuild) {
    // What a browser app's bundler picks from package.json `imports` (condition `browser`).
    pluginBuild.onResolve({ filter: /^\.\/fast-parse$/ }, () => ({
      path: `${ROOT}src/core/fast-parse.browser.ts`,
    }));
    pluginBuild.onResolve({ filter: /^co2e-engine(\/.*)?$/ }, (args) => {
      const path = SOURCE_ENTRIES[args.path];
      if (path === undefined) return { errors: [{ text: `no source entry for '${args.path}'` }] };
      return { path };
    });
  },
};

export interface BundleResult {
  code: string;
  /** Minified bytes. */
  minified: number;
  /** gzip bytes at zlib's default level (6), what a web server typically sends. */
  gzipped: number;
  /** Minified output bytes contributed by each group of inputs: our sources, zod, big.js, dataset JSON. */
  contributions: Record<string, number>;
}

const groupOf = (input: string): string => {
  // The installed package: its data modules, and its code (with the zod it bundles).
  if (input.includes('node_modules/co2e-engine/dist/data/')) return 'dataset JSON';
  if (input.includes('node_modules/co2e-engine/')) return 'co2e-engine';
  if (input.includes('node_modules/zod/')) return 'zod';
  if (input.includes('node_modules/big.js/')) return 'big.js';
  if (input.endsWith('.json')) return 'dataset JSON';
  if (input.startsWith('src/')) return 'co2e-engine';
  return 'other';
};

function contributionsOf(metafile: Metafile): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const group = groupOf(input);
      totals[group] = (totals[group] ?? 0) + bytesInOutput;
    }
  }
  return totals;
}

/**
 * Bundles `source` (an ES module that imports from `co2e-engine`) and measures it: from the sources, or, given
 * `project`, from the package installed there, resolved as a bundler resolves it (exports, `browser` condition).
 */
export async function bundle(source: string, project?: string): Promise<BundleResult> {
  const result = await build({
    stdin: { contents: source, resolveDir: project ?? ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    treeShaking: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: project === undefined ? [packageSources] : [],
    ...(project !== undefined && { absWorkingDir: project }),
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  const code = output.text;
  return {
    code,
    minified: Buffer.byteLength(code),
    gzipped: gzipSync(code).byteLength,
    contributions: contributionsOf(result.metafile),
  };
}

const CALCULATORS = [
  'calculateCpu',
  'calculateMemory',
  'calculateStorage',
  'calculateNetworking',
  'calculateEmbodied',
  'calculateInstance',
  'calculateSpend',
] as const;

/** Snippets a browser app would write against the root entry, by name. Each keeps its import alive by re-exporting it. */
export const ROOT_ENTRIES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    CALCULATORS.map((name) => [name, `import { ${name} } from 'co2e-engine'; export { ${name} };`]),
  ),
  createEngine: `import { createEngine } from 'co2e-engine'; export { createEngine };`,
  'whole root entry': `export * from 'co2e-engine';`,
  'whole schemas entry': `export * from 'co2e-engine/schemas';`,
};

/** The embedded datasets subpaths: all tables, the cloud tables only, the spend tables only. */
export const DATASETS_ENTRIES = {
  'co2e-engine/datasets': `import { defaultDatasets } from 'co2e-engine/datasets'; export { defaultDatasets };`,
  'co2e-engine/datasets/cloud': `import { cloudDatasets } from 'co2e-engine/datasets/cloud'; export { cloudDatasets };`,
  'co2e-engine/datasets/spend': `import { spendDatasets } from 'co2e-engine/datasets/spend'; export { spendDatasets };`,
} as const;

/**
 * A whole app's data choice: a calculator with the cloud tables it needs. `cloudDatasets` takes every cloud table;
 * `cloudDatasetsWith` one grid set, and the instance table only for the calculators that read it.
 */
export const DATA_CHOICE_ENTRIES = {
  'calculateCpu + cloudDatasets (all cloud tables)': `import { calculateCpu } from 'co2e-engine';
    import { cloudDatasets } from 'co2e-engine/datasets/cloud';
    export const estimate = (request) => calculateCpu('aws', request, cloudDatasets);`,
  'calculateCpu + cloudDatasetsWith ccf-grid': `import { calculateCpu } from 'co2e-engine';
    import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
    import { ccfGridRegionsTable } from 'co2e-engine/datasets/cloud/ccf-grid';
    const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable });
    export const estimate = (request) => calculateCpu('aws', request, datasets);`,
  'calculateCpu + cloudDatasetsWith electricitymaps-grid': `import { calculateCpu } from 'co2e-engine';
    import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
    import { electricityMapsRegionsTable } from 'co2e-engine/datasets/cloud/electricitymaps-grid';
    const datasets = cloudDatasetsWith({ grid: electricityMapsRegionsTable });
    export const estimate = (request) => calculateCpu('aws', request, datasets);`,
  'calculateInstance + cloudDatasetsWith ccf-grid, instances': `import { calculateInstance } from 'co2e-engine';
    import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
    import { ccfGridRegionsTable } from 'co2e-engine/datasets/cloud/ccf-grid';
    import { cloudInstancesTable } from 'co2e-engine/datasets/cloud/instances';
    const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable, instances: cloudInstancesTable });
    export const estimate = (request) => calculateInstance('aws', request, datasets);`,
} as const;
