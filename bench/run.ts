import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { format, resolveConfig } from 'prettier';
import { type ProfileSummary, summariseProfile } from './profile';
import { CALCULATORS, type CalculatorName } from './workload';

/**
 * `npm run bench` (after the build it runs first): throughput of every calculator, single and batch, beside a
 * plain-float reference of the same formula; cold start; dataset build time; peak memory; and CPU profiles of the
 * cpu and spend batches. Each measurement runs in a fresh `node` process. Writes bench/results.md (keeping its
 * hand-written analysis section) and bench/.out/results.json (bench/.out/results-quick.json for a quick run).
 *
 * Environment: BENCH_QUICK=1 for a fast smoke run (small batches, no 1M, no profiles); BENCH_SKIP_MILLION=1 for a
 * full run without the 1M batches (the longest part, on a shared machine), which the report then names as skipped. `tsx bench/run.ts --report`
 * rewrites bench/results.md from the last bench/.out/results.json without measuring.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out');
const QUICK = process.env.BENCH_QUICK === '1';
const COLD_START_RUNS = QUICK ? 3 : 11;
const BATCH_SIZES = QUICK ? [1_000] : [1_000, 100_000];
const MILLION = 1_000_000;
/** 1M batches only for these, and only when the 100k rate says the run takes at most this long. */
const MILLION_FOR: readonly CalculatorName[] = ['cpu', 'spend'];
const MILLION_MAX_SECONDS = 90;
const SKIP_MILLION = process.env.BENCH_SKIP_MILLION === '1';

const TARGETS = {
  cpuBatchPerSec: 500_000,
  spendBatchPerSec: 200_000,
  maxRatio: 20,
  coldStartMs: 50,
  /** Per-estimate time of a 30,000-distinct-request spend batch over a 2,048-distinct one (issue 13). */
  maxDistinctRatio: 1.3,
};

if (!existsSync(join(ROOT, 'dist', 'index.js')))
  throw new Error('Run `npm run build` first (`npm run bench` does).');
mkdirSync(OUT, { recursive: true });

/**
 * The measured package: a copy of dist/ (with package.json beside it, so `.js` is ESM and zod/big.js resolve from
 * the repo's node_modules), taken once, so a rebuild during the run cannot change what is measured.
 */
const PACKAGE = join(OUT, 'package');
function snapshotBuild() {
  rmSync(PACKAGE, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), join(PACKAGE, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(PACKAGE, 'package.json'));
}

