import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ccfBatch, loadCcf } from './ccf';
import { compareBatches } from './compare';
import { acceptedBy, referenceCalls, ReferenceError } from './reference';
import {
  batchOf,
  type CalculatorName,
  type DatasetsModule,
  engineCalls,
  type Lib,
  PROVIDER,
  requestPool,
  variedBatch,
} from './workload';
import { median } from './statistics';

/**
 * One measurement in a fresh process (so heap state and peak RSS belong to it alone), printing one JSON line.
 * Bundled by bench/run.ts into bench/.out/worker.mjs; loads the built package from dist/.
 *
 *   worker.mjs <root> single <calculator>
 *   worker.mjs <root> batch <calculator> <size>
 *   worker.mjs <root> profile <calculator> <size> <out.cpuprofile>   (CPU profile of one engine batch)
 *   worker.mjs <root> distinct spend <size>   (per-estimate time: 30,000 distinct requests vs 2,048 distinct)
 *   worker.mjs <root> datasets
 *   worker.mjs <root> varied <calculator> <size> <rounds>   (varied vs reference, interleaved rounds; then pooled)
 *   worker.mjs <root> cold spend <size> <rounds>   (fresh datasets per batch: all-distinct vs 2,048 distinct)
 */

const [root = '.', task = '', kind = 'cpu', sizeArgument = '1000', profileFile = 'batch.cpuprofile'] =
  process.argv.slice(2);
const lib = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as Lib;
const data = (await import(pathToFileURL(join(root, 'dist', 'datasets.js')).href)) as DatasetsModule;
const datasets = data.defaultDatasets;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
/** CPU time of this process (user and system, all threads) in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs `run` at least once and until `minimumMs` have passed (at most `maxRuns` times); the median run time. */
function time(run: () => unknown, minimumMs: number, maxRuns = 50): { ms: number; runs: number } {
  const times: number[] = [];
  const started = performance.now();
  do {
    const before = performance.now();
    run();
    times.push(performance.now() - before);
  } while (performance.now() - started < minimumMs && times.length < maxRuns);
  return { ms: median(times), runs: times.length };
}

const co2eOf = (result: unknown): number | undefined => {
  const value = result as { co2e?: number; total_co2e?: number; estimate?: { co2e: number } };
  return value.total_co2e ?? value.estimate?.co2e ?? value.co2e;
};

function single(name: CalculatorName) {
  const pool = requestPool(lib, datasets, data.defaultTables, name);
  const engine = engineCalls(lib, datasets, name);
  const reference = referenceCalls(datasets, name, PROVIDER);
  // The reference computes the same formula: its co2e matches the engine's up to float rounding.
  let maxRelativeDifference = 0;
  for (const request of pool) {
    const exact = co2eOf(engine.single(request)) as number;
    const float = co2eOf(reference.single(request)) as number;
    const difference = exact === 0 ? Math.abs(float) : Math.abs(float - exact) / Math.abs(exact);
    maxRelativeDifference = Math.max(maxRelativeDifference, difference);
  }
  const loop = (call: (request: unknown) => unknown) => () => {
    for (const request of pool) call(request);
  };
  for (let warm = 0; warm < 3; warm++) {
    loop(engine.single)();
    loop(reference.single)();
  }
  const engineTime = time(loop(engine.single), 500);
  const referenceTime = time(loop(reference.single), 500);
  return {
    task: 'single',
    calculator: name,
    engineOpsPerSec: pool.length / (engineTime.ms / 1000),
    referenceOpsPerSec: pool.length / (referenceTime.ms / 1000),
    maxRelativeDifference,
  };
}

