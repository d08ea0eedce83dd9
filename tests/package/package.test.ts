import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { build } from 'esbuild';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isShareAlikeOrDatabaseLicence } from '../../scripts/data-files';
import { packRecords } from '../../src/cli/pipeline/packed-records';
import { startConnectProxy, startFakeServer } from '../fetch/server';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';

/**
 * The package as a user gets it: `npm pack`, installed from the tarball into a fresh project (zod and big.js come
 * from the registry or npm's cache), then imported from ESM, CommonJS and TypeScript, and linted by publint and
 * are-the-types-wrong. Run with `npm run test:package` after `npm run build`.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');
const KEEP = process.env.KEEP_PACKAGE_TEST_DIR === '1';

interface PackageJson {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
}
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const NAME = packageJson.name;
/** Every import specifier the exports map offers (`co2e-engine`, `co2e-engine/datasets`, …). */
const SPECIFIERS = Object.keys(packageJson.exports)
  .filter((subpath) => !subpath.endsWith('.json')) // package.json, openapi.json: data, not modules
  .map((subpath) => (subpath === '.' ? NAME : `${NAME}/${subpath.slice(2)}`));
/**
 * The entries a consumer without optional peers can load: `co2e-engine/impact-framework` needs `@grnsft/if-core`,
 * which the Impact Framework brings (tests/package/impact-framework.test.ts loads it there).
 */
const LOADABLE = SPECIFIERS.filter((specifier) => specifier !== `${NAME}/impact-framework`);

if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
  throw new Error('The package test packs the built package; run `npm run build` first.');
}

let workDir: string;
let project: string;
let tarball: string;
let packedFiles: string[];

