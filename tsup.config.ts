import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';
import { externalDataModules, writeDataModules } from './scripts/data-files';
import { jsonAsParse } from './scripts/json-as-parse';

/**
 * dist/ imports the request parser's fast path as `#fast-parse`, which package.json `imports` resolves by
 * condition: zod's compiler for Node and the default, the plain parser for browser bundles (about 10 KB gzip less).
 * The sources import `./fast-parse` directly, so tests and scripts need no build.
 */
const fastParseByCondition: Plugin = {
  name: 'fast-parse-by-condition',
  setup(build) {
    build.onResolve({ filter: /^\.\/fast-parse$/ }, () => ({ path: '#fast-parse', external: true }));
  },
};

/**
 * `co2e-engine/node` loads the embedded datasets on first use, not on import (src/node/embedded.ts): in the package
 * its `./embedded` module becomes one that requires the built `co2e-engine/datasets` entry when first called. The
 * ES module build requires `./datasets.js` (Node's `require` of an ES module, 20.19 and later; the same instance an
 * `import` gets) and falls back to `./datasets.cjs` on older Node; the CommonJS build requires `./datasets.cjs`.
 * Every output sits in dist/, so the path holds from any chunk.
 */
const lazyEmbeddedDatasets: Plugin = {
  name: 'lazy-embedded-datasets',
  setup(build) {
    const cjs = build.initialOptions.outExtension?.['.js'] === '.cjs';
    build.onResolve({ filter: /^\.\/embedded$/ }, ({ importer }) =>
      /[\\/]src[\\/]node[\\/][^\\/]+\.ts$/.test(importer)
        ? { path: 'embedded', namespace: 'lazy-embedded-datasets' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-embedded-datasets' }, () => ({
      loader: 'js',
      resolveDir: process.cwd(),
      contents: cjs
        ? `import { createRequire } from 'node:module';
let loaded;
export const embeddedDatasets = () => (loaded ??= createRequire(__filename)('./datasets.cjs'));`
        : `import { createRequire } from 'node:module';
let loaded;
export function embeddedDatasets() {
  if (loaded === undefined) {
    const requireFromDist = createRequire(import.meta.url);
    try {
      loaded = requireFromDist('./datasets.js');
    } catch (error) {
      // Node before 20.19 (or 22.12) cannot require an ES module: take the CommonJS build.
      if (error?.code !== 'ERR_REQUIRE_ESM') throw error;
      loaded = requireFromDist('./datasets.cjs');
    }
  }
  return loaded;
}`,
    }));
  },
};

/**
 * A plugin that keeps one import of one CLI module apart: `specifier` imported from `importer` (a path under src/cli/,
 * with `/`) stays an import of `output`, a dist/ entry of its own, so the bundle that imports it does not carry it.
 */
function keptApart(name: string, specifier: string, importer: string, output: string): Plugin {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const filter = new RegExp(`^${escaped(specifier)}$`);
  const from = new RegExp(`[\\\\/]src[\\\\/]cli[\\\\/]${importer.split('/').map(escaped).join('[\\\\/]')}$`);
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        from.test(args.importer) ? { path: output, external: true } : undefined,
      );
    },
  };
}

/**
 * The CLI imports undici (proxy-agent.ts) only for a download through a proxy: in the bundle that import stays an
 * import of dist/cli-proxy-agent.js, so cli-main.js does not carry undici's 0.8 MB, which Node would compile at every
 * start of every command.
 */
const proxyAgentApart = keptApart(
  'proxy-agent-apart',
  './proxy-agent',
  'commands/proxy-fetch.ts',
  './cli-proxy-agent.js',
);

/**
 * The report renderer carries the chart library (ECharts, SVG only): imported by the CLI only when a report is
 * written, it stays dist/cli-report.js, so cli-main.js does not parse it at every start.
 */
const reportApart = keptApart('report-apart', '../report/render', 'commands/file.ts', './cli-report.js');

/**
 * The .xlsx reader (exceljs and its dependencies, about 2.4 MB) serves `datasets build --ceda` only: imported by
 * that command alone, it stays dist/cli-xlsx.js, so cli-main.js does not parse it at every start.
 */
const xlsxApart = keptApart('xlsx-apart', './xlsx-workbook', 'commands/datasets-ceda.ts', './cli-xlsx.js');

/**
 * The executable (launch.ts) starts a worker before it loads the CLI: its import of index.ts stays an import of
 * dist/cli-main.js, the CLI built as an entry of its own, so cli.js is only the few lines that start the worker.
 */