async function compile() {
  snapshotBuild();
  await build({
    entryPoints: [join(ROOT, 'bench', 'worker.ts'), join(ROOT, 'bench', 'cold-start.ts')],
    outdir: OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  // Diagnostics for cold start: the package as one file each (as an app bundler would ship it).
  for (const entry of ['index', 'datasets']) {
    await build({
      entryPoints: [join(PACKAGE, 'dist', `${entry}.js`)],
      outfile: join(OUT, `bundled-${entry}.mjs`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      // dist's bare chunk imports are dropped under `sideEffects: false`, as in any app bundle; that is fine.
      logLevel: 'error',
    });
  }
}

function node(args: string[]): Record<string, number | string> {
  const stdout = execFileSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Record<string, number | string>;
}
const worker = (...args: string[]) => node(['--expose-gc', join(OUT, 'worker.mjs'), PACKAGE, ...args]);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const log = (message: string) => process.stderr.write(`${message}\n`);

/** Milliseconds to import a module in a fresh process, median of `runs`. */
function importTime(specifier: string, runs: number): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(JSON.stringify({ ms: performance.now() - t }));`;
  return median(Array.from({ length: runs }, () => node(['--input-type=module', '-e', script]).ms as number));
}

function machine() {
  const cpuInfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.+)/.exec(cpuInfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const mhz = /cpu MHz\s*:\s*(.+)/.exec(cpuInfo)?.[1];
  return {
    cpu: `${model}${mhz ? ` (${Math.round(Number(mhz))} MHz reported)` : ''}`,
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    v8: process.versions.v8,
    os: `${osType()} ${release()}`,
  };
}

async function main() {
  log('compiling the benchmark workers…');
  await compile();
  const started = Date.now();

  log(`cold start × ${COLD_START_RUNS}…`);
  const colds = Array.from({ length: COLD_START_RUNS }, () => node([join(OUT, 'cold-start.mjs'), PACKAGE]));
  const cold = Object.fromEntries(
    Object.keys(colds[0] ?? {}).map((key) => [key, median(colds.map((run) => run[key] as number))]),
  );
  const coldRange = colds.map((run) => run.coldStartMs as number);
  const diagnostics = {
    zodImportMs: importTime('zod', 5),
    bigImportMs: importTime('big.js', 5),
    bundledRootImportMs: importTime(join(OUT, 'bundled-index.mjs'), 5),
    bundledDatasetsImportMs: importTime(join(OUT, 'bundled-datasets.mjs'), 5),
  };

  log('dataset build…');
  const datasets = worker('datasets');

  const singles = CALCULATORS.map((name) => {
    log(`single ${name}…`);
    return worker('single', name);
  });

  const batches: Array<Record<string, number | string>> = [];
  for (const name of CALCULATORS) {
    for (const size of BATCH_SIZES) {
      log(`batch ${name} ${size}…`);
      batches.push(worker('batch', name, String(size)));
    }
  }
  log('spend: 30,000 distinct requests vs 2,048…');
  const distinct = worker('distinct', 'spend', '100000');

  const skippedMillion: string[] = [];
  if (!QUICK) {
    for (const name of MILLION_FOR) {
      const rate = batches.find((row) => row.calculator === name && row.size === 100_000)
        ?.engineOpsPerSec as number;
      const seconds = MILLION / rate;
      if (SKIP_MILLION) {
        skippedMillion.push(
          `${name}: not run (BENCH_SKIP_MILLION=1, to keep the run short on a shared machine)`,
        );
        continue;
      }
      if (seconds > MILLION_MAX_SECONDS) {
        skippedMillion.push(
          `${name}: not run, it would take about ${Math.round(seconds)} s at the 100k rate`,
        );
        continue;
      }
      log(`batch ${name} 1M (about ${Math.round(seconds)} s)…`);
      batches.push(worker('batch', name, String(MILLION)));
    }
  }

  const profiles: Record<string, ProfileSummary> = {};
  if (!QUICK) {
    for (const name of ['cpu', 'spend'] as const) {
      log(`profile ${name} 100000…`);
      const file = join(OUT, `profile-${name}.cpuprofile`);
      worker('profile', name, '100000', file);
      profiles[name] = summariseProfile(file);
    }
  }

  const results = {
    machine: machine(),
    date: new Date().toISOString(),
    seconds: (Date.now() - started) / 1000,
    quick: QUICK,
    cold,
    coldRange,
    diagnostics,
    datasets,
    singles,
    batches,
    distinct,
    skippedMillion,
    profiles,
  };
  const resultsFile = join(OUT, QUICK ? 'results-quick.json' : 'results.json');
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  if (QUICK) {
    log(`quick run: results in ${resultsFile}; bench/results.md left unchanged`);
    return;
  }
  await writeReport(results);
  log(`wrote bench/results.md (${Math.round(results.seconds)} s)`);
}

type Results = {
  machine: ReturnType<typeof machine>;
  date: string;
  seconds: number;
  cold: Record<string, number>;
  coldRange: number[];
  diagnostics: Record<string, number>;
  datasets: Record<string, number | string>;
  singles: Array<Record<string, number | string>>;
  batches: Array<Record<string, number | string>>;
  distinct?: Record<string, number | string>;
  skippedMillion: string[];
  profiles: Record<string, ProfileSummary>;
};

const rate = (value: number) =>
  value >= 1e6
    ? `${(value / 1e6).toFixed(2)}M`
    : value >= 1e3
      ? `${(value / 1e3).toFixed(1)}k`
      : value.toFixed(0);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const size = (value: number) =>
  value >= MILLION ? `${value / MILLION}M` : value >= 1000 ? `${value / 1000}k` : String(value);
const met = (ok: boolean, missedBy: string) => (ok ? '**met**' : `**missed** (${missedBy})`);

function profileSection(name: string, summary: ProfileSummary): string {
  const lines = [
    `### ${name} batch`,
    '',
    `Profiled ${ms(summary.totalMs)}: one batch of 100k requests, after a warm-up.`,
    '',
  ];
  lines.push('| component (self time) | ms | share |', '|---|---:|---:|');
  for (const row of summary.components)
    lines.push(`| ${row.component} | ${row.ms.toFixed(0)} | ${pct(row.share)} |`);
  lines.push('', '| engine step (inclusive time) | ms | share |', '|---|---:|---:|');
  for (const row of summary.steps)
    lines.push(`| \`${row.name}\` | ${row.ms.toFixed(0)} | ${pct(row.share)} |`);
  lines.push('', '| function (self time) | component | ms | share |', '|---|---|---:|---:|');
  for (const row of summary.topSelf)
    lines.push(`| \`${row.name}\` | ${row.component} | ${row.ms.toFixed(0)} | ${pct(row.share)} |`);
  return lines.join('\n');
}

/** Writes bench/results.md, formatted as `npm run lint` (prettier) expects. */
async function writeReport(results: Results): Promise<void> {
  const file = join(ROOT, 'bench', 'results.md');
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(report(results), { ...options, filepath: file }));
}

