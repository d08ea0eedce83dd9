import { readFileSync } from 'node:fs';
import { runInContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildSplitUdfBundle,
  buildUdfBundle,
  MAX_LIBRARY_FILE_BYTES,
  UDF_BUNDLES,
  type UdfBundleName,
} from '../../scripts/build-udf';
import { calculateCpu, calculateSpend } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import budgets from '../bundle/budgets.json';
import { CLOUD_CASES, SPEND_CASES } from './golden-cases';
import { loadUdf, type VmUdf } from './vm-udf';
import { calculateCloud } from '../fixtures/cloud-calculators';

/**
 * The warehouse UDF bundles (scripts/build-udf.ts, the same function `npm run build` uses), each run in a bare
 * ECMAScript realm and compared with the library on the golden cases; their sizes against tests/bundle/budgets.json;
 * and the JavaScript of docs/warehouses.md's BigQuery and Snowflake statements run around the real bundle.
 */

const code: Partial<Record<UdfBundleName, string>> = {};
const bundle = (name: UdfBundleName) => code[name] as string;
const measured: string[] = [];

beforeAll(async () => {
  for (const name of Object.keys(UDF_BUNDLES) as UdfBundleName[]) code[name] = await buildUdfBundle(name);
}, 60_000);

const coOf = (result: unknown) => {
  const body = result as { co2e?: number; cpu_estimate?: { co2e: number }; estimate?: { co2e: number } };
  return body.cpu_estimate?.co2e ?? body.estimate?.co2e ?? body.co2e;
};

describe.each([
  ['co2e-udf.js', { cloud: true, spend: true }],
  ['co2e-udf-cloud.js', { cloud: true, spend: false }],
  ['co2e-udf-spend.js', { cloud: false, spend: true }],
] as const)('%s', (name, has) => {
  let udf: VmUdf;
  beforeAll(() => {
    udf = loadUdf(bundle(name));
  });

  it('defines only the global co2e in a bare realm, with the functions of its tables', () => {
    // co2e, and zod's configuration (a plain object zod keeps on the global object).
    expect(Object.keys(udf.context).sort()).toEqual(['__zod_globalConfig', 'co2e']);
    expect(udf.body('return Object.keys(co2e).sort()', {})).toEqual(
      [has.cloud && 'cloud', has.spend && 'spend'].filter(Boolean),
    );
    // No host API was reachable while it loaded and ran: the realm has none to offer (V8 itself adds a silent
    // `console` to every context, which the bundle does not use).
    expect(
      udf.body(
        "return ['process', 'require', 'Buffer', 'setTimeout', 'TextEncoder', 'URL', 'fetch', 'window'].filter((n) => typeof globalThis[n] !== 'undefined')",
        {},
      ),
    ).toEqual([]);
  });

  it.runIf(has.cloud)('gives the library results and the hand-worked co2e on the cloud golden cases', () => {
    for (const { label, calculator, provider, request, co2e } of CLOUD_CASES) {
      const result = udf.call('cloud', calculator, provider, request);
      expect(result, label).toEqual(calculateCloud(calculator, provider, request));
      expect(coOf(result), label).toBe(co2e);
    }
  });

  it.runIf(has.spend)('gives the library results and the hand-worked co2e on the spend golden cases', () => {
    for (const { label, request, co2e } of SPEND_CASES) {
      const result = udf.call('spend', request);
      expect(result, label).toEqual(calculateSpend(request as never, defaultDatasets));
      expect(coOf(result), label).toBe(co2e);
    }
  });

  it('stays under its gzip ceiling and names its licences', () => {
    const text = bundle(name);
    const gzip = gzipSync(text).byteLength;
    const ceiling = (budgets.udf as unknown as Record<string, { ceiling_gzip?: number }>)[name]?.ceiling_gzip;
    measured.push(`${name}: ${gzip} gzip / ${Buffer.byteLength(text)} minified, ceiling ${ceiling}`);
    console.log(`UDF bundle ${measured.at(-1)}`);
    expect(ceiling).toBeTypeOf('number');
    expect(gzip).toBeLessThanOrEqual(ceiling as number);
    expect(text).toMatch(/^\/\*!\n \* co2e-engine .* warehouse UDF bundle/);
    expect(text.slice(0, text.indexOf('*/'))).toContain('datasets/SOURCES.md');
    // Snowflake takes the body between $$ delimiters, so the code must not contain one.
    expect(text).not.toContain('$$');
    expect(text).not.toMatch(/\bconsole\b/);
  });
});

