import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseOutcome, type DatasetsModule, type Lib, runCases } from './cases';

/**
 * The built package in a real browser: tests/browser/page.ts is bundled with esbuild, `co2e-engine` resolved
 * through package.json `exports` to dist/, served from 127.0.0.1 and run in Debian's headless Chromium; every
 * case must give exactly what Node gives from the same dist/. Run with `npm run test:browser` after
 * `npm run build`.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// No network beyond 127.0.0.1: no QUIC, sync, component updates or other background traffic.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type ExportTarget = { import: { browser?: string; default: string } };
const packageJson = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  exports: Record<string, ExportTarget | string>;
};

/** The ESM file package.json `exports` names for a subpath (`.` or `./datasets`): `import`, then `browser` if any. */
function exportedFile(subpath: string): string {
  const target = packageJson.exports[subpath];
  if (typeof target !== 'object')
    throw new Error(`package.json exports has no conditional entry for '${subpath}'`);
  return `${ROOT}${(target.import.browser ?? target.import.default).replace(/^\.\//, '')}`;
}

/** Resolves `co2e-engine` and `co2e-engine/<sub>` through the package's own exports map, as a bundler would. */
const resolveThroughExports: Plugin = {
  name: 'co2e-engine-exports',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`^${packageJson.name}(/.*)?$`) }, (args) => ({
      path: exportedFile(
        args.path === packageJson.name ? '.' : `.${args.path.slice(packageJson.name.length)}`,
      ),
    }));
  },
};

const missingBuild = ['.', './datasets', './datasets/cloud', './datasets/spend']
  .map(exportedFile)
  .filter((file) => !existsSync(file));
if (missingBuild.length > 0) {
  throw new Error(
    `The browser test runs the built package; run \`npm run build\` first (missing: ${missingBuild.join(', ')}).`,
  );
}
if (!existsSync(CHROMIUM)) {
  throw new Error(
    `No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (as .ci/run does) or set CHROMIUM_PATH.`,
  );
}

let server: Server;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [`${ROOT}tests/browser/page.ts`],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [resolveThroughExports],
  });
  const script = bundled.outputFiles[0]?.text ?? '';
  const html =
    '<!doctype html><meta charset="utf-8"><title>co2e-engine</title><script src="/page.js"></script>';
  server = createServer((request, response) => {
    if (request.url === '/')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (request.url === '/page.js')
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function browserOutcomes(): Promise<{
  outcomes: CaseOutcome[];
  userAgent: string;
  problems: string[];
}> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  // Nothing may leave 127.0.0.1: the engine is offline by design.
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(baseUrl)) return route.continue();
    problems.push(`request outside the test server: ${route.request().url()}`);
    return route.abort();
  });
  await page.goto(`${baseUrl}/`);
  await page.waitForFunction(() => typeof window.co2eCases === 'function');
  const outcomes = await page.evaluate(() => (window.co2eCases as () => CaseOutcome[])());
  const userAgent = await page.evaluate(() => navigator.userAgent);
  await page.close();
  return { outcomes, userAgent, problems };
}

async function nodeOutcomes(): Promise<CaseOutcome[]> {
  const lib = (await import(pathToFileURL(exportedFile('.')).href)) as Lib;
  const load = async (subpath: string) =>
    (await import(pathToFileURL(exportedFile(subpath)).href)) as DatasetsModule;
  const [all, cloud, spend] = await Promise.all([
    load('./datasets'),
    load('./datasets/cloud'),
    load('./datasets/spend'),
  ]);
  return runCases(lib, { ...all, cloudDatasets: cloud.cloudDatasets, spendDatasets: spend.spendDatasets });
}

describe('the built package in headless Chromium', () => {
  it('gives exactly the results and errors that Node gives, for every calculator, batch and the engine', async () => {
    const { outcomes, userAgent, problems } = await browserOutcomes();
    const expected = await nodeOutcomes();
    console.log(`ran ${outcomes.length} cases in ${userAgent}`);

    expect(userAgent).toMatch(/HeadlessChrome\/\d+/);
    expect(problems).toEqual([]);
    expect(outcomes.map((outcome) => outcome.name)).toEqual(expected.map((outcome) => outcome.name));
    for (const [index, outcome] of outcomes.entries())
      expect(outcome, outcome.name).toStrictEqual(expected[index]);
  });

  it('ran real estimates and real EmissionsErrors (control: the comparison above is not of two empty lists)', async () => {
    const { outcomes } = await browserOutcomes();
    const byName = new Map(outcomes.map((outcome) => [outcome.name, outcome]));
    expect(byName.get('cpu aws')).toMatchObject({
      ok: true,
      result: { co2e_unit: 'kg', activity_data: { activity_value: 4, activity_unit: 'CPU-hour' } },
    });
    // DESIGN.md's check value: t2.micro, 1 h, u 0.5 → 1 vCPU × (0.74 + 0.5 × (3.5 − 0.74)) W × 1.135 / 1000 = 0.0024062 kWh.
    expect(byName.get('instance t2.micro')).toMatchObject({
      ok: true,
      result: { calculation_details: { energy_used_cpu: 0.0024062 } },
    });
    expect(byName.get('cpu unknown region')).toMatchObject({
      ok: false,
      isEmissionsError: true,
      body: { error_code: 'unknown_region' },
    });
    expect(byName.get('spend batch')).toMatchObject({
      ok: true,
      result: [
        { estimate: {} },
        { error_code: 'invalid_request', path: 'requests[1].spend_region' },
        { estimate: {} },
      ],
    });
    // The cloud-only and spend-only subpaths give what the full datasets give.
    expect(byName.get('cpu aws, datasets/cloud')).toMatchObject({
      ok: true,
      result: (byName.get('cpu aws') as { result: object }).result,
    });
    expect(byName.get('spend isic4 4711 DE 2023, datasets/spend')).toMatchObject({
      ok: true,
      result: (byName.get('spend isic4 4711 DE 2023') as { result: object }).result,
    });
    expect(byName.get('createTableDatasets invalid table')).toMatchObject({
      ok: false,
      isEmissionsError: false,
      errorName: 'DatasetError',
    });
  });
});
