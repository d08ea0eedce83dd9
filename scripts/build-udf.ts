/**
 * Builds the warehouse UDF bundles into dist/udf/ (run by `npm run build` after tsup): each one plain script, no
 * imports, no Node or browser APIs, that declares the global `co2e` with `co2e.cloud(calculator, provider, request)`
 * and/or `co2e.spend(request)`. tests/udf builds the same bundles with {@link buildUdfBundle} and runs them in a
 * bare `node:vm` context; docs/warehouses.md loads them into BigQuery and Snowflake.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { dataModuleOf, repoPath, type TableHeader, tableNotice } from './data-files';
import { jsonAsParse } from './json-as-parse';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The bundles by file name: which entry, and what its tables are. */
export const UDF_BUNDLES = {
  'co2e-udf.js': { entry: 'src/udf/bundle-all.ts', tables: 'all default cloud and spend tables' },
  'co2e-udf-cloud.js': { entry: 'src/udf/bundle-cloud.ts', tables: 'the default cloud tables' },
  'co2e-udf-spend.js': { entry: 'src/udf/bundle-spend.ts', tables: 'the default spend tables' },
} as const;

export type UdfBundleName = keyof typeof UDF_BUNDLES;

/**
 * BigQuery takes a JavaScript library file of at most 1 MB (its quotas page; up to 50 files a query). The
 * `-split` form of a bundle keeps its code in one file and puts each dataset table in a file of its own, loaded
 * first, which defines the table on the global `__co2e_tables`; the code reads it from there.
 */
export const MAX_LIBRARY_FILE_BYTES = 1_000_000;

const TABLES_GLOBAL = '__co2e_tables';

/** The table name of a dataset file: `datasets/spend/fx-imf.json` → `spend-fx-imf`. */
const tableName = (path: string) =>
  path
    .replace(/\\/g, '/')
    .replace(/^.*\/datasets\//, '')
    .replace(/\.json$/, '')
    .replace(/[^a-z0-9]+/gi, '-');

/** Dataset JSON read from the global the table files fill; collects each table's text for its own file. */
function tablesFromGlobal(tables: Map<string, string>): Plugin {
  return {
    name: 'tables-from-global',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.json$/ }, async ({ path }) => {
        const name = tableName(path);
        tables.set(path, JSON.stringify(JSON.parse(await readFile(path, 'utf8'))));
        const missing = `co2e-engine: load the library file with the table '${name}' before this one.`;
        return {
          // A pure call, so a table the entry does not use is dropped with its import.
          contents:
            'function read() {\n' +
            `  const table = typeof ${TABLES_GLOBAL} === 'object' ? ${TABLES_GLOBAL}[${JSON.stringify(name)}] : undefined;\n` +
            `  if (table === undefined) throw new Error(${JSON.stringify(missing)});\n` +
            '  return table;\n' +
            '}\n' +
            'export default /* @__PURE__ */ read();',
          loader: 'js',
        };
      });
    },
  };
}

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
  return (await buildBundle(name, [jsonAsParse])).code;
}

/**
 * The `-split` form of a UDF bundle, for BigQuery's 1 MB file limit: the code, and one script per table
 * (`co2e-udf-spend.table-spend-fx-imf.js`, …), each to be loaded before the code.
 *
 * @example
 * ```ts
 * const { code, tables } = await buildSplitUdfBundle('co2e-udf-spend.js');
 * for (const text of Object.values(tables)) vm.runInContext(text, realm);
 * vm.runInContext(code, realm);
 * ```
 */
export async function buildSplitUdfBundle(
  name: UdfBundleName,
): Promise<{ code: string; tables: Record<string, string> }> {
  const collected = new Map<string, string>();
  const { code, inputs, notices } = await buildBundle(name, [tablesFromGlobal(collected)]);
  const tables: Record<string, string> = {};
  const used = [...collected]
    .filter(([path]) => inputs.has(path))
    .map(([path, json]) => [tableName(path), json, notices.get(path) ?? []] as const);
  for (const [table, json, notice] of used.sort(([a], [b]) => a.localeCompare(b))) {
    // Each table file carries its own table's licence and attribution only.
    const head = comment([
      [`co2e-engine ${await packageVersion()} table file of ${name} (BigQuery split form).`],
      notice,
    ]);
    tables[`${name.replace(/\.js$/, '')}.table-${table}.js`] =
      `${head}\nvar ${TABLES_GLOBAL} = typeof ${TABLES_GLOBAL} === 'object' ? ${TABLES_GLOBAL} : {};\n` +
      `${TABLES_GLOBAL}[${JSON.stringify(table)}] = JSON.parse(${JSON.stringify(json)});\n`;
  }
  return { code, tables };
}

/** The notices of the dataset tables among `inputs` (absolute paths), in path order. */
async function tableNotices(inputs: Set<string>): Promise<Array<{ path: string; notice: string[] }>> {
  const tables = [...inputs].filter((path) => dataModuleOf(path) !== undefined).sort();
  return Promise.all(
    tables.map(async (path) => {
      const { dataset } = JSON.parse(await readFile(path, 'utf8')) as { dataset: TableHeader };
      return { path, notice: tableNotice(repoPath(path), dataset) };
    }),
  );
}

/** A legal comment (`/*!`, kept by minifiers) of `lines`, a blank line between groups. */
const comment = (groups: string[][]) =>
  `/*!\n${groups.map((lines) => lines.map((line) => ` * ${line}`).join('\n')).join('\n *\n')}\n */`;

async function buildBundle(
  name: UdfBundleName,
  plugins: Plugin[],
): Promise<{ code: string; inputs: Set<string>; notices: Map<string, string[]> }> {
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
    plugins,
    metafile: true,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no output for ${name}`);
  // The absolute paths of the inputs that reached the output (esbuild names them relative to the working folder).
  const inputs = new Set(
    Object.values(result.metafile.outputs).flatMap((out) =>
      Object.entries(out.inputs)
        .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
        .map(([input]) => resolve(input)),
    ),
  );
  // The head names every table the bundle embeds, with its licence and attribution, taken from the table itself,
  // so publishing the bundle (or results from it) starts from the terms that apply.
  const notices = await tableNotices(inputs);
  const banner = comment([
    [
      `co2e-engine ${await packageVersion()} warehouse UDF bundle (${name}): ${tables}.`,
      'The code is MIT (LICENSE in the co2e-engine package). Each table below keeps its own licence, which applies to',
      'the table and to data adapted from it, not to the code; provenance in datasets/SOURCES.md in the package.',
    ],
    ...notices.map(({ notice }) => notice),
  ]);
  return {
    code: `${banner}\n${output.text}`,
    inputs,
    notices: new Map(notices.map(({ path, notice }) => [path, notice])),
  };
}

/** Writes every bundle into `outDir` (default dist/udf), and the split form of those over 1 MB into `bigquery/`. */
export async function writeUdfBundles(outDir = join(ROOT, 'dist', 'udf')): Promise<void> {
  await mkdir(join(outDir, 'bigquery'), { recursive: true });
  for (const name of Object.keys(UDF_BUNDLES) as UdfBundleName[]) {
    const code = await buildUdfBundle(name);
    await writeFile(join(outDir, name), code);
    if (Buffer.byteLength(code) <= MAX_LIBRARY_FILE_BYTES) continue;
    const split = await buildSplitUdfBundle(name);
    await writeFile(join(outDir, 'bigquery', name), split.code);
    for (const [file, text] of Object.entries(split.tables))
      await writeFile(join(outDir, 'bigquery', file), text);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeUdfBundles();
}