function batch(name: CalculatorName, size: number) {
  const pool = requestPool(lib, datasets, data.defaultTables, name);
  const engine = engineCalls(lib, datasets, name);
  const reference = referenceCalls(datasets, name, PROVIDER);
  const warmup = batchOf(pool, 2000);
  for (let warm = 0; warm < 3; warm++) {
    engine.batch(warmup);
    reference.batch(warmup);
  }
  const requests = batchOf(pool, size);
  collect();
  const rssWithInputsMb = maxRssMb();
  const minimumMs = size >= 100_000 ? 0 : 1000;

  let referenceResults: unknown[] | undefined;
  const referenceTime = time(() => (referenceResults = reference.batch(requests)), minimumMs);
  const referenceErrors = referenceResults?.filter((result) => result instanceof ReferenceError).length ?? -1;
  referenceResults = undefined;
  collect();
  const rssAfterReferenceMb = maxRssMb();

  let engineResults: unknown[] | undefined;
  const engineTime = time(() => (engineResults = engine.batch(requests)), minimumMs);
  const engineErrors = engineResults?.filter((result) => lib.isErrorBody(result)).length ?? -1;
  const heapWithResultsMb = process.memoryUsage().heapUsed / 1024 / 1024;
  engineResults = undefined;
  return {
    task: 'batch',
    calculator: name,
    size,
    engineMs: engineTime.ms,
    engineRuns: engineTime.runs,
    referenceMs: referenceTime.ms,
    engineOpsPerSec: size / (engineTime.ms / 1000),
    referenceOpsPerSec: size / (referenceTime.ms / 1000),
    engineErrors,
    referenceErrors,
    rssWithInputsMb,
    rssAfterReferenceMb,
    peakRssMb: maxRssMb(),
    heapWithResultsMb,
  };
}

/** Profiles exactly one engine batch of varied requests (V8's sampling profiler via the inspector, after a warm-up). */
async function profile(name: CalculatorName, size: number, file: string) {
  const engine = engineCalls(lib, datasets, name);
  const accept = acceptedBy(referenceCalls(datasets, name, PROVIDER));
  const warmup = variedBatch(datasets, data.defaultTables, name, 2_000, 1_000_003, accept);
  for (let warm = 0; warm < 3; warm++) engine.batch(warmup);
  const requests = variedBatch(datasets, data.defaultTables, name, size, 1, accept);
  collect();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const started = performance.now();
  engine.batch(requests);
  const engineMs = performance.now() - started;
  const { profile: cpuProfile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(cpuProfile));
  return { task: 'profile', calculator: name, size, engineMs };
}

/**
 * The cache cliff check: batches of `size` drawn from 2,048 vs 30,000 distinct requests (so from many more distinct
 * factor, currency and year keys), measured alternately in this one process so both share its state and load.
 */
function distinct(name: CalculatorName, size: number) {
  const engine = engineCalls(lib, datasets, name);
  const few = batchOf(requestPool(lib, datasets, data.defaultTables, name, 2_048), size);
  const many = batchOf(requestPool(lib, datasets, data.defaultTables, name, 30_000), size);
  engine.batch(few);
  engine.batch(many);
  const fewMs: number[] = [];
  const manyMs: number[] = [];
  for (let round = 0; round < 5; round++) {
    collect();
    fewMs.push(time(() => engine.batch(few), 0, 1).ms);
    collect();
    manyMs.push(time(() => engine.batch(many), 0, 1).ms);
  }
  return {
    task: 'distinct',
    calculator: name,
    size,
    fewDistinct: 2_048,
    manyDistinct: 30_000,
    fewMs: median(fewMs),
    manyMs: median(manyMs),
    ratio: median(manyMs) / median(fewMs),
  };
}

/**
 * The headline measurement: `rounds` batches of `size` varied requests, each round a fresh draw (so no request
 * repeats between rounds; factor caches stay warm, as in a long-running process), engine and reference
 * interleaved (alternating which goes first), medians reported. Round 0's results are compared deep-equal.
 * Then the pooled case (requests drawn from 2,048 distinct ones) the same way, as a secondary line.
 */