const CLOUD_TABLES = ['cloud/coefficients', 'cloud/instances', 'cloud/regions-electricitymaps'];
const SPEND_TABLES = [
  'spend/exiobase-classifications',
  'spend/exiobase-factors.oefdb',
  'spend/exiobase-factors.oefdb-regions',
  'spend/exiobase-margins',
  'spend/fx-imf',
  'spend/inflation-worldbank',
];
const ALL_TABLES = [...CLOUD_TABLES, ...SPEND_TABLES, 'cloud/regions-ccf', 'spend/useeio-factors'];
const headerOf = (table: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../datasets/${table}.json`, import.meta.url), 'utf8')) as {
      dataset: { licence: string; attribution: string };
    }
  ).dataset;

describe.each([
  ['co2e-udf.js', [...CLOUD_TABLES, ...SPEND_TABLES]],
  ['co2e-udf-cloud.js', CLOUD_TABLES],
  ['co2e-udf-spend.js', SPEND_TABLES],
] as const)('the head of %s', (name, embedded) => {
  const head = () => bundle(name).slice(0, bundle(name).indexOf('*/'));

  it.each(embedded)('names %s with its licence and attribution', (table) => {
    const { licence, attribution } = headerOf(table);
    expect(head()).toContain(` * Table datasets/${table}.json (`);
    expect(head()).toContain(` * Licence: ${licence}`);
    expect(head()).toContain(` * Attribution: ${attribution.trim()}`);
  });

  it('names no table it does not embed', () => {
    for (const table of ALL_TABLES.filter(
      (candidate) => !(embedded as readonly string[]).includes(candidate),
    ))
      expect(head()).not.toContain(`datasets/${table}.json`);
  });
});

describe('bad rows become error bodies, never exceptions', () => {
  let udf: VmUdf;
  beforeAll(() => {
    udf = loadUdf(bundle('co2e-udf.js'));
  });

  it('a bad request is its error body, as the library throws it', () => {
    const request = { cpu_count: 1, region: 'mars_1', duration: 1 };
    expect(() => calculateCpu('aws', request, defaultDatasets)).toThrow();
    expect(udf.call('cloud', 'cpu', 'aws', request)).toMatchObject({
      error: 'bad_request',
      error_code: 'unknown_region',
      path: 'region',
    });
    expect(udf.call('spend', { money: -1 })).toMatchObject({ error_code: 'invalid_request' });
    expect(udf.call('cloud', 'cpu', 'ibm', request)).toMatchObject({ error_code: 'unsupported_provider' });
  });

  it('an unknown calculator lists the valid ones', () => {
    expect(udf.call('cloud', 'gpu', 'aws', {})).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message:
        "Calculator 'gpu' is not known. Valid calculators: cpu, memory, storage, networking, embodied, instance.",
      path: 'calculator',
      valid_values: ['cpu', 'memory', 'storage', 'networking', 'embodied', 'instance'],
    });
  });

  it('SQL NULL arguments (null) are bad requests too', () => {
    expect(udf.call('spend', null)).toMatchObject({ error_code: 'invalid_request' });
    expect(udf.call('cloud', null, null, null)).toMatchObject({ error_code: 'invalid_request' });
    expect(udf.call('cloud', 'cpu', null, null)).toMatchObject({ error: 'bad_request' });
  });
});

describe("the split form for BigQuery's 1 MB library files", () => {
  it('each file is at most 1 MB; the tables loaded first, the code gives the golden results', async () => {
    const { code: splitCode, tables } = await buildSplitUdfBundle('co2e-udf.js');
    expect(Object.keys(tables)).toEqual([
      'co2e-udf.table-cloud-coefficients.js',
      'co2e-udf.table-cloud-instances.js',
      'co2e-udf.table-cloud-regions-electricitymaps.js',
      'co2e-udf.table-spend-exiobase-classifications.js',
      'co2e-udf.table-spend-exiobase-factors-oefdb.js',
      'co2e-udf.table-spend-exiobase-factors-oefdb-regions.js',
      'co2e-udf.table-spend-exiobase-margins.js',
      'co2e-udf.table-spend-fx-imf.js',
      'co2e-udf.table-spend-inflation-worldbank.js',
    ]);
    for (const text of [splitCode, ...Object.values(tables)])
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_LIBRARY_FILE_BYTES);
    // Each table file heads with its own table's licence and attribution, and names no other table.
    for (const [file, text] of Object.entries(tables)) {
      const table = ALL_TABLES.find((candidate) =>
        file.endsWith(`table-${candidate.replace(/[^a-z0-9]+/gi, '-')}.js`),
      );
      const head = text.slice(0, text.indexOf('*/'));
      expect(head, file).toContain(` * Attribution: ${headerOf(table as string).attribution.trim()}`);
      expect(head.match(/ \* Table /g), file).toHaveLength(1);
    }
    const udf = loadUdf([...Object.values(tables), splitCode]);
    for (const { label, calculator, provider, request, co2e } of CLOUD_CASES)
      expect(coOf(udf.call('cloud', calculator, provider, request)), label).toBe(co2e);
    for (const { label, request, co2e } of SPEND_CASES) {
      const result = udf.call('spend', request);
      expect(result, label).toEqual(calculateSpend(request as never, defaultDatasets));
      expect(coOf(result), label).toBe(co2e);
    }
  });

  it('the code without its tables fails at load, naming the missing table', async () => {
    const { code: splitCode } = await buildSplitUdfBundle('co2e-udf.js');
    expect(() => loadUdf(splitCode)).toThrow(/load the library file with the table '[\w-]+' before this one/);
  });

  it('the cloud bundle fits one BigQuery library file as it is; the spend bundle needs the split form', () => {
    expect(Buffer.byteLength(bundle('co2e-udf-cloud.js'))).toBeLessThanOrEqual(MAX_LIBRARY_FILE_BYTES);
    // docs/warehouses.md loads spend from the split form because of this.
    expect(Buffer.byteLength(bundle('co2e-udf-spend.js'))).toBeGreaterThan(MAX_LIBRARY_FILE_BYTES);
  });
});

it('runs where the warehouse forbids eval (zod falls back to its ordinary parser)', () => {
  const udf = loadUdf(bundle('co2e-udf.js'), { allowEval: false });
  const [cloudCase] = CLOUD_CASES;
  const [spendCase] = SPEND_CASES;
  if (cloudCase === undefined || spendCase === undefined) throw new Error('no golden cases');
  expect(coOf(udf.call('cloud', cloudCase.calculator, cloudCase.provider, cloudCase.request))).toBe(
    cloudCase.co2e,
  );
  expect(coOf(udf.call('spend', spendCase.request))).toBe(spendCase.co2e);
  expect(udf.call('cloud', 'cpu', 'aws', { cpu_count: 'x' })).toMatchObject({
    error_code: 'invalid_request',
  });
});

describe("docs/warehouses.md's JavaScript, around the real bundle", () => {
  const page = readFileSync(new URL('../../docs/warehouses.md', import.meta.url), 'utf8');
  const sqlBlocks = [...page.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] as string);

  it('BigQuery: the library files are loaded first, in order, then each function body runs with its arguments', async () => {
    const split = await buildSplitUdfBundle('co2e-udf.js');
    // A library file is a whole bundle of dist/udf/ or a file of its split form in dist/udf/bigquery/.
    const libraryFile = (name: string): string =>
      name in split.tables
        ? (split.tables[name] as string)
        : name in UDF_BUNDLES && name !== 'co2e-udf.js'
          ? bundle(name as UdfBundleName)
          : split.code;
    const bodies = sqlBlocks.flatMap((sql) =>
      [
        ...sql.matchAll(
          /CREATE TEMP FUNCTION (\w+)\(([^)]*)\)[\s\S]*?library = \[([^\]]*)\][\s\S]*?AS r"""([\s\S]*?)"""/g,
        ),
      ].map((match) => ({
        fn: match[1],
        params: match[2],
        files: [...(match[3] as string).matchAll(/'gs:\/\/[^']*\/(co2e-udf[\w.-]*\.js)'/g)].map(
          (file) => file[1] as string,
        ),
        body: match[4] as string,
      })),
    );
    expect(bodies.map((body) => body.fn).sort()).toEqual(['co2e_cloud', 'co2e_spend']);
    for (const { fn, params, files, body } of bodies) {
      for (const file of files)
        expect(Buffer.byteLength(libraryFile(file)), file).toBeLessThanOrEqual(MAX_LIBRARY_FILE_BYTES);
      const udf = loadUdf(files.map(libraryFile));
      const names = (params as string).split(',').map((param) => param.trim().split(/\s+/)[0] as string);
      if (fn === 'co2e_spend') {
        const [first] = SPEND_CASES;
        const result = udf.body(body, { [names[0] as string]: first?.request });
        expect(coOf(result)).toBe(first?.co2e);
      } else {
        for (const { calculator, provider, request, co2e } of CLOUD_CASES) {
          const args = Object.fromEntries(
            names.map((name, index) => [name, [calculator, provider, request][index]]),
          );
          expect(coOf(udf.body(body, args))).toBe(co2e);
        }
      }
    }
  });

  it('Snowflake: the body pastes the bundle once per realm, and the arguments are uppercase', () => {
    const functions = sqlBlocks.flatMap((sql) =>
      [
        ...sql.matchAll(
          /CREATE OR REPLACE FUNCTION (\w+)\(([^)]*)\)[\s\S]*?LANGUAGE JAVASCRIPT[\s\S]*?AS \$\$([\s\S]*?)\$\$/g,
        ),
      ].map((match) => ({ fn: match[1], params: match[2] as string, body: match[3] as string })),
    );
    expect(functions.map((f) => f.fn).sort()).toEqual(['co2e_cloud', 'co2e_spend']);
    for (const { fn, params, body } of functions) {
      const file = fn === 'co2e_cloud' ? 'co2e-udf-cloud.js' : 'co2e-udf-spend.js';
      const placeholder = `/* paste dist/udf/${file} here */`;
      expect(body).toContain(placeholder);
      const script = body.replace(placeholder, () => bundle(file));
      // Snowflake names the arguments in uppercase inside the body.
      const names = params.split(',').map((param) => (param.trim().split(/\s+/)[0] as string).toUpperCase());
      const udf = loadUdf('');
      const runs =
        fn === 'co2e_spend'
          ? SPEND_CASES.map((c) => [[c.request], c.co2e] as const)
          : CLOUD_CASES.map((c) => [[c.calculator, c.provider, c.request], c.co2e] as const);
      const cache = `co2e_udf_${fn === 'co2e_cloud' ? 'cloud' : 'spend'}`;
      for (const [index, [values, co2e]] of runs.entries()) {
        const args = Object.fromEntries(names.map((name, position) => [name, values[position]]));
        expect(coOf(udf.body(script, args))).toBe(co2e);
        // The first row evaluates the bundle and caches its api in one global; later rows reuse that object.
        if (index === 0) runInContext(`first_api = ${cache}`, udf.context);
        else expect(runInContext(`first_api === ${cache}`, udf.context)).toBe(true);
      }
      expect(Object.keys(udf.context).sort()).toEqual(['__zod_globalConfig', cache, 'first_api'].sort());
    }
  });
});