async function exec(command: string, args: string[], cwd: string) {
  try {
    return await run(command, args, {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`,
    );
  }
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'co2e-engine-package-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', workDir], ROOT);
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  tarball = join(workDir, packed.filename);
  packedFiles = packed.files.map((file) => file.path).sort();

  project = join(workDir, 'consumer');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // The registry when reachable, npm's cache first: zod and big.js are the only dependencies to fetch.
  await exec(
    'npm',
    ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--package-lock=false'],
    project,
  );
}, 300_000);

afterAll(() => {
  if (workDir !== undefined && !KEEP) rmSync(workDir, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the build, the licences and the data notes, and no sources or tests', () => {
    for (const file of [
      'package.json',
      'LICENSE',
      'README.md',
      'datasets/SOURCES.md',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/datasets.js',
      'dist/datasets.cjs',
      'openapi.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    expect(packedFiles.some((file) => file.startsWith('datasets/LICENSES/'))).toBe(true);
    expect(
      packedFiles.filter((file) => /^(src|tests|scripts|bench)\//.test(file) || file.endsWith('.tgz')),
    ).toEqual([]);
    expect(packedFiles.filter((file) => /^datasets\/.*\.json$/.test(file))).toEqual([]);
  });

  it('ships the OpenAPI document as co2e-engine/openapi.json', () => {
    const resolved = JSON.parse(
      readFileSync(join(project, 'node_modules', NAME, 'openapi.json'), 'utf8'),
    ) as {
      openapi: string;
    };
    expect(resolved.openapi).toBe('3.1.0');
  });

  it('installs with zod and big.js as its only dependencies', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', NAME, 'package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(installed.dependencies).sort()).toEqual(['big.js', 'zod']);
    expect(existsSync(join(project, 'node_modules', 'zod', 'package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'big.js', 'package.json'))).toBe(true);
  });
});

// DESIGN.md's check value: AWS t2.micro (1 vCPU, 1 GiB), 1 h, u 0.5:
//   CPU    1 × (0.74 + 0.5 × (3.5 − 0.74)) W × 1.135 PUE / 1000 = 2.12 × 1.135 / 1000 = 0.0024062 kWh
//   memory 1 GiB × 1.073741824 GB/GiB × 0.000392 kWh/GB-h × 1.135 = 1.073741824 × 0.00044492 = 0.00047772921233408 kWh
const CHECK_REQUEST = `{ instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' }`;
const CHECK_VALUES = { energy_used_cpu: 0.0024062, energy_used_memory: 0.00047772921233408 };

/** Prints every specifier's export names and the check estimate as JSON, loaded by `load` (import or require). */
const consumerScript = (load: (specifier: string) => string, header = '') => `${header}
const exportsBySpecifier = {};
${LOADABLE.map((specifier) => `exportsBySpecifier[${JSON.stringify(specifier)}] = Object.keys(${load(specifier)}).filter((key) => key !== 'default' && key !== 'module.exports').sort();`).join('\n')}
const { calculateInstance, calculateCpuBatch, EmissionsError } = ${load(NAME)};
const { defaultDatasets } = ${load(`${NAME}/datasets`)};
const vm = calculateInstance('aws', ${CHECK_REQUEST}, defaultDatasets);
let thrown;
try { calculateInstance('aws', { instance: 'nope', region: 'us_east_1', duration: 1 }, defaultDatasets); } catch (error) { thrown = { isEmissionsError: error instanceof EmissionsError, code: error.error_code }; }
const batch = calculateCpuBatch('aws', [{ cpu_count: 1, region: 'us_east_1', duration: 1 }, { cpu_count: -1 }], defaultDatasets);
console.log(JSON.stringify({ exportsBySpecifier, details: vm.calculation_details, thrown, batch }));
`;

async function runConsumer(file: string, source: string) {
  writeFileSync(join(project, file), source);
  const { stdout } = await exec(process.execPath, [file], project);
  return JSON.parse(stdout) as {
    exportsBySpecifier: Record<string, string[]>;
    details: Record<string, unknown>;
    thrown: unknown;
    batch: Array<Record<string, unknown>>;
  };
}

// --- Licences that survive bundling (issue 11 item 4) -------------------------------------------------------------

interface TableJson {
  dataset: { id: string; licence: string; attribution: string };
  [rows: string]: unknown;
}

/** Every embedded table of the repository, with its header. */
const TABLES = ['cloud', 'spend'].flatMap((folder) =>
  readdirSync(join(ROOT, 'datasets', folder))
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const json = `datasets/${folder}/${file}`;
      const table = JSON.parse(readFileSync(join(ROOT, json), 'utf8')) as TableJson;
      return { json, module: `dist/data/${folder}/${file.replace(/\.json$/, '')}`, table };
    }),
);
const SHARE_ALIKE_OR_DATABASE = TABLES.filter(({ table }) =>
  isShareAlikeOrDatabaseLicence(table.dataset.licence),
);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A decimal as a whole number, with or without the leading `0` a minifier drops. */
const numberPattern = (decimal: string) =>
  `(?:^|[^\\d])${decimal.startsWith('0.') ? `0?${escape(decimal.slice(1))}` : escape(decimal)}(?!\\d)`;

/**
 * Patterns that only this table's data matches, in any JavaScript spelling of it (a JSON string, an object literal,
 * minified): long decimal fractions (a minifier drops the leading `0`), plain strings (nothing a string literal
 * would escape), and the first two decimals of a row near each other; sampled evenly across the rows (not the
 * header), leaving out any that another table also matches.
 */
function needlesOf(json: string, table: TableJson): RegExp[] {
  const numbers = new Set<string>();
  const strings = new Set<string>();
  const pairs = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'number') {
      if (/\.\d{6,}$/.test(String(value))) numbers.add(numberPattern(String(value)));
    } else if (typeof value === 'string') {
      if (value.length >= 16 && /^[\w .,;:()/@+-]+$/.test(value)) strings.add(escape(value));
    } else if (Array.isArray(value)) {
      // A row of a grid (CEDA's factors) or a list of codes (a concordance): its first four values in order (in a
      // data module the quotes of a string are escaped, so strings are joined by any short run of non-word text).
      const head = value.slice(0, 4);
      if (head.length >= 2 && head.every((item) => typeof item === 'number' && !Number.isInteger(item)))
        pairs.add(head.map((item) => numberPattern(String(item))).join(''));
      else if (head.length >= 3 && head.every((item) => typeof item === 'string' && /^\w+$/.test(item)))
        pairs.add(head.map((item) => escape(String(item))).join('\\W{1,6}'));
      value.forEach(walk);
    } else if (typeof value === 'object' && value !== null) {
      // The first two decimal values in it, nested ones included (`kgco2e` and `kgco2e_alt.ar4`).
      const [first, second] = JSON.stringify(value).match(/(?<=[:,[])\d+\.\d{3,}(?=[,}\]])/g) ?? [];
      if (first !== undefined && second !== undefined)
        pairs.add(`${numberPattern(first)}[^\\n]{0,200}?${numberPattern(second)}`);
      Object.values(value).forEach(walk);
    }
  };
  for (const [key, value] of Object.entries(table)) if (key !== 'dataset') walk(value);
  // Minified, as the data modules hold them.
  const others = TABLES.filter((entry) => entry.json !== json).map((entry) => JSON.stringify(entry.table));
  const spread = <T>(values: T[], count: number): T[] =>
    values.length <= count
      ? values
      : Array.from({ length: count }, (_, index) => values[Math.floor((index * values.length) / count)] as T);
  // Sample first, then keep the patterns no other table matches (testing every row would take minutes).
  const unique = (patterns: Set<string>, count: number) =>
    spread(
      spread([...patterns], count * 4)
        .map((pattern) => new RegExp(pattern))
        .filter((pattern) => !others.some((text) => pattern.test(text))),
      count,
    );
  return [...unique(numbers, 3), ...unique(strings, 4), ...unique(pairs, 6)];
}

