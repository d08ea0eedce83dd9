import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { HEADER as FOCUS_HEADER, focusLine } from './cli-focus';
import { spendLedger } from './cli-ledger';
import { median } from './statistics';

/**
 * `npm run bench:cli` (after the build it runs first): the `spend` and `billing` commands against the in-process
 * library over the same file, parse included (bench/cli-inprocess.ts: csv-parse's stream, then the built library),
 * and `--jobs 1` against `--jobs 2`, interleaved per repetition so the ratios hold on a shared machine even when the
 * absolute rates do not; then peak RSS at 100k and 1M rows per job count. Files: a varied spend ledger (every row
 * draws its code, region, currency, year, amount and margins) and a generated FOCUS bill. Writes
 * bench/.out/cli-results.json and the results section of bench/cli.md (its analysis block is kept).
 *
 * Environment: BENCH_QUICK=1 for 20k and 100k rows (bench/cli.md left unchanged); BENCH_ROWS=n rows for the ratios; BENCH_REPS=n repetitions of the
 * ratio runs (default 5). `tsx bench/cli.ts --report` rewrites the section from the last full run's JSON.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out', 'cli');
const QUICK = process.env.BENCH_QUICK === '1';
const RATIO_ROWS = Number(process.env.BENCH_ROWS ?? (QUICK ? 20_000 : 100_000));
if (!Number.isInteger(RATIO_ROWS / 2) || RATIO_ROWS < 2)
  throw new Error(
    `BENCH_ROWS must be an even number of rows (the file also runs as two halves): ${RATIO_ROWS}`,
  );
const RSS_ROWS = QUICK ? [20_000, 100_000] : [100_000, 1_000_000];
const REPS = Number(process.env.BENCH_REPS ?? 5);
const JOBS = [1, 2] as const;
/** Short files, whole process, where a worker's start-up weighs most (`--jobs` default against 1 and 2). */
const SHORT_ROWS = QUICK ? [5_000] : [5_000, 20_000, 50_000];
const KINDS = ['spend', 'billing'] as const;
type Kind = (typeof KINDS)[number];
const log = (message: string) => process.stderr.write(`${message}\n`);

/** Targets of issue 24 item 3. */
const TARGET = { jobs1: 0.8, jobs2: 1.6, rss: 1.3 };

/** Writes rows `from` to `to` (1-based, inclusive) of a generated file, unless the file is there already. */
function writeLines(
  path: string,
  header: string,
  [from, to]: readonly [number, number],
  line: (index: number) => string,
): string {
  if (existsSync(path)) return path;
  const fd = openSync(path, 'w');
  let text = `${header}\n`;
  for (let index = from; index <= to; index++) {
    text += `${line(index)}\n`;
    if (text.length > 1_000_000) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, text);
  closeSync(fd);
  return path;
}

/** The input file of `rows` rows; `half` 1 or 2: its first or second half (together, the same rows). */
function input(kind: Kind, rows: number, half?: 1 | 2): string {
  const range = (
    half === undefined ? [1, rows] : half === 1 ? [1, rows / 2] : [rows / 2 + 1, rows]
  ) as readonly [number, number];
  const name = `${rows}${half === undefined ? '' : `-half${half}`}.csv`;
  if (kind === 'billing')
    return writeLines(join(OUT, `focus-${name}`), FOCUS_HEADER.join(','), range, focusLine);
  const { header, line } = spendLedger();
  return writeLines(join(OUT, `ledger-varied-${name}`), header, range, line);
}

function inProcess(kind: Kind, file: string): { rowsPerSec: number; cpuRowsPerSec: number } {
  const stdout = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'cli-inprocess.ts'), kind, file],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { rowsPerSec: number; cpuRowsPerSec: number };
}

interface CliRun {
  /** The rate the CLI's summary prints: first row read to last row written. */
  runRowsPerSec: number;
  wallRowsPerSec: number;
  maxRssMb: number;
  /** CPU time of all threads ÷ wall time. */
  coresUsed: number;
  /** CPU seconds of all threads, start-up included. */
  cpuSeconds: number;
}