function varied(name: CalculatorName, size: number, rounds: number) {
  const engine = engineCalls(lib, datasets, name);
  const reference = referenceCalls(datasets, name, PROVIDER);
  const accept = acceptedBy(reference);
  const ccfCore = loadCcf();
  const ccf = ccfCore === undefined ? undefined : ccfBatch(ccfCore, datasets, name, PROVIDER);
  const warmup = variedBatch(datasets, data.defaultTables, name, 2_000, 1_000_003, accept);
  for (let warm = 0; warm < 3; warm++) {
    engine.batch(warmup);
    reference.batch(warmup);
    ccf?.(warmup);
  }
  let ccfMaxRelativeDifference = 0;
  const measure = (requests: unknown[], round: number, check: boolean) => {
    let engineMs = 0;
    let referenceMs = 0;
    let engineCpuMs = 0;
    let referenceCpuMs = 0;
    let ccfMs = 0;
    let engineResults: unknown[] | undefined;
    let referenceResults: unknown[] | undefined;
    const sides = ccf === undefined ? ['engine', 'reference'] : ['engine', 'reference', 'ccf'];
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const which of order) {
      collect();
      const cpuStarted = cpuMs();
      const started = performance.now();
      if (which === 'engine') engineResults = engine.batch(requests);
      else if (which === 'reference') referenceResults = reference.batch(requests);
      else {
        const co2e = (ccf as NonNullable<typeof ccf>)(requests as Array<Record<string, unknown>>);
        ccfMs = performance.now() - started;
        if (check && engineResults !== undefined) {
          engineResults.forEach((result, index) => {
            const exact = co2eOf(result) as number;
            const float = co2e[index] as number;
            const difference = exact === 0 ? Math.abs(float) : Math.abs(float - exact) / Math.abs(exact);
            ccfMaxRelativeDifference = Math.max(ccfMaxRelativeDifference, difference);
          });
        }
        continue;
      }
      const elapsed = performance.now() - started;
      const cpuElapsed = cpuMs() - cpuStarted;
      if (which === 'engine') {
        engineMs = elapsed;
        engineCpuMs = cpuElapsed;
      } else {
        referenceMs = elapsed;
        referenceCpuMs = cpuElapsed;
      }
      if (!check) {
        engineResults = undefined;
        referenceResults = undefined;
      }
    }
    const comparison = check ? compareBatches(engineResults ?? [], referenceResults ?? []) : undefined;
    return { engineMs, referenceMs, engineCpuMs, referenceCpuMs, ccfMs, comparison };
  };
  type Round = { engineMs: number; referenceMs: number; engineCpuMs: number; referenceCpuMs: number };
  const variedRounds: Array<Round & { ccfMs: number }> = [];
  let comparison: ReturnType<typeof compareBatches> | undefined;
  for (let round = 0; round < rounds; round++) {
    const requests = variedBatch(datasets, data.defaultTables, name, size, round + 1, accept);
    const result = measure(requests, round, round === 0);
    comparison ??= result.comparison;
    variedRounds.push(result);
  }
  const ccfSummary =
    ccf === undefined
      ? { measured: ccfCore === undefined ? 'not installed' : 'no such estimator' }
      : {
          measured: 'yes',
          ccfMs: median(variedRounds.map((row) => row.ccfMs)),
          ccfOpsPerSec: size / (median(variedRounds.map((row) => row.ccfMs)) / 1000),
          ratio: median(variedRounds.map((row) => row.engineMs / row.ccfMs)),
          maxRelativeDifference: ccfMaxRelativeDifference,
        };
  const pool = requestPool(lib, datasets, data.defaultTables, name);
  const pooled = batchOf(pool, size);
  const pooledRounds: Round[] = [];
  let pooledComparison: ReturnType<typeof compareBatches> | undefined;
  for (let round = 0; round < 2; round++) {
    const result = measure(pooled, round, round === 0);
    pooledComparison ??= result.comparison;
    pooledRounds.push(result);
  }
  const summary = (list: Round[]) => {
    const engineMs = median(list.map((row) => row.engineMs));
    const referenceMs = median(list.map((row) => row.referenceMs));
    return {
      engineMs,
      referenceMs,
      engineOpsPerSec: size / (engineMs / 1000),
      referenceOpsPerSec: size / (referenceMs / 1000),
      // The ratio of each round, then their median: the two sides of one round share the machine's load.
      ratio: median(list.map((row) => row.engineMs / row.referenceMs)),
      firstRoundRatio: (list[0]?.engineMs ?? 0) / (list[0]?.referenceMs ?? 1),
      // The same by the process's CPU time (all its threads, the collector's included), which other processes on a
      // shared machine do not inflate as they inflate wall time.
      cpuRatio: median(list.map((row) => row.engineCpuMs / row.referenceCpuMs)),
      rounds: list.length,
    };
  };
  return {
    task: 'varied',
    calculator: name,
    size,
    varied: summary(variedRounds),
    pooled: summary(pooledRounds),
    ccf: ccfSummary,
    comparison: { ...comparison, first: JSON.stringify(comparison?.first ?? []).slice(0, 2000) },
    pooledComparison: {
      ...pooledComparison,
      first: JSON.stringify(pooledComparison?.first ?? []).slice(0, 2000),
    },
  };
}

