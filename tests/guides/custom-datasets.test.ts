/**
 * The code of docs/guides/custom-datasets.md runs: every example block of the guide is verbatim one file of
 * examples/guides/, each file type-checks, and each runs (bundled with `co2e-engine` resolved to the sources, in a
 * folder with its data files and a generated EXIOBASE release) and prints what the guide says it prints.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';

const ROOT = resolve(__dirname, '../..');
const GUIDE = resolve(ROOT, 'docs/guides/custom-datasets.md');
const EXAMPLES = resolve(ROOT, 'examples/guides');
/** tsx's loader by URL, as the commands run in a folder outside the repository. */
const TSX = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

const ENTRIES: Record<string, string> = {
  'co2e-engine': 'src/index.ts',
  'co2e-engine/datasets': 'src/embedded/index.ts',
  'co2e-engine/loaders': 'src/loaders/index.ts',
  'co2e-engine/node': 'src/node/index.ts',
};
const sources: Plugin = {
  name: 'co2e-engine-sources',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^co2e-engine(\/.*)?$/ }, (args) => {
      const entry = ENTRIES[args.path];
      if (entry === undefined)
        throw new Error(`the guide imports ${args.path}, which is not an entry of the package`);
      return { path: resolve(ROOT, entry) };
    });
  },
};

/** `<!-- example: examples/guides/x.ts -->` followed by a ```ts block: file → block content. */
function guideExamples(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g))
    blocks.set(match[1] as string, match[2] as string);
  return blocks;
}

/** The `co2e-engine` command lines of the guide's `<!-- commands -->` block. */
function guideCommands(markdown: string): string[][] {
  const block = /<!-- commands: [^>]*-->\n```sh\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('co2e-engine '))
    .map((line) => line.split(/\s+/).slice(1));
}

/** What each example prints, worked out by hand (see the comments). */
const EXPECTED_OUTPUT: Record<string, string[]> = {
  'replace-fx.ts': [
    // 2019: eur 0.8933 (Federal Reserve H.10 annual), gbp 0.783317 (mean of the 12 H.10 monthly figures) per USD →
    // 1000 GBP = 1140.40675741749508… EUR (0.8933 / 0.783317 = 1.14040675741749508819…), × 0.0272 kg/EUR (DE retail)
    // = 31.0190638017558663989…; published as activity 1140.406757417495 (the nearest JS number) × 0.0272 =
    // 31.019063801755864 exactly, rounded once (issue 39): 1.1404067574174952, 31.019063801755863
    'fed-h10-imf-fx 1.1404067574174952 31.019063801755863',
    // Treasury 2019: 0.9 / 0.8 = 1.125 → 1125 EUR × 0.0272 = 30.6 kg
    'acme-treasury-fx 1.125 30.6',
  ],
  'supplier-factors.ts': [
    '1250 ACME suppliers ACME hot-rolled steel (supplier EPD)', // 1000 EUR × 1.25
    '900 ACME suppliers Wheat from our contracted mill', // 1000 EUR × 0.9 (EXIOBASE: 1.1683)
    '27.2 EXIOBASE Retail trade (except of motor vehicles and motorcycles) and repair of personal and household goods (services)', // 1000 × 0.0272
  ],
  'full-exiobase.ts': [
    'AT FR WA 15 0', // the test's release: 3 regions × 5 products, no negative multipliers
    // FR computer services, AR5 row: 89000 kg per million EUR / 1e6 = 0.089 kg/EUR × 1000 EUR
    '89 EXIOBASE 3.8.2 IOT_2019_pxp, impacts/M.txt "GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)" per million EUR / 1e6',
  ],
  'load-datasets-file.ts': [
    // my-data.json from the guide's commands: FR p72 0.089 kg/EUR (AR5 row 89000 / 1e6) from the release, margins
    // from data/margins.csv: 1000 EUR × (1 − 0.2 − 0.1 − 0.05) = 650 EUR × 0.089 = 57.85 kg
    "57.85 default [ 'acme-margins@2024' ]",
  ],
  'pin-versions.ts': [
    '32 Cloud Carbon Footprint methodology; grid: Electricity Maps yearly averages 2021-2025 (via @tgwf/co2 0.19.0)',
    'true false', // same co2e, new id
  ],
};

describe('docs/guides/custom-datasets.md', () => {
  const markdown = readFileSync(GUIDE, 'utf8');
  const blocks = guideExamples(markdown);
  const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.ts'));
  let work: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'co2e-guide-'));
    cpSync(join(EXAMPLES, 'data'), join(work, 'data'), { recursive: true });
    writeFileSync(join(work, 'IOT_2019_pxp.zip'), releaseZip(releaseTexts()));
    // The guide's commands, in order, through the real CLI: they write my-data.json for the examples.
    for (const args of guideCommands(markdown)) {
      const run = spawnSync(process.execPath, ['--import', TSX, resolve(ROOT, 'src/cli/index.ts'), ...args], {
        cwd: work,
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`co2e-engine ${args.join(' ')}: ${run.stderr}`);
    }
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('shows every example file, verbatim, and nothing else as an example', () => {
    expect([...blocks.keys()].sort()).toEqual(files.map((name) => `examples/guides/${name}`).sort());
    for (const [path, code] of blocks) expect(code, path).toBe(readFileSync(resolve(ROOT, path), 'utf8'));
    expect(Object.keys(EXPECTED_OUTPUT).sort()).toEqual(files.sort());
    // Every TypeScript block of the guide is one of them, so none goes untested.
    expect(markdown.match(/```ts\n/g)?.length).toBe(blocks.size);
  });

  it('runs the commands, whose spend output is what the guide says', () => {
    expect(guideCommands(markdown).map((args) => args.slice(0, 2).join(' '))).toEqual([
      'datasets build',
      'spend data/ledger.csv',
    ]);
    const rows = parse(readFileSync(join(work, 'ledger-co2e.csv'), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    // inv-1: 0.089 kg/EUR × 1000 × (1 − 0.35) = 57.85; inv-2: DE retail, embedded 0.0272 × 1000, margins 0
    expect(rows.map((row) => [row.id, row.co2e, row.error_code])).toEqual([
      ['inv-1', '57.85', ''],
      ['inv-2', '27.2', ''],
    ]);
    expect(rows[1]?.notices).toContain('default_margins_unavailable');
  });

  it('has examples that type-check against the package entries', () => {
    const tsc = spawnSync(
      process.execPath,
      [
        resolve(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        resolve(EXAMPLES, 'tsconfig.json'),
        '--noEmit',
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it.each(Object.keys(EXPECTED_OUTPUT))('runs %s and prints what the guide says', async (name) => {
    const outfile = join(work, `${name}.mjs`);
    await build({
      entryPoints: [join(EXAMPLES, name)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      plugins: [sources],
      logLevel: 'silent',
    });
    const run = spawnSync(process.execPath, [outfile], { cwd: work, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n')).toEqual(EXPECTED_OUTPUT[name]);
  });
});