/** One CLI run; `jobs` undefined runs it without `--jobs` (the default). */
function cli(kind: Kind, file: string, rows: number, jobs: number | undefined): CliRun {
  const out = join(OUT, `out-${kind}-${rows}-${jobs ?? 'default'}.csv`);
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      join(ROOT, 'bench', 'cli-usage.mjs'),
      join(ROOT, 'dist', 'cli.js'),
      kind,
      file,
      '--out',
      out,
      '--force',
      ...(jobs === undefined ? [] : ['--jobs', String(jobs)]),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0 && run.status !== 1) throw new Error(`the CLI exited ${run.status}: ${run.stderr}`);
  const usage = JSON.parse(/bench-usage (\{.*\})/.exec(run.stderr)?.[1] ?? '{}') as {
    maxRssKb: number;
    cpuMicros: number;
  };
  const summary = /(\d+) rows, (\d+) failed, ([\d.]+) s \((\d+) rows\/s\)/.exec(run.stderr);
  if (summary === null || Number(summary[1]) !== rows) throw new Error(`unexpected summary: ${run.stderr}`);
  return {
    runRowsPerSec: Number(summary[4]),
    wallRowsPerSec: rows / wall,
    maxRssMb: usage.maxRssKb / 1024,
    coresUsed: usage.cpuMicros / 1e6 / wall,
    cpuSeconds: usage.cpuMicros / 1e6,
  };
}

/**
 * Two `--jobs 1` runs at once, as separate processes (own outputs), each on its own file of `rowsEach` rows: rows
 * per second of the pair, both files' rows over the slower run's time (each run's rows over the rate its summary
 * prints). Nothing is shared between them (start-up, warm-up, caches) and nothing is handed over, so this is what
 * two threads can do on this machine: given the same file twice, for a long run; given a file's two halves, for
 * that file split in two, as `--jobs 2` splits it (each half then repays its own start-up and warm-up over half the
 * rows).
 */
async function cliPair(kind: Kind, files: readonly [string, string], rowsEach: number): Promise<number> {
  const one = (index: 0 | 1) =>
    new Promise<number>((resolve, reject) => {
      const out = join(OUT, `out-${kind}-${rowsEach}-pair${index}.csv`);
      const child = spawn(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), kind, files[index], '--out', out, '--force', '--jobs', '1'],
        { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      child.on('error', reject);
      child.on('close', () => {
        const summary = /(\d+) rows, (\d+) failed, ([\d.]+) s \((\d+) rows\/s\)/.exec(stderr);
        if (summary === null || Number(summary[1]) !== rowsEach)
          reject(new Error(`unexpected summary: ${stderr}`));
        else resolve(rowsEach / Number(summary[4]));
      });
    });
  const seconds = await Promise.all([one(0), one(1)]);
  return (2 * rowsEach) / Math.max(...seconds);
}

interface Results {
  date: string;
  cpu: string;
  cores: number;
  load: { before: number[]; after: number[] };
  seconds: number;
  ratioRows: number;
  ratios: Record<
    Kind,
    {
      inProcess: number;
      /** In-process rows per CPU second, and the CLI's (`--jobs 1`, start-up CPU of a 1-row run taken off). */
      inProcessCpu: number;
      cliCpu: number;
      jobs: Record<number, CliRun>;
      /** Rows per second of two `--jobs 1` processes run side by side on the whole file each ({@link cliPair}). */
      pair?: number;
      /** The same, each process on one half of the file: the ceiling of `--jobs 2` on it ({@link cliPair}). */
      split?: number;
    }
  >;
  rss: Record<Kind, Record<number, Record<number, number>>>;
  /**
   * Short files, whole process (start to exit, seconds, medians): `--jobs 1`, the default (workers only for a long
   * input) and `--jobs 2`, per command and row count.
   */
  short?: Record<Kind, Record<number, { one: number; auto: number; two: number }>>;
  /** The runs at the largest RSS size (one each), for `--jobs 2` ÷ `--jobs 1` there: rate and CPU seconds. */
  large?: Record<Kind, Record<number, { runRowsPerSec: number; cpuSeconds: number; coresUsed: number }>>;
}