/**
 * Cold caches: each batch runs against freshly built datasets (so empty caches), one of `size` all-distinct
 * varied requests, one of `size` drawn from 2,048 distinct varied requests, alternating, `rounds` each.
 */
function cold(name: CalculatorName, size: number, rounds: number) {
  const reference = referenceCalls(datasets, name, PROVIDER);
  const accept = acceptedBy(reference);
  const many = variedBatch(datasets, data.defaultTables, name, size, 77, accept);
  const few = batchOf(variedBatch(datasets, data.defaultTables, name, 2_048, 78, accept), size);
  const warm = variedBatch(datasets, data.defaultTables, name, 2_000, 79, accept);
  for (let index = 0; index < 3; index++)
    engineCalls(lib, lib.createTableDatasets(data.defaultTables), name).batch(warm);
  const manyMs: number[] = [];
  const fewMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const which of round % 2 === 0 ? ['many', 'few'] : ['few', 'many']) {
      const fresh = engineCalls(lib, lib.createTableDatasets(data.defaultTables), name);
      const requests = which === 'many' ? many : few;
      collect();
      const started = performance.now();
      fresh.batch(requests);
      (which === 'many' ? manyMs : fewMs).push(performance.now() - started);
    }
  }
  return {
    task: 'cold',
    calculator: name,
    size,
    manyDistinct: size,
    fewDistinct: 2_048,
    manyMs: median(manyMs),
    fewMs: median(fewMs),
    ratio: median(manyMs.map((value, index) => value / (fewMs[index] as number))),
    rounds,
  };
}

function datasetBuild() {
  const validateAndIndex = time(() => lib.createTableDatasets(data.defaultTables), 2000, 15);
  return { task: 'datasets', createTableDatasetsMs: validateAndIndex.ms, runs: validateAndIndex.runs };
}

const size = Number(sizeArgument);
const rounds = Number(profileFile) || 5;
const name = kind as CalculatorName;
const result =
  task === 'single'
    ? single(name)
    : task === 'batch'
      ? batch(name, size)
      : task === 'profile'
        ? await profile(name, size, profileFile)
        : task === 'distinct'
          ? distinct(name, size)
          : task === 'datasets'
            ? datasetBuild()
            : task === 'varied'
              ? varied(name, size, rounds)
              : task === 'cold'
                ? cold(name, size, rounds)
                : undefined;
if (result === undefined) throw new Error(`unknown task '${task}'`);
console.log(JSON.stringify({ ...result, maxRssMb: maxRssMb() }));
