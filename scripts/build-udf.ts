/**
 * Builds the warehouse UDF bundles into dist/udf/ (run by `npm run build` after tsup): each one plain script, no
 * imports, no Node or browser APIs, that declares the global `co2e` with `co2e.cloud(calculator, provider, request)`
 * and/or `co2e.spend(request)`. tests/udf builds the same bundles with {@link buildUdfBundle} and runs them in a
 * bare `node:vm` context; docs/warehouses.md loads them into BigQuery and Snowflake.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The bundles by file name: which entry, and what its tables are. */
export const UDF_BUNDLES = {
  'co2e-udf.js': { entry: 'src/udf/bundle-all.ts', tables: 'all default cloud and spend tables' },
  'co2e-udf-cloud.js': { entry: 'src/udf/bundle-cloud.ts', tables: 'the default cloud tables' },
  'co2e-udf-spend.js': { entry: 'src/udf/bundle-spend.ts', tables: 'the default spend tables' },
} as const;

export type UdfBundleName = keyof typeof UDF_BUNDLES;

/** Tables as `JSON.parse('…')`, which V8 parses faster than an object literal (as in tsup.config.ts). */
const jsonAsParse: Plugin = {
  name: 'json-as-parse',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.json$/ }, async ({ path }) => {
      const minified = JSON.stringify(JSON.parse(await readFile(path, 'utf8')));
      return { contents: `export default JSON.parse(${JSON.stringify(minified)});`, loader: 'js' };
    });
  },
};

async function packageVersion(): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The text of one UDF bundle: an ES2020 script (no `import`, no `export`) declaring `var co2e`.
 *
 * @example
 * ```ts
 * const code = await buildUdfBundle('co2e-udf-cloud.js');
 * vm.runInContext(code, vm.createContext()); // then co2e.cloud('cpu', 'aws', {...}) in that context
 * ```
 */
export async function buildUdfBundle(name: UdfBundleName): Promise<string> {
  const { entry, tables } = UDF_BUNDLES[name];
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    minify: true,
    treeShaking: true,
    // Neither Node nor browser: any Node built-in import fails the build, and no browser globals are assumed.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'iife',
    globalName: 'co2e',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
    plugins: [jsonAsParse],
    banner: {
      js:
        `/* co2e-engine ${await packageVersion()} warehouse UDF bundle (${name}): ${tables}. Code MIT; the ` +
        'embedded tables keep their own licences (Apache-2.0 CCF, ODbL-1.0 Electricity Maps, CC BY-SA 4.0 ' +
        'EXIOBASE via OEFDB, CC BY 4.0 World Bank, IMF terms): see datasets/SOURCES.md in the package. */',
    },
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no output for ${name}`);
  return output.text;
}

/** Writes every bundle into `outDir` (default dist/udf). */
export async function writeUdfBundles(outDir = join(ROOT, 'dist', 'udf')): Promise<void> {
  for (const name of Object.keys(UDF_BUNDLES) as UdfBundleName[]) {
    const path = join(outDir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, await buildUdfBundle(name));
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeUdfBundles();
}
