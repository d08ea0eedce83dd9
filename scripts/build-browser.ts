/**
 * Builds dist/browser/: the ES modules that browser bundlers get (package.json `exports`, `import` → `browser`), one
 * module per source module, so an app's bundler drops every module the app does not use (package.json
 * `sideEffects: false`) as it does from the sources. The Node builds (tsup, `import` and `require`) merge modules
 * into shared chunks, which loads fast in Node but cannot be split by a bundler: with them every calculator carried
 * every other calculator's code (tests/bundle/budgets.json).
 *
 * Each module imports its neighbours by relative path (with `.js`), the dataset tables from dist/data/ (the same
 * modules, each with its licence banner, that the Node builds import), zod and big.js by name (the app's bundler
 * resolves them), and the request parser's browser build directly. The few bundled third-party modules
 * (fastest-levenshtein, csv-parse) are inlined into the one module that imports each. Run by `npm run build` after
 * tsup (which writes dist/data/).
 */
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { dataModuleOf } from './data-files';
import { jsonAsParse } from './json-as-parse';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'dist', 'browser');

/** The entries browser bundlers get from dist/browser/ (every subpath but `co2e-engine/node`). */
export const BROWSER_ENTRIES = [
  'src/index.ts',
  'src/billing/index.ts',
  'src/embedded/index.ts',
  'src/embedded/cloud.ts',
  'src/embedded/ccf-grid.ts',
  'src/embedded/electricitymaps-grid.ts',
  'src/embedded/hosted-api-2021-grid.ts',
  'src/embedded/cloud-instances.ts',
  'src/embedded/spend.ts',
  'src/http/index.ts',
  'src/loaders/index.ts',
  'src/schemas.ts',
] as const;

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The source file a relative specifier names (`./cpu` → `…/cpu.ts`, `./fetch` → `…/fetch/index.ts`). */
function sourceOf(specifier: string, resolveDir: string): { path: string; specifier: string } | undefined {
  const base = resolve(resolveDir, specifier);
  if (isFile(`${base}.ts`)) return { path: `${base}.ts`, specifier: `${specifier}.js` };
  if (isFile(join(base, 'index.ts')))
    return { path: join(base, 'index.ts'), specifier: `${specifier}/index.js` };
  return undefined;
}

/** The output module of a source file, relative to dist/browser/. */
const outputOf = (source: string) => relative(SRC, source).replace(/\.ts$/, '.js');

/**
 * `collect`: every source module stays in (to find which ones the entries reach). Otherwise: every import of
 * another source module, of a dataset table, of zod or big.js stays an import (one output module per source module).
 */
function perModule(mode: 'collect' | 'emit'): Plugin {
  return {
    name: 'per-module',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^(zod|big\.js)(\/|$)/ }, ({ path }) => ({ path, external: true }));
      // The request parser without zod's compiler, as package.json `imports` gives browsers `#fast-parse`.
      pluginBuild.onResolve({ filter: /^\.\/fast-parse$/ }, ({ resolveDir }) =>
        mode === 'collect'
          ? { path: join(resolveDir, 'fast-parse.browser.ts') }
          : { path: './fast-parse.browser.js', external: true },
      );
      pluginBuild.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir, importer, kind }) => {
        if (kind === 'entry-point') return undefined;
        const absolute = resolve(resolveDir, path);
        const table = dataModuleOf(absolute);
        if (table !== undefined && absolute.startsWith(join(ROOT, 'datasets'))) {
          const from = dirname(join(OUT, outputOf(importer)));
          const target = join(ROOT, 'dist', `${table}.js`);
          return { path: relative(from, target).replace(/\\/g, '/'), external: true };
        }
        if (mode === 'collect' || !importer.startsWith(SRC)) return undefined;
        const source = sourceOf(path, resolveDir);
        if (source === undefined || !source.path.startsWith(SRC)) return undefined;
        return { path: source.specifier, external: true };
      });
    },
  };
}

const common = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  treeShaking: true,
  logLevel: 'warning',
  absWorkingDir: ROOT,
} as const;

/** The source modules the browser entries reach. */
async function reachedModules(): Promise<string[]> {
  const result = await build({
    ...common,
    entryPoints: [...BROWSER_ENTRIES],
    outdir: join(ROOT, 'dist', 'browser-scan'),
    splitting: true,
    write: false,
    metafile: true,
    plugins: [perModule('collect'), jsonAsParse],
  });
  return Object.keys(result.metafile.inputs)
    .filter((input) => input.startsWith('src/') && input.endsWith('.ts'))
    .sort();
}

/** Writes dist/browser/; returns the modules written, relative to it. */
export async function buildBrowser(): Promise<string[]> {
  const modules = await reachedModules();
  await rm(OUT, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: modules,
    outbase: 'src',
    outdir: OUT,
    sourcemap: true,
    // Keeps the `@__PURE__` annotations and names readable for the app's own minifier.
    minify: false,
    plugins: [perModule('emit'), jsonAsParse],
  });
  return modules.map((module) => outputOf(join(ROOT, module)));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await buildBrowser();
  console.log(`dist/browser: ${written.length} modules, one per source module`);
}
