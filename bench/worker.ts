import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { referenceCalls, ReferenceError } from './reference';
import {
  batchOf,
  type CalculatorName,
  type DatasetsModule,
  engineCalls,
  type Lib,
  PROVIDER,
  requestPool,
} from './workload';

/**
 * One measurement in a fresh process (so heap state and peak RSS belong to it alone), printing one JSON line.
 * Bundled by bench/run.ts into bench/.out/worker.mjs; loads the built package from dist/.
 *
 *   worker.mjs <root> single <calculator>
 *   worker.mjs <root> batch <calculator> <size>
 *   worker.mjs <root> profile <calculator> <size> <out.cpuprofile>   (CPU profile of one engine batch)
 *   worker.mjs <root> distinct spend <size>   (per-estimate time: 30,000 distinct requests vs 2,048 distinct)
 *   worker.mjs <root> datasets
 */

const [root = '.', task = '', kind = 'cpu', sizeArgument = '1000', profileFile = 'batch.cpuprofile'] =
  process.argv.slice(2);
const lib = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as Lib;
const data = (await import(pathToFileURL(join(root, 'dist', 'datasets.js')).href)) as DatasetsModule;
const datasets = data.defaultDatasets;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

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
  const engineTime = time(loop(engine.single), 1500);
  const referenceTime = time(loop(reference.single), 1500);
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

/** Profiles exactly one engine batch (V8's sampling profiler via the inspector, started after the warm-up). */
async function profile(name: CalculatorName, size: number, file: string) {
  const pool = requestPool(lib, datasets, data.defaultTables, name);
  const engine = engineCalls(lib, datasets, name);
  for (let warm = 0; warm < 3; warm++) engine.batch(batchOf(pool, 2000));
  const requests = batchOf(pool, size);
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

function datasetBuild() {
  const validateAndIndex = time(() => lib.createTableDatasets(data.defaultTables), 2000, 15);
  return { task: 'datasets', createTableDatasetsMs: validateAndIndex.ms, runs: validateAndIndex.runs };
}

const size = Number(sizeArgument);
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
            : undefined;
if (result === undefined) throw new Error(`unknown task '${task}'`);
console.log(JSON.stringify({ ...result, maxRssMb: maxRssMb() }));