const ANALYSIS_START = '<!-- analysis:start -->';
const ANALYSIS_END = '<!-- analysis:end -->';

function keptAnalysis(): string {
  const file = join(ROOT, 'bench', 'results.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = previous.indexOf(ANALYSIS_START);
  const end = previous.indexOf(ANALYSIS_END);
  if (start === -1 || end === -1) return `${ANALYSIS_START}\n_(No analysis written yet.)_\n${ANALYSIS_END}`;
  return previous.slice(start, end + ANALYSIS_END.length);
}

/** The sections other scripts generate (bench/http.ts, bench/soak.ts), kept as they are. */
function keptSections(): string {
  const file = join(ROOT, 'bench', 'results.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return [...previous.matchAll(/<!-- (bench-[\w-]+):start -->[\s\S]*?<!-- \1:end -->/g)]
    .map((match) => match[0])
    .join('\n\n');
}

function report(results: Results): string {
  const { machine: m, cold } = results;
  const batch = (name: string, n: number) =>
    results.batches.find((row) => row.calculator === name && row.size === n);
  const cpuRate = (batch('cpu', 100_000)?.engineOpsPerSec as number) ?? 0;
  const spendRate = (batch('spend', 100_000)?.engineOpsPerSec as number) ?? 0;
  // Every measured ratio, single calls and every batch size: the target holds only if the worst one meets it.
  const ratioOf = (row: Record<string, number | string>, label: string) => ({
    label,
    ratio: (row.referenceOpsPerSec as number) / (row.engineOpsPerSec as number),
  });
  const ratios = [
    ...results.singles.map((row) => ratioOf(row, `${row.calculator} single`)),
    ...results.batches.map((row) => ratioOf(row, `${row.calculator} ${size(row.size as number)}`)),
  ];
  const worstRatio = ratios.reduce((worst, row) => (row.ratio > worst.ratio ? row : worst));
  const batchRatios = CALCULATORS.map((name) => {
    const row = batch(name, 100_000);
    return `${name} ${((row?.referenceOpsPerSec as number) / (row?.engineOpsPerSec as number)).toFixed(1)}×`;
  });

  const lines: string[] = [];
  lines.push('# Benchmarks', '');
  lines.push(
    `Generated by \`npm run bench\` (bench/run.ts) on ${results.date.slice(0, 10)} in ${Math.round(results.seconds)} s, against the built package (dist/). ` +
      'Every figure comes from a fresh `node` process. The plain-float reference (bench/reference.ts) runs the same formulas with ' +
      'hand-written validation, the same indexed dataset lookups, float arithmetic and the same output shape, with factor metadata ' +
      'cached per factor: it is the practical limit of this API in JavaScript. Ratio = reference rate / engine rate.',
    '',
  );
  lines.push('## Machine', '');
  lines.push(
    `- CPU: ${m.cpu}, ${m.cores} cores visible (shared with other work while measured, so expect ±15 % noise)`,
  );
  lines.push(`- Memory: ${m.memoryGb} GB; OS: ${m.os}`);
  lines.push(
    `- Node ${m.node} (V8 ${m.v8}); one core per measurement (JavaScript is single-threaded here)`,
    '',
  );

  lines.push('## Targets', '', '| target | measured | |', '|---|---|---|');
  lines.push(
    `| cpu batch ≥ ${rate(TARGETS.cpuBatchPerSec)} estimates/s | ${rate(cpuRate)}/s (100k batch) | ${met(cpuRate >= TARGETS.cpuBatchPerSec, `${(TARGETS.cpuBatchPerSec / cpuRate).toFixed(1)}× short`)} |`,
  );
  lines.push(
    `| spend batch ≥ ${rate(TARGETS.spendBatchPerSec)} estimates/s | ${rate(spendRate)}/s (100k batch) | ${met(spendRate >= TARGETS.spendBatchPerSec, `${(TARGETS.spendBatchPerSec / spendRate).toFixed(1)}× short`)} |`,
  );
  lines.push(
    `| ratio to plain float ≤ ${TARGETS.maxRatio}× | worst ${worstRatio.ratio.toFixed(1)}× (${worstRatio.label}); 100k batches: ${batchRatios.join(', ')} | ${met(worstRatio.ratio <= TARGETS.maxRatio, `${ratios.filter((row) => row.ratio > TARGETS.maxRatio).length} of ${ratios.length} measurements over`)} |`,
  );
  lines.push(
    `| cold start < ${TARGETS.coldStartMs} ms | ${ms(cold.coldStartMs as number)} (median of ${results.coldRange.length}) | ${met((cold.coldStartMs as number) < TARGETS.coldStartMs, `${((cold.coldStartMs as number) / TARGETS.coldStartMs).toFixed(1)}× over`)} |`,
    '',
  );

  lines.push(
    '## Single calls',
    '',
    '| calculator | engine /s | reference /s | ratio | max relative difference of co2e (reference vs exact) |',
    '|---|---:|---:|---:|---:|',
  );
  for (const row of results.singles as Array<Record<string, number | string>>) {
    const engine = row.engineOpsPerSec as number;
    const reference = row.referenceOpsPerSec as number;
    lines.push(
      `| ${row.calculator} | ${rate(engine)} | ${rate(reference)} | ${(reference / engine).toFixed(1)}× | ${(row.maxRelativeDifference as number).toExponential(1)} |`,
    );
  }
  lines.push('');

  lines.push(
    '## Batches',
    '',
    '| calculator | size | engine /s | reference /s | ratio | engine time | RSS with inputs | peak RSS after reference | peak RSS (engine) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of results.batches as Array<Record<string, number | string>>) {
    const engine = row.engineOpsPerSec as number;
    const reference = row.referenceOpsPerSec as number;
    lines.push(
      `| ${row.calculator} | ${size(row.size as number)} | ${rate(engine)} | ${rate(reference)} | ${(reference / engine).toFixed(1)}× | ${ms(row.engineMs as number)} | ${(row.rssWithInputsMb as number).toFixed(0)} MB | ${(row.rssAfterReferenceMb as number).toFixed(0)} MB | ${(row.peakRssMb as number).toFixed(0)} MB |`,
    );
  }
  for (const note of results.skippedMillion) lines.push('', `1M batch, ${note}.`);
  if (results.distinct !== undefined) {
    const row = results.distinct;
    lines.push(
      '',
      `Cache cliff: spend batches of ${size(row.size as number)} drawn from ${row.manyDistinct} distinct requests take ${(row.ratio as number).toFixed(2)}× the time per estimate of batches drawn from ${row.fewDistinct} (${ms(row.manyMs as number)} vs ${ms(row.fewMs as number)}, medians of 5 alternating runs in one process; target ≤ ${TARGETS.maxDistinctRatio}×: ${met((row.ratio as number) <= TARGETS.maxDistinctRatio, `${((row.ratio as number) / TARGETS.maxDistinctRatio).toFixed(2)}× over`)}).`,
    );
  }
  lines.push(
    '',
    'Peak RSS is `process.resourceUsage().maxRSS` of the measuring process: the inputs, the reference run, then the engine run with its results held.',
    '',
  );

  lines.push('## Cold start', '');
  lines.push(
    `Fresh \`node\` process: import \`co2e-engine\`, import \`co2e-engine/datasets\` (parse and index the embedded tables), first CPU estimate. Median of ${results.coldRange.length} runs (range ${ms(Math.min(...results.coldRange))} – ${ms(Math.max(...results.coldRange))}).`,
    '',
  );
  lines.push('| step | median |', '|---|---:|');
  lines.push(`| import \`co2e-engine\` | ${ms(cold.importRootMs as number)} |`);
  lines.push(`| import \`co2e-engine/datasets\` | ${ms(cold.importDatasetsMs as number)} |`);
  lines.push(`| first CPU estimate | ${ms(cold.firstCpuEstimateMs as number)} |`);
  lines.push(`| **cold start (sum)** | **${ms(cold.coldStartMs as number)}** |`);
  lines.push(`| first spend estimate, after that | ${ms(cold.firstSpendEstimateMs as number)} |`);
  lines.push(
    `| from process start (includes Node's own bootstrap) | ${ms(cold.sinceProcessStartMs as number)} |`,
    '',
  );
  lines.push('Diagnostics (fresh process each, median of 5):', '');
  lines.push(
    `- \`import('zod')\` alone: ${ms(results.diagnostics.zodImportMs as number)}; \`import('big.js')\` alone: ${ms(results.diagnostics.bigImportMs as number)}`,
  );
  lines.push(
    `- the root entry bundled into one file with zod and big.js (as an app bundler ships it): ${ms(results.diagnostics.bundledRootImportMs as number)}`,
  );
  lines.push(
    `- the datasets entry bundled into one file: ${ms(results.diagnostics.bundledDatasetsImportMs as number)}`,
    '',
  );

  lines.push('## Dataset build', '');
  lines.push(
    `- \`createTableDatasets(defaultTables)\` (zod validation of every embedded table, then indexing): ${ms(results.datasets.createTableDatasetsMs as number)} (median of ${results.datasets.runs})`,
  );
  lines.push(
    `- \`import('co2e-engine/datasets')\` (parse the embedded tables and index them, no validation): ${ms(cold.importDatasetsMs as number)} (cold start, above)`,
    '',
  );

  lines.push('## Profiles (generated)', '');
  lines.push(
    'V8 sampling profiles (via `node:inspector`) of exactly one engine batch, taken after three 2k warm-up batches, summarised by bench/profile.ts.',
    '',
  );
  for (const [name, summary] of Object.entries(results.profiles))
    lines.push(profileSection(name, summary), '');

  lines.push('## What limits it', '', keptAnalysis(), '');
  lines.push(keptSections(), '');
  return lines.join('\n');
}

if (process.argv.includes('--report')) {
  const results = JSON.parse(readFileSync(join(OUT, 'results.json'), 'utf8')) as Results & { quick: boolean };
  if (results.quick)
    throw new Error('bench/.out/results.json is from a quick run; run `npm run bench` first.');
  await writeReport(results);
} else {
  await main();
}