describe('licences that survive bundling: each share-alike or database-licensed table in its own file', () => {
  const installed = (file: string) => readFileSync(join(project, 'node_modules', NAME, file), 'utf8');
  const distFiles = () => packedFiles.filter((file) => file.startsWith('dist/'));

  it('the tables under share-alike or database licences are the expected ones (control)', () => {
    expect(SHARE_ALIKE_OR_DATABASE.map(({ json }) => json).sort()).toEqual([
      'datasets/cloud/regions-electricitymaps.json',
      'datasets/cloud/regions-hosted-api-2021.json',
      'datasets/spend/ceda-classifications.json',
      'datasets/spend/ceda-factors.json',
      'datasets/spend/exiobase-classifications.json',
      'datasets/spend/exiobase-factors.oefdb-regions.json',
      'datasets/spend/exiobase-factors.oefdb.json',
    ]);
  });

  it.each(TABLES.map((entry) => [entry.json, entry] as const))(
    '%s is its own .js and .cjs module, headed by its licence and attribution',
    (_json, { json, module, table }) => {
      for (const file of [`${module}.js`, `${module}.cjs`]) {
        expect(packedFiles).toContain(file);
        const text = installed(file);
        const head = text.slice(0, text.indexOf('*/'));
        expect(head.startsWith('/*!'), file).toBe(true);
        expect(head).toContain(` * Table ${json} (dataset ${table.dataset.id} `);
        expect(head).toContain(` * Licence: ${table.dataset.licence}`);
        expect(head).toContain(` * Attribution: ${table.dataset.attribution.trim()}`);
        expect(head).toContain(`@license ${table.dataset.licence}`);
        // The licence text it names ships in the package.
        for (const licenceFile of head.match(/datasets\/LICENSES\/[\w.-]+\.txt/g) ?? [])
          expect(packedFiles).toContain(licenceFile);
      }
    },
  );

  it.each(SHARE_ALIKE_OR_DATABASE.map((entry) => [entry.json, entry] as const))(
    '%s: no other file of dist/ holds its data, except UDF bundles that name it at their head',
    (_json, { json, module, table }) => {
      const needles = needlesOf(json, table);
      expect(needles.length).toBeGreaterThanOrEqual(4);
      const own = installed(`${module}.js`);
      for (const needle of needles) expect(own, `control: ${needle}`).toMatch(needle);
      for (const file of distFiles().filter((name) => !name.startsWith(`${module}.`))) {
        const text = installed(file);
        const found = needles.filter((needle) => needle.test(text));
        if (!file.startsWith('dist/udf/')) {
          expect(found, file).toEqual([]);
        } else if (found.length > 0) {
          // A UDF bundle is one self-contained script by design (warehouses load no modules): it must head with
          // the table's notice instead.
          expect(text.slice(0, text.indexOf('*/')), file).toContain(
            ` * Attribution: ${table.dataset.attribution.trim()}`,
          );
        }
      }
    },
  );

  it('the datasets entries and the CLI import the data modules by reference', () => {
    // The CLI is dist/cli-main.js; dist/cli.js, the executable, only starts a worker and imports it (launch.ts).
    expect(installed('dist/cli-main.js')).toMatch(
      /from ['"]\.\/data\/cloud\/regions-electricitymaps\.js['"]/,
    );
    expect(installed('dist/cli-main.js')).toMatch(
      /from ['"]\.\/data\/spend\/exiobase-factors\.oefdb\.js['"]/,
    );
    expect(installed('dist/cli.js')).toMatch(/await import\(['"]\.\/cli-main\.js['"]\)/);
    expect(installed('dist/cli.js')).not.toMatch(/\.\/data\//);
    const cjs = distFiles()
      .filter((file) => file.endsWith('.cjs') && !file.startsWith('dist/data/'))
      .map(installed)
      .join('\n');
    expect(cjs).toMatch(/require\(["']\.\/data\/cloud\/regions-electricitymaps\.cjs["']\)/);
    // CommonJS requires the CommonJS data modules only (require() of an ES module needs Node 20.19 or later).
    expect(cjs).not.toMatch(/require\(["']\.\/data\/[^"']*\.js["']\)/);
  });
});

describe("an app's bundle of the installed package (esbuild, as a browser app)", () => {
  async function bundleApp(source: string): Promise<string> {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: source, resolveDir: project, loader: 'js' },
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]?.text ?? '';
  }
  const header = (json: string) =>
    (TABLES.find((entry) => entry.json === json) as (typeof TABLES)[number]).table;

  it('keeps the licence and attribution of every table it ships (legal comments survive minifying)', async () => {
    const code = await bundleApp(
      `import { calculateCpu } from '${NAME}'; import { cloudDatasets } from '${NAME}/datasets/cloud';
       export const estimate = (request) => calculateCpu('aws', request, cloudDatasets);`,
    );
    for (const json of ['datasets/cloud/regions-electricitymaps.json', 'datasets/cloud/instances.json'])
      expect(code).toContain(`Attribution: ${header(json).dataset.attribution.trim()}`);
  });

  it('takes only the grid set it imports, and no instance table for calculateCpu', async () => {
    const code = await bundleApp(
      `import { calculateCpu } from '${NAME}'; import { cloudDatasetsWith } from '${NAME}/datasets/cloud';
       import { ccfGridRegionsTable } from '${NAME}/datasets/cloud/ccf-grid';
       const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable });
       export const estimate = (request) => calculateCpu('aws', request, datasets);`,
    );
    expect(code).toContain('ccf-grid-2024');
    expect(code).toContain(
      `Attribution: ${header('datasets/cloud/regions-ccf.json').dataset.attribution.trim()}`,
    );
    for (const absent of [
      'electricitymaps-yearly',
      'ccf-coefficients-instances',
      't2.micro',
      'hosted-api-2021',
    ])
      expect(code).not.toContain(absent);
  });
});

describe('loading the installed package', () => {
  it('works from ESM (.mjs, import) and CommonJS (.cjs, require) alike, with the same exports and results', async () => {
    const esm = await runConsumer(
      'consumer.mjs',
      consumerScript((specifier) => `(await import(${JSON.stringify(specifier)}))`),
    );
    const cjs = await runConsumer(
      'consumer.cjs',
      consumerScript((specifier) => `require(${JSON.stringify(specifier)})`),
    );

    expect(esm.details).toMatchObject(CHECK_VALUES);
    expect(esm.thrown).toEqual({ isEmissionsError: true, code: 'unknown_instance' });
    expect(esm.batch[1]).toMatchObject({ error_code: 'invalid_request', path: 'requests[1].cpu_count' });
    expect(Object.keys(esm.exportsBySpecifier)).toEqual(LOADABLE);
    for (const specifier of LOADABLE)
      expect(esm.exportsBySpecifier[specifier]?.length, specifier).toBeGreaterThan(0);
    // The root entry holds what an app calls (CONTRIBUTING.md "Names"; the list: tests/architecture/entries.test.ts).
    expect(esm.exportsBySpecifier[NAME]!.length).toBeLessThanOrEqual(30);
    expect(cjs).toStrictEqual(esm);
  });

  it('co2e-engine/node loads no embedded table on import, only on the first loadDatasets call (ESM and CommonJS)', async () => {
    // ES modules: a load hook logs every module Node loads, in the order it loads them.
    const log = join(project, 'loaded-modules.log');
    writeFileSync(
      join(project, 'log-hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\n` +
        `export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
    );
    writeFileSync(
      join(project, 'log-register.mjs'),
      "import { register } from 'node:module';\nregister('./log-hooks.mjs', import.meta.url);\n",
    );
    writeFileSync(
      join(project, 'node-entry.mjs'),
      `import { appendFileSync } from 'node:fs';\n` +
        `const node = await import('${NAME}/node');\n` +
        `appendFileSync(${JSON.stringify(log)}, 'IMPORTED\\n');\n` +
        `const datasets = node.loadDatasets(['useeio']);\n` +
        `const { calculateCpu } = await import('${NAME}');\n` +
        `const { defaultDatasets } = await import('${NAME}/datasets');\n` +
        `console.log(JSON.stringify({ co2e: calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, datasets).co2e,` +
        ` sameInstance: datasets.cloudRegions === defaultDatasets.cloudRegions }));\n`,
    );
    rmSync(log, { force: true });
    const esm = await exec(process.execPath, ['--import', './log-register.mjs', 'node-entry.mjs'], project);
    const loaded = readFileSync(log, 'utf8').trim().split('\n');
    const imported = loaded.indexOf('IMPORTED');
    const isTable = (url: string) => /\/dist\/data\//.test(url);
    expect(imported).toBeGreaterThan(0);
    expect(loaded.slice(0, imported).filter((url) => url.includes(`/${NAME}/dist/node`)).length).toBe(1);
    expect(loaded.slice(0, imported).filter(isTable)).toEqual([]);
    // The first call loads them (Node's require of an ES module, which load hooks do not see), as the same module
    // instances a later import of the datasets entry gets.
    expect(JSON.parse(esm.stdout)).toEqual({ co2e: 0.0010442908, sameInstance: true });
    // Control: the hook sees the tables when an entry imports them.
    writeFileSync(join(project, 'datasets-entry.mjs'), `await import('${NAME}/datasets');\n`);
    rmSync(log, { force: true });
    await exec(process.execPath, ['--import', './log-register.mjs', 'datasets-entry.mjs'], project);
    expect(readFileSync(log, 'utf8').trim().split('\n').filter(isTable).length).toBeGreaterThan(5);

    // CommonJS: require.cache holds every module loaded.
    const cjs = await exec(
      process.execPath,
      [
        '--input-type=commonjs',
        '-e',
        `const tables = () => Object.keys(require.cache).filter((file) => /[\\\\/]dist[\\\\/]data[\\\\/]/.test(file)).length;
         const node = require('${NAME}/node');
         const onImport = tables();
         const datasets = node.loadDatasets([]);
         const { calculateCpu } = require('${NAME}');
         console.log(JSON.stringify({ onImport, afterUse: tables(),
           co2e: calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, datasets).co2e }));`,
      ],
      project,
    );
    const cjsResult = JSON.parse(cjs.stdout) as { onImport: number; afterUse: number; co2e: number };
    expect(cjsResult.onImport).toBe(0);
    expect(cjsResult.afterUse).toBeGreaterThan(5);
    expect(cjsResult.co2e).toBe(0.0010442908);
  });

  it('gives ES module imports in browser bundles the per-module build, and keeps require() on CommonJS', () => {
    // Under `import` only: a browser-condition resolver that requires (Jest's jsdom environment) keeps the .cjs.
    const exportsMap = packageJson.exports as Record<
      string,
      { import?: { browser?: string }; require?: { default?: string } }
    >;
    // Node-only entries: co2e-engine/node (files) and co2e-engine/impact-framework (IF runs in Node).
    const nodeOnly = ['./node', './impact-framework'];
    for (const [subpath, target] of Object.entries(exportsMap)) {
      if (typeof target !== 'object' || nodeOnly.includes(subpath)) continue;
      const browserFile = target.import?.browser;
      expect(browserFile, subpath).toMatch(/^\.\/dist\/browser\/.+\.js$/);
      expect(packedFiles, subpath).toContain((browserFile as string).slice(2));
      expect(target.require?.default, subpath).toMatch(/\.cjs$/);
      expect(Object.keys(target), subpath).not.toContain('browser');
    }
    for (const subpath of nodeOnly) expect(exportsMap[subpath]?.import?.browser).toBeUndefined();
  });

  it('offers the package.json subpath', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['--input-type=commonjs', '-e', `console.log(require('${NAME}/package.json').version)`],
      project,
    );
    expect(stdout.trim()).toBe(packageJson.version);
  });

  it("gives browser bundlers the request parser without zod's compiler, and Node the compiled one", async () => {
    const entry = join(project, 'browser-app.mjs');
    writeFileSync(
      entry,
      `import { calculateCpu } from '${NAME}';\nimport { cloudDatasets } from '${NAME}/datasets/cloud';\n` +
        "console.log(calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, cloudDatasets).co2e);\n",
    );
    const bundleFor = async (platform: 'browser' | 'node') => {
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        platform,
        format: 'esm',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      // The modules that put code in the bundle (a module tree-shaken away has 0 bytes there).
      const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
        Object.entries(output.inputs)
          .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
          .map(([input]) => input),
      );
      return { inputs, code: result.outputFiles[0]?.text ?? '' };
    };
    const browser = await bundleFor('browser');
    const node = await bundleFor('node');
    // Browsers get dist/browser/ (one module per source module), whose parser is the plain one; Node gets the
    // `#fast-parse` import of the chunked build, resolved to zod's compiler.
    expect(browser.inputs.some((input) => input.endsWith('dist/browser/core/fast-parse.browser.js'))).toBe(
      true,
    );
    expect(browser.inputs.some((input) => /dist\/chunk-|dist\/index\.js$/.test(input))).toBe(false);
    expect(node.inputs.some((input) => input.endsWith('dist/fast-parse.js'))).toBe(true);
    // zod's compiler, named by its error class, reaches only the Node bundle.
    expect(browser.code).not.toContain('ZodCompileUnsupportedError');
    expect(node.code).toContain('ZodCompileUnsupportedError');
    // Both builds compute the same estimate.
    for (const [name, { code }] of Object.entries({ browser, node })) {
      const file = join(project, `bundled-${name}.mjs`);
      writeFileSync(file, code);
      const { stdout } = await exec(process.execPath, [file], project);
      expect(stdout.trim(), name).toBe('0.0010442908');
    }
  });

  it.runIf(packageJson.bin !== undefined)('installs its command, which starts and prints help', async () => {
    for (const command of Object.keys(packageJson.bin ?? {})) {
      const { stdout } = await exec(join(project, 'node_modules', '.bin', command), ['--help'], project);
      expect(stdout, command).toMatch(/usage/i);
    }
  });
});

/** A TypeScript consumer: the types must resolve to real declarations (the @ts-expect-error proves they are not `any`). */
const typescriptConsumer = `import { calculateCpu, calculateInstance, EmissionsError, type Estimate, type InstanceEstimate } from '${NAME}';
import { defaultDatasets } from '${NAME}/datasets';
${SPECIFIERS.map((specifier, index) => `import type * as entry${index} from '${specifier}';`).join('\n')}

export type Entries = [${SPECIFIERS.map((_, index) => `typeof entry${index}`).join(', ')}];
export const vm: InstanceEstimate = calculateInstance('aws', ${CHECK_REQUEST}, defaultDatasets);
export const kwh: number = vm.calculation_details.energy_used_cpu;
export const cpu: Estimate = calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, defaultDatasets);
export const isError = (error: unknown): boolean => error instanceof EmissionsError && error.error_code === 'unknown_region';
// @ts-expect-error cpu_count is a number: the request types are real, not \`any\`.
calculateCpu('aws', { cpu_count: '4', region: 'us_east_1', duration: 1 }, defaultDatasets);
`;

async function typecheck(
  name: string,
  compilerOptions: Record<string, unknown>,
  files: Record<string, string>,
) {
  for (const [file, source] of Object.entries(files)) writeFileSync(join(project, file), source);
  const config = {
    compilerOptions: {
      target: 'es2022',
      lib: ['es2022'],
      types: ['node'],
      strict: true,
      noEmit: true,
      ...compilerOptions,
    },
    files: Object.keys(files),
  };
  writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
  return exec(join(BIN, 'tsc'), ['-p', `tsconfig.${name}.json`], project);
}

describe("the installed command's worker threads", () => {
  it('start from the installed dist/cli-worker.js and compute a chunk of rows (what --jobs 2 runs)', async () => {
    const { Worker } = await import('node:worker_threads');
    // A ledger's header line and one row, packed as the main thread hands them over (pipeline/pool.ts).
    const headerLine = 'classification_type,classification_code,spend_year,spend_region,money,money_unit';
    const header = headerLine.split(',');
    const workerData = {
      kind: 'spend',
      context: { inputFormat: 'csv', format: 'csv', header, columns: header, neutraliseFormulas: true },
      datasetFiles: [],
    };
    const worker = new Worker(join(project, 'node_modules', NAME, 'dist', 'cli-worker.js'), { workerData });
    try {
      const messages: unknown[] = [];
      const result = await new Promise<{ bytes: Uint8Array; summary: { rows: number; failures: number } }>(
        (resolve, reject) => {
          worker.on('error', reject);
          worker.on('message', (message: Record<string, unknown>) => {
            messages.push(message);
            // Ready first (its adapter built), then the chunk's result.
            if ('co2eWorkerReady' in message)
              worker.postMessage(packRecords([{ line: 2, text: 'isic4,4711,2019,DE,1000,eur' }]));
            else resolve(message as never);
          });
        },
      );
      expect(messages[0]).toEqual({ co2eWorkerReady: true });
      expect(result.summary).toMatchObject({ rows: 1, failures: 0 });
      expect(Buffer.from(result.bytes).toString('utf8')).toMatch(/^isic4,4711,2019,DE,1000,eur,[\d.]+,kg,/);
    } finally {
      await worker.terminate();
    }
  });
});

describe("the installed command's downloads through a proxy", () => {
  it('load undici from dist/cli-proxy-agent.js and tunnel through HTTP_PROXY', async () => {
    // The CLI leaves undici in a file of its own, imported only for a proxied download: this proves the file is
    // packed and found beside cli-main.js.
    expect(packedFiles).toContain('dist/cli-proxy-agent.js');
    expect(readFileSync(join(ROOT, 'dist', 'cli-main.js'), 'utf8')).not.toContain('node_modules/undici/');
    const server = await startFakeServer();
    const proxy = await startConnectProxy();
    try {
      server.records.set('5589597', new Map([['IOT_2019_pxp.zip', releaseZip(releaseTexts())]]));
      const { stdout } = await run(
        join(project, 'node_modules', '.bin', 'co2e-engine'),
        [
          ...['datasets', 'fetch', 'exiobase', '--out', 'proxied.json', '--cache-dir', 'proxied-cache'],
          ...['--zenodo-api', `${server.url}/api`],
        ],
        { cwd: project, env: { PATH: process.env.PATH ?? '', HTTP_PROXY: proxy.url } },
      );
      expect(stdout).toContain('regions (3): AT FR WA');
      expect(new Set(proxy.connects)).toEqual(new Set([new URL(server.url).host]));
    } finally {
      await server.close();
      await proxy.close();
    }
  }, 60_000);
});

describe("the installed command's report", () => {
  it('loads the charts from dist/cli-report.js, which cli-main.js leaves apart, and writes a page with no script', async () => {
    expect(packedFiles).toContain('dist/cli-report.js');
    expect(readFileSync(join(ROOT, 'dist', 'cli-main.js'), 'utf8')).not.toContain('node_modules/echarts/');
    writeFileSync(join(project, 'report-ledger.csv'), readFileSync(join(ROOT, 'examples', 'ledger.csv')));
    const args = ['spend', 'report-ledger.csv', '--out', 'report-out.csv', '--report', 'report.html'];
    await run(join(project, 'node_modules', '.bin', 'co2e-engine'), args, { cwd: project }).catch(
      (error: { code?: number }) => {
        if (error.code !== 1) throw error; // the example ledger has one bad row, on purpose
      },
    );
    const html = readFileSync(join(project, 'report.html'), 'utf8');
    expect(html).toContain('<svg ');
    expect(html).not.toMatch(/<script/i);
  }, 60_000);
});

describe("the installed command's workbook reader", () => {
  it('loads exceljs from dist/cli-xlsx.js, which cli-main.js leaves apart, for datasets build --ceda', async () => {
    expect(packedFiles).toContain('dist/cli-xlsx.js');
    expect(readFileSync(join(ROOT, 'dist', 'cli-main.js'), 'utf8')).not.toContain('node_modules/exceljs/');
    // A workbook in the publisher's layout, written with the repo's own exceljs (a dev dependency).
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Cover').addRows([[], ['', 'CEDA Version', '', 'CEDA 2024']]);
    book
      .addWorksheet('Open CEDA 2024')
      .addRows([
        [],
        ['', '', '', '', 'Cement manufacturing'],
        ['', 'Country Code', 'Country', 'country', '327310'],
        ['', 'USA', 'United States', 'kgCO2e/US Dollar', 8.8724321],
      ]);
    await book.xlsx.writeFile(join(project, 'ceda.xlsx'));
    const args = ['datasets', 'build', '--ceda', 'ceda.xlsx', '--out', 'ceda-full.json'];
    const { stderr } = await run(join(project, 'node_modules', '.bin', 'co2e-engine'), args, {
      cwd: project,
    });
    expect(stderr).toContain('(sheet Open CEDA 2024): 1 sectors × 1 regions');
    expect(readFileSync(join(project, 'ceda-full.json'), 'utf8')).toContain('8.8724321');
  }, 60_000);
});

describe('TypeScript consumers (the repo’s tsc)', () => {
  beforeAll(() => {
    // @types/node for the node:http adapter's and the Fetch API's types, as any Node project has it.
    const types = join(project, 'node_modules', '@types');
    mkdirSync(types, { recursive: true });
    if (!existsSync(join(types, 'node')))
      symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(types, 'node'), 'dir');
  });

  it('moduleResolution node16, from ESM (.mts) and CommonJS (.cts)', async () => {
    await typecheck(
      'node16',
      { module: 'node16', moduleResolution: 'node16', skipLibCheck: true },
      { 'consumer-esm.mts': typescriptConsumer, 'consumer-cjs.cts': typescriptConsumer },
    );
  });

  it('moduleResolution bundler', async () => {
    await typecheck(
      'bundler',
      { module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true },
      { 'consumer-bundler.ts': typescriptConsumer },
    );
  });

  // No Decimal (and so no big.js import) reaches the published types: a consumer that checks declaration files
  // (skipLibCheck off) compiles cleanly without @types/big.js.
  it('compiles without skipLibCheck: the declaration files need no big.js types', async () => {
    await typecheck(
      'strict',
      { module: 'node16', moduleResolution: 'node16', skipLibCheck: false },
      { 'consumer-strict.mts': typescriptConsumer },
    );
  });
});

describe('package linters', () => {
  it('publint finds no errors in the installed package', async () => {
    const pkgDir = join(project, 'node_modules', NAME);
    const { messages } = await publint({ pkgDir, pack: false, level: 'suggestion' });
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const report = messages.map(
      (message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`,
    );
    if (report.length > 0) console.log(`publint:\n${report.join('\n')}`);
    expect(report.filter((line) => line.startsWith('error'))).toEqual([]);
  });

  it('are-the-types-wrong finds no problems in any entry point under any resolution (node10 via typesVersions)', async () => {
    const { stdout } = await exec(
      join(BIN, 'attw'),
      [tarball, '--format', 'ascii', '--no-color', '--no-emoji'],
      workDir,
    );
    console.log(`attw:\n${stdout}`);
  });

  it('are-the-types-wrong resolves every entry point under node16 (from CJS and ESM) and bundler', async () => {
    await exec(join(BIN, 'attw'), [tarball, '--profile', 'node16', '--no-color', '--no-emoji'], workDir);
  });
});

describe('warehouses and Parquet, from the installed package', () => {
  it('ships the UDF bundles, which run in a bare realm', async () => {
    const { createContext, runInContext } = await import('node:vm');
    for (const file of ['co2e-udf.js', 'co2e-udf-cloud.js', 'co2e-udf-spend.js', 'bigquery/co2e-udf.js'])
      expect(packedFiles).toContain(`dist/udf/${file}`);
    const realm = createContext({});
    runInContext(
      readFileSync(join(project, 'node_modules', NAME, 'dist', 'udf', 'co2e-udf.js'), 'utf8'),
      realm,
    );
    // 4 CPU-hours × 0.0010442908 kg (tests/cloud/golden.test.ts); 1000 EUR × 0.69 × 0.0272 = 18.768 kg.
    const result = runInContext(
      `JSON.stringify([co2e.cloud('cpu', 'aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }).co2e,
        co2e.spend({ activity: { classification_type: 'isic4', classification_code: '4711' }, spend_year: 2019,
          spend_region: 'DE', money: 1000, money_unit: 'eur', tax_margin: 0.19, trade_margin: 0.1,
          transport_margin: 0.02 }).estimate.co2e])`,
      realm,
    ) as string;
    expect(JSON.parse(result)).toEqual([0.0041771632, 18.768]);
  });

  it('the installed command reads and writes Parquet (hyparquet bundled in)', async () => {
    const { parquetWriteFile } = await import('hyparquet-writer');
    const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
    const input = join(project, 'ledger.parquet');
    parquetWriteFile({
      filename: input,
      columnData: [
        { name: 'classification_type', data: ['isic4'], type: 'STRING' },
        { name: 'classification_code', data: ['4711'], type: 'STRING' },
        { name: 'spend_year', data: [2019], type: 'INT32' },
        { name: 'spend_region', data: ['DE'], type: 'STRING' },
        { name: 'money', data: [1000], type: 'DOUBLE' },
        { name: 'money_unit', data: ['eur'], type: 'STRING' },
        { name: 'tax_margin', data: [0.19], type: 'DOUBLE' },
        { name: 'trade_margin', data: [0.1], type: 'DOUBLE' },
        { name: 'transport_margin', data: [0.02], type: 'DOUBLE' },
      ],
    });
    const output = join(project, 'ledger-co2e.parquet');
    await exec(
      join(project, 'node_modules', '.bin', 'co2e-engine'),
      ['spend', input, '--out', output],
      project,
    );
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(output) });
    expect(rows.map((row) => row.co2e)).toEqual([18.768]);
  });
});