async function measure(): Promise<Results> {
  const started = Date.now();
  const before = loadavg();
  const ratios = {} as Results['ratios'];
  for (const kind of KINDS) {
    const file = input(kind, RATIO_ROWS);
    const startup = median([1, 2, 3].map(() => cli(kind, input(kind, 1), 1, 1).cpuSeconds));
    const references: number[] = [];
    const referencesCpu: number[] = [];
    const runs: Record<number, CliRun[]> = { 1: [], 2: [] };
    const halves = [input(kind, RATIO_ROWS, 1), input(kind, RATIO_ROWS, 2)] as const;
    const pairs: number[] = [];
    const splits: number[] = [];
    for (let repetition = 0; repetition < REPS; repetition++) {
      log(
        `${kind} ${RATIO_ROWS} rows, repetition ${repetition + 1}: in-process, --jobs 1, --jobs 2, two --jobs 1 at once on the file and on its halves`,
      );
      const reference = inProcess(kind, file);
      references.push(reference.rowsPerSec);
      referencesCpu.push(reference.cpuRowsPerSec);
      for (const jobs of JOBS) runs[jobs]?.push(cli(kind, file, RATIO_ROWS, jobs));
      pairs.push(await cliPair(kind, [file, file], RATIO_ROWS));
      splits.push(await cliPair(kind, halves, RATIO_ROWS / 2));
    }
    const pick = (all: CliRun[]): CliRun => ({
      runRowsPerSec: median(all.map((run) => run.runRowsPerSec)),
      wallRowsPerSec: median(all.map((run) => run.wallRowsPerSec)),
      maxRssMb: Math.max(...all.map((run) => run.maxRssMb)),
      coresUsed: median(all.map((run) => run.coresUsed)),
      cpuSeconds: median(all.map((run) => run.cpuSeconds)),
    });
    ratios[kind] = {
      inProcess: median(references),
      inProcessCpu: median(referencesCpu),
      cliCpu: median(runs[1]!.map((run) => RATIO_ROWS / (run.cpuSeconds - startup))),
      jobs: { 1: pick(runs[1]!), 2: pick(runs[2]!) },
      pair: median(pairs),
      split: median(splits),
    };
    log(JSON.stringify(ratios[kind]));
  }
  const short = {} as NonNullable<Results['short']>;
  for (const kind of KINDS) {
    short[kind] = {};
    for (const rows of SHORT_ROWS) {
      const file = input(kind, rows);
      const runs: Record<'one' | 'auto' | 'two', number[]> = { one: [], auto: [], two: [] };
      log(`${kind} ${rows} rows: whole process with --jobs 1, the default and --jobs 2`);
      for (let repetition = 0; repetition < REPS; repetition++) {
        runs.one.push(rows / cli(kind, file, rows, 1).wallRowsPerSec);
        runs.auto.push(rows / cli(kind, file, rows, undefined).wallRowsPerSec);
        runs.two.push(rows / cli(kind, file, rows, 2).wallRowsPerSec);
      }
      short[kind][rows] = { one: median(runs.one), auto: median(runs.auto), two: median(runs.two) };
    }
  }
  const rss = {} as Results['rss'];
  const large = {} as NonNullable<Results['large']>;
  const largest = Math.max(...RSS_ROWS);
  for (const kind of KINDS) {
    rss[kind] = {};
    large[kind] = {};
    for (const rows of RSS_ROWS) {
      const file = input(kind, rows);
      rss[kind][rows] = {};
      for (const jobs of JOBS) {
        log(`${kind} ${rows} rows, --jobs ${jobs}: peak RSS`);
        const run = cli(kind, file, rows, jobs);
        rss[kind][rows]![jobs] = Math.round(run.maxRssMb);
        if (rows === largest)
          large[kind][jobs] = {
            runRowsPerSec: run.runRowsPerSec,
            cpuSeconds: run.cpuSeconds,
            coresUsed: run.coresUsed,
          };
      }
    }
  }
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: availableParallelism(),
    load: { before, after: loadavg() },
    seconds: (Date.now() - started) / 1000,
    ratioRows: RATIO_ROWS,
    ratios,
    rss,
    large,
    short,
  };
}

const k = (value: number) => `${(value / 1000).toFixed(1)}k`;
/** "met", or how far short: the figure and the target, and the shortfall as a share of the target. */
const verdict = (value: number, target: number, higherIsBetter = true) => {
  const met = higherIsBetter ? value >= target : value <= target;
  const short = Math.round((Math.abs(value - target) / target) * 100);
  return met ? 'met' : `missed by ${short < 1 ? '<1' : short} %`;
};
/** A rate ÷ another (`1.51×`); `–` for older results without it. */
const times = (rate: number | undefined, by: number | undefined) =>
  rate === undefined || by === undefined ? '–' : `${(rate / by).toFixed(2)}×`;
