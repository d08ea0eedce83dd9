/**
 * Every embedded dataset table becomes its own module in the built package, `dist/data/<cloud|spend>/<name>.js`
 * (ESM) and `.cjs`, with the table's licence and attribution in a banner at its head, and every other build output
 * imports it by reference instead of inlining it. Share-alike and database licences (ODbL-1.0, CC BY-SA 4.0) apply
 * to a table and its adaptations: a table in a file of its own, under its own notice, stays separable from the MIT
 * code and from tables under other licences, in the package and, because the banner is a legal comment that
 * bundlers keep, in an app's bundle too. Used by tsup.config.ts (both builds) and scripts/build-udf.ts.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATASETS = join(ROOT, 'datasets');

/** The licence texts in `datasets/LICENSES/` (shipped in the package) for each `dataset.licence` id that has one. */
export const LICENCE_FILES: Readonly<Record<string, readonly string[]>> = {
  'Apache-2.0': ['datasets/LICENSES/Apache-2.0.txt', 'datasets/LICENSES/Apache-2.0-NOTICE.txt'],
  'CC-BY-4.0': ['datasets/LICENSES/CC-BY-4.0.txt'],
  'CC-BY-SA-4.0': ['datasets/LICENSES/CC-BY-SA-4.0.txt'],
  'ODbL-1.0': ['datasets/LICENSES/ODbL-1.0.txt'],
};

/** Licences whose terms reach adaptations of the table (share-alike) or that license a database as such. */
export const isShareAlikeOrDatabaseLicence = (licence: string): boolean =>
  /\bODbL\b|\bBY-SA\b/i.test(licence);

/** The header every table carries (`DatasetInfo` in src/datasets/tables.ts), as far as a banner needs it. */
export interface TableHeader {
  id: string;
  version: string;
  source_dataset: string;
  licence: string;
  attribution: string;
}

/** One embedded table: its file in the repository and its module in dist (without extension). */
export interface DataTable {
  /** `datasets/cloud/regions-electricitymaps.json` */
  json: string;
  /** `data/cloud/regions-electricitymaps`, relative to dist/ */
  module: string;
}

/** Every table in `datasets/cloud` and `datasets/spend`, sorted. */
export async function dataTables(): Promise<DataTable[]> {
  const tables: DataTable[] = [];
  for (const folder of ['cloud', 'spend']) {
    for (const file of (await readdir(join(DATASETS, folder)))
      .filter((name) => name.endsWith('.json'))
      .sort())
      tables.push({
        json: `datasets/${folder}/${file}`,
        module: `data/${folder}/${file.replace(/\.json$/, '')}`,
      });
  }
  return tables;
}

/** The dist module of a dataset JSON file given by any path (`/…/datasets/spend/fx-imf.json` → `data/spend/fx-imf`). */
export function dataModuleOf(path: string): string | undefined {
  const match = /(?:^|[\\/])datasets[\\/](cloud|spend)[\\/]([^\\/]+)\.json$/.exec(path);
  return match === null ? undefined : `data/${match[1]}/${match[2]}`;
}

// A comment must not end early, whatever the attribution says.
const commentSafe = (text: string) => text.replaceAll('*/', '* /').trim();

/**
 * The licence lines of one table, as the data module's banner and the UDF bundles' heads print them.
 *
 * @example
 * ```ts
 * tableNotice('datasets/cloud/regions-electricitymaps.json', header);
 * // ['Table datasets/cloud/regions-electricitymaps.json (electricitymaps-yearly 2021-2025@…)', 'Licence: ODbL-1.0 …', 'Attribution: …']
 * ```
 */
export function tableNotice(json: string, header: TableHeader): string[] {
  const texts = LICENCE_FILES[header.licence];
  return [
    `Table ${json} (dataset ${header.id} ${header.version}: ${commentSafe(header.source_dataset)})`,
    `Licence: ${commentSafe(header.licence)}${texts === undefined ? '' : ` (${texts.join(', ')} in the co2e-engine package)`}`,
    `Attribution: ${commentSafe(header.attribution)}`,
  ];
}

/** The banner at the head of a data module: a legal comment (`/*!`, `@license`), which bundlers keep. */
export function dataBanner(json: string, header: TableHeader): string {
  const lines = [
    `co2e-engine data table, a separate work from the code: the code's MIT licence does not apply to this table,`,
    `and the table's licence does not extend to the code.`,
    ...tableNotice(json, header),
    'Provenance and transformations: datasets/SOURCES.md in the co2e-engine package.',
    `@license ${commentSafe(header.licence)}`,
  ];
  return `/*!\n${lines.map((line) => ` * ${line}`).join('\n')}\n */\n`;
}

/** The text of a data module: banner, then the minified table as `JSON.parse('…')` (V8 parses that fastest). */
export function dataModuleText(json: string, text: string, format: 'esm' | 'cjs'): string {
  const table = JSON.parse(text) as { dataset: TableHeader };
  const literal = JSON.stringify(JSON.stringify(table));
  // CommonJS assigns module.exports, so esbuild's and Node's interop both see the table as the default export.
  const body =
    format === 'esm'
      ? `export default /* @__PURE__ */ JSON.parse(${literal});\n`
      : `'use strict';\nmodule.exports = JSON.parse(${literal});\n`;
  return dataBanner(json, table.dataset) + body;
}

/** Writes `dist/data/**\/*.js` and `.cjs`, one pair per table. */
export async function writeDataModules(outDir = join(ROOT, 'dist')): Promise<DataTable[]> {
  const tables = await dataTables();
  for (const { json, module } of tables) {
    const text = await readFile(join(ROOT, json), 'utf8');
    await mkdir(dirname(join(outDir, module)), { recursive: true });
    await writeFile(join(outDir, `${module}.js`), dataModuleText(json, text, 'esm'));
    await writeFile(join(outDir, `${module}.cjs`), dataModuleText(json, text, 'cjs'));
  }
  return tables;
}

/**
 * For tsup's builds (whose outputs all sit in dist/): a dataset JSON import becomes an external import of its data
 * module, `./data/cloud/instances.js` (`.cjs` in the CommonJS build), so no output inlines a table.
 */
export const externalDataModules: Plugin = {
  name: 'external-data-modules',
  setup(build) {
    // Not `format`: tsup builds split CommonJS as ESM and converts it after; the output extension tells them apart.
    const extension = build.initialOptions.outExtension?.['.js'] === '.cjs' ? 'cjs' : 'js';
    build.onResolve({ filter: /\.json$/ }, ({ path, resolveDir }) => {
      const module = dataModuleOf(resolve(resolveDir, path));
      if (module === undefined || !resolve(resolveDir, path).startsWith(DATASETS)) return undefined;
      return { path: `./${module}.${extension}`, external: true };
    });
  },
};

/** The repository-relative path of a dataset JSON file (for banners), from an absolute path. */
export const repoPath = (path: string): string => relative(ROOT, path).replace(/\\/g, '/');

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const tables = await writeDataModules();
  console.log(
    `dist/data: ${tables.length} tables, each in its own .js and .cjs module with its licence banner`,
  );
}