const cliMainApart = keptApart('cli-main-apart', './index', 'launch.ts', './cli-main.js');

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      billing: 'src/billing/index.ts',
      datasets: 'src/embedded/index.ts',
      'datasets-cloud': 'src/embedded/cloud.ts',
      // One table each, for cloudDatasetsWith: an app imports only the grid set (and instance table) it uses.
      'datasets-cloud-ccf-grid': 'src/embedded/ccf-grid.ts',
      'datasets-cloud-electricitymaps-grid': 'src/embedded/electricitymaps-grid.ts',
      'datasets-cloud-hosted-api-2021-grid': 'src/embedded/hosted-api-2021-grid.ts',
      'datasets-cloud-instances': 'src/embedded/cloud-instances.ts',
      'datasets-spend': 'src/embedded/spend.ts',
      http: 'src/http/index.ts',
      // Impact Framework plugins; @grnsft/if-core (their PluginFactory and error classes) stays an import, an
      // optional peer dependency that IF itself brings, so the plugins throw IF's own error classes.
      'impact-framework': 'src/impact-framework/index.ts',
      loaders: 'src/loaders/index.ts',
      node: 'src/node/index.ts',
      schemas: 'src/schemas.ts',
      // Kept apart and imported as `#fast-parse`, so package.json `imports` can give browsers their own build.
      'fast-parse': 'src/core/fast-parse.ts',
      'fast-parse.browser': 'src/core/fast-parse.browser.ts',
    },
    // The loaders' parsers (csv-parse for CSV, fflate for zips) and fastest-levenshtein ("did you mean") are bundled
    // so runtime deps stay zod and big.js.
    // zod is bundled too, tree-shaken to the parts the schemas use: Node loads one chunk instead of zod's dozens of
    // ESM files, which halves the root entry's import time (issue 13: cold start). The declarations still
    // reference zod/mini's types, so zod stays a dependency.
    noExternal: ['csv-parse', 'fflate', 'fastest-levenshtein', /^zod(\/|$)/],
    external: [/^@grnsft\/if-core(\/|$)/],
    // The data plugin first: it claims the dataset tables before jsonAsParse would inline them.
    esbuildPlugins: [externalDataModules, jsonAsParse, fastParseByCondition, lazyEmbeddedDatasets],
    // dist/data/: one module per table, with its licence at its head (scripts/data-files.ts).
    onSuccess: async () => {
      await writeDataModules();
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Keep the CLI, which the second config writes into the same folder at the same time.
    clean: [
      '!cli.js',
      '!cli.js.map',
      '!cli-main.js',
      '!cli-main.js.map',
      '!cli-worker.js',
      '!cli-worker.js.map',
      '!cli-proxy-agent.js',
      '!cli-proxy-agent.js.map',
      '!cli-report.js',
      '!cli-report.js.map',
      '!cli-xlsx.js',
      '!cli-xlsx.js.map',
    ],
    sourcemap: true,
    target: 'es2022',
    treeshake: true,
    splitting: true,
  },
  {
    // The `co2e-engine` executable: cli.js starts a file run's first worker, then imports cli-main.js, one ESM file
    // with the CLI's own dependencies bundled in, so the package's runtime dependencies stay zod and big.js.
    // The CLI's worker threads start cli-worker.js: the row pipeline without the command line, so they are ready
    // sooner (src/cli/worker.ts).
    entry: {
      cli: 'src/cli/launch.ts',
      'cli-main': 'src/cli/index.ts',
      'cli-worker': 'src/cli/worker.ts',
      'cli-proxy-agent': 'src/cli/commands/proxy-agent.ts',
      'cli-report': 'src/cli/report/render.ts',
      'cli-xlsx': 'src/cli/commands/xlsx-workbook.ts',
    },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [
      'commander',
      'csv-parse',
      'csv-stringify',
      'cli-progress',
      'fastest-levenshtein',
      'hyparquet',
      'hyparquet-writer',
      // datasets build --ceda: the workbook reader, in cli-xlsx.js (loaded only by that command).
      'exceljs',
      // datasets fetch: the proxy agent for HTTPS_PROXY, in cli-proxy-agent.js (loaded only when a proxy is set).
      'undici',
      // --report and `report`: the charts, in cli-report.js (loaded only when a report is written).
      'echarts',
      'zrender',
    ],
    // The tables stay in dist/data/ (imported by reference, each with its licence), as for the library entries.
    esbuildPlugins: [externalDataModules, jsonAsParse, proxyAgentApart, reportApart, xlsxApart, cliMainApart],
    banner: {
      // Bundled CommonJS (commander, cli-progress) calls require() for Node built-ins; give it a real one.
      js: "#!/usr/bin/env node\nimport { createRequire as __cliCreateRequire } from 'node:module';\nconst require = __cliCreateRequire(import.meta.url);",
    },
    dts: false,
    clean: false,
    sourcemap: true,
    splitting: false,
    treeshake: true,
  },
]);