const rows = (value: number) => (value >= 1e6 ? `${value / 1e6}M` : `${value / 1e3}k`);

function section(results: Results): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ');
  const lines = [
    '<!-- bench:cli:start -->',
    '',
    `Generated by \`npm run bench:cli\` (bench/cli.ts) on ${results.date} UTC in ${Math.round(results.seconds)} s, ${results.cpu}, ${results.cores} cores; load average (1 / 5 / 15 min) ${load(results.load.before)} before and ${load(results.load.after)} after: the machine was shared, so read the ratios (measured interleaved in the same run, medians of ${REPS}), not the absolute rates.`,
    '',
    `In-process = bench/cli-inprocess.ts: the same file read with csv-parse's stream and computed with the built library in one process (\`calculateSpendBatch\` per 1,000 rows; the billing estimator and summary per row), timed from the first byte to the last row. CLI = \`node dist/cli.js KIND FILE --out FILE --jobs J\`, at the rate its summary prints (first row read to last row written). "Per CPU second": rows per CPU second of all threads (garbage collection helpers included), the CLI's start-up CPU (a 1-row run) taken off; a busy machine disturbs it far less than wall time. ${rows(results.ratioRows)} rows: the varied spend ledger (bench/cli-ledger.ts: every row draws its ISIC code and region, currency, year, amount and margins) and the FOCUS bill (bench/cli-focus.ts).`,
    '',
    '| command | in-process /s | `--jobs 1` /s | `--jobs 1` ÷ in-process, wall (target ≥ 0.8) | same, per CPU second | `--jobs 2` /s | `--jobs 2` ÷ `--jobs 1` (target ≥ 1.6) | cores used, `--jobs 2` |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const kind of KINDS) {
    const { inProcess: reference, inProcessCpu, cliCpu, jobs } = results.ratios[kind];
    const cpuRatio = cliCpu / inProcessCpu;
    const one = jobs[1]!;
    const two = jobs[2]!;
    const ratio = one.runRowsPerSec / reference;
    const scale = two.runRowsPerSec / one.runRowsPerSec;
    lines.push(
      `| ${kind} | ${k(reference)} | ${k(one.runRowsPerSec)} | ${ratio.toFixed(2)} (${verdict(ratio, TARGET.jobs1)}) | ${cpuRatio.toFixed(2)} (${verdict(cpuRatio, TARGET.jobs1)}) | ${k(two.runRowsPerSec)} | ${scale.toFixed(2)}× (${verdict(scale, TARGET.jobs2)}) | ${two.coresUsed.toFixed(2)} |`,
    );
  }
  lines.push(
    '',
    `What two threads can do on this machine, measured in the same rounds: two \`--jobs 1\` processes at once, sharing nothing, each on the whole ${rows(results.ratioRows)}-row file (a long run's ceiling, each warm-up repaid over all the rows), and each on one half of it (the ceiling of this file split in two, as \`--jobs 2\` splits it: each half repays its own start-up and warm-up over half the rows). Rows per second of a pair: both files' rows over the slower run's time.`,
    '',
    '| command | `--jobs 2` ÷ `--jobs 1` | two `--jobs 1` at once, the whole file each, ÷ one | two `--jobs 1` at once, half the file each, ÷ one | `--jobs 2` ÷ the halves |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const kind of KINDS) {
    const { jobs, pair, split } = results.ratios[kind];
    const one = jobs[1]!.runRowsPerSec;
    const two = jobs[2]!.runRowsPerSec;
    lines.push(
      `| ${kind} | ${times(two, one)} | ${times(pair, one)} | ${times(split, one)} | ${times(two, split)} |`,
    );
  }
  const [small, large] = RSS_ROWS as [number, number];
  if (results.large !== undefined) {
    const seconds = (value: number) => `${value.toFixed(2)} s`;
    lines.push(
      '',
      `\`--jobs 2\` ÷ \`--jobs 1\` by file length, with the CPU seconds of all threads (start-up included): a fixed cost of the workers (start-up, dataset import, warm-up) shows as extra CPU that stays the same from ${rows(results.ratioRows)} to ${rows(large)} rows, a per-row cost as extra CPU that grows with the rows. ${rows(results.ratioRows)}: the medians above; ${rows(large)}: one run each, from the peak RSS runs below.`,
      '',
      '| command | rows | `--jobs 1` /s | `--jobs 2` /s | `--jobs 2` ÷ `--jobs 1` (target ≥ 1.6) | CPU, `--jobs 1` | CPU, `--jobs 2` | extra CPU of `--jobs 2` | cores used, `--jobs 2` |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const kind of KINDS) {
      const sized = [
        [results.ratioRows, results.ratios[kind].jobs[1]!, results.ratios[kind].jobs[2]!],
        [large, results.large[kind][1]!, results.large[kind][2]!],
      ] as const;
      for (const [count, one, two] of sized) {
        const scale = two.runRowsPerSec / one.runRowsPerSec;
        lines.push(
          `| ${kind} | ${rows(count)} | ${k(one.runRowsPerSec)} | ${k(two.runRowsPerSec)} | ${scale.toFixed(2)}× (${verdict(scale, TARGET.jobs2)}) | ${seconds(one.cpuSeconds)} | ${seconds(two.cpuSeconds)} | ${seconds(two.cpuSeconds - one.cpuSeconds)} (${Math.round(((two.cpuSeconds - one.cpuSeconds) / one.cpuSeconds) * 100)} %) | ${two.coresUsed.toFixed(2)} |`,
        );
      }
    }
  }
  if (results.short !== undefined) {
    const seconds = (value: number) => `${value.toFixed(2)} s`;
    lines.push(
      '',
      'Short files, the whole process from start to exit (medians): without `--jobs` (the default: workers only when 100,000 rows or more are expected) against `--jobs 1` and `--jobs 2`.',
      '',
      '| command | rows | `--jobs 1` | default | default ÷ `--jobs 1` | `--jobs 2` | `--jobs 2` ÷ `--jobs 1` |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const kind of KINDS)
      for (const [count, { one, auto, two }] of Object.entries(results.short[kind]))
        lines.push(
          `| ${kind} | ${rows(Number(count))} | ${seconds(one)} | ${seconds(auto)} | ${(auto / one).toFixed(2)} | ${seconds(two)} | ${(two / one).toFixed(2)} |`,
        );
  }
  lines.push(
    '',
    `Peak RSS of the whole CLI process (all threads), ${rows(small)} and ${rows(large)} rows (target: the larger within 1.3× of the smaller, per job count):`,
    '',
    `| command | \`--jobs\` | ${rows(small)} rows | ${rows(large)} rows | ratio |`,
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const kind of KINDS)
    for (const jobs of JOBS) {
      const a = results.rss[kind][small]![jobs]!;
      const b = results.rss[kind][large]![jobs]!;
      lines.push(
        `| ${kind} | ${jobs} | ${a} MB | ${b} MB | ${(b / a).toFixed(2)}× (${verdict(b / a, TARGET.rss, false)}) |`,
      );
    }
  lines.push('', '<!-- bench:cli:end -->');
  return lines.join('\n');
}

async function writeSection(text: string) {
  const file = join(ROOT, 'bench', 'cli.md');
  const start = '<!-- bench:cli:start -->';
  const end = '<!-- bench:cli:end -->';
  let markdown = existsSync(file)
    ? readFileSync(file, 'utf8')
    : `# The CLI near the engine (\`npm run bench:cli\`)\n\n${start}\n${end}\n`;
  markdown =
    markdown.slice(0, markdown.indexOf(start)) + text + markdown.slice(markdown.indexOf(end) + end.length);
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(markdown, { ...options, filepath: file }));
}

async function main() {
  const saved = join(ROOT, 'bench', '.out', QUICK ? 'cli-results-quick.json' : 'cli-results.json');
  if (process.argv.includes('--report')) {
    await writeSection(section(JSON.parse(readFileSync(saved, 'utf8')) as Results));
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    throw new Error('Run `npm run build` first (`npm run bench:cli` does).');
  mkdirSync(OUT, { recursive: true });
  const results = await measure();
  writeFileSync(saved, JSON.stringify(results, null, 2));
  log(section(results));
  if (QUICK) {
    log('quick run: bench/cli.md left unchanged');
    return;
  }
  await writeSection(section(results));
  log('wrote the results section of bench/cli.md');
}

await main();
