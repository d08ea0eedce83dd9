import { createRequire, register } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The engine beside Cloud Carbon Footprint's own estimators (`@cloud-carbon-footprint/core` 1.0.0) on the yardstick's
 * varied requests: ../shared/bench's request generators and CCF glue (ComputeEstimator for cpu; Compute, Memory and
 * EmbodiedEmissions estimators for instance), the built engine's batch calculators. One untimed round each, then
 * interleaved rounds, gc before each side; the ratio is the median of the per-round engine/CCF time ratios. co2e (cpu)
 * and total_co2e (instance) are compared. Prints one JSON line per calculator. Needs `node --expose-gc`, the build,
 * ../shared/bench and CCF's core (`npm i --no-save @cloud-carbon-footprint/core@1.0.0`, or BENCH_CCF_CORE=path):
 *   node --expose-gc bench/ccf-varied.mjs [requests] [rounds]
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SHARED = join(ROOT, '..', 'shared', 'bench');
const N = Number(process.argv[2] ?? 30_000);
const ROUNDS = Number(process.argv[3] ?? 5);
/** varied.mjs's seeds, so the requests are the yardstick's own. */
const SEEDS = { cpu: 11, instance: 22 };

const corePath = createRequire(import.meta.url).resolve(
  process.env.BENCH_CCF_CORE ?? '@cloud-carbon-footprint/core',
);
register('./ccf-resolve.mjs', import.meta.url, { data: { url: pathToFileURL(corePath).href } });

const { load } = await import(pathToFileURL(join(SHARED, 'load.mjs')).href);
const reference = await import(pathToFileURL(join(SHARED, 'reference.mjs')).href);
const lib = await load('.');
const { defaultDatasets: datasets } = await load('./datasets');
const glue = await reference.ccfGlue();
const gc = globalThis.gc;
const median = (values) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1];

for (const kind of ['cpu', 'instance']) {
  const requests = reference.cloudRequests(kind, N, SEEDS[kind], lib, datasets);
  const engineBatch = lib[kind === 'cpu' ? 'calculateCpuBatch' : 'calculateInstanceBatch'];
  const ccfBatch = reference.batchOf(kind === 'cpu' ? glue.ccfCpu : glue.ccfInstance);
  const engine = () => reference.PROVIDERS.flatMap((p) => engineBatch(p, requests[p], datasets));
  const ccf = () => reference.PROVIDERS.flatMap((p) => ccfBatch(p, requests[p]));
  const co2e = (result) => result.co2e ?? result.total_co2e ?? Number.NaN;
  const [e, c] = [engine(), ccf()];
  // Results within 1e-12 of CCF's, and the largest difference (the engine's instance model goes beyond CCF's glue
  // for some types: GPUs, charged memory, derived embodied figures).
  let maxRelativeDifference = 0;
  let agreeing = 0;
  for (let index = 0; index < e.length; index++) {
    const [x, y] = [co2e(e[index]), co2e(c[index])];
    const difference = x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y));
    maxRelativeDifference = Math.max(maxRelativeDifference, difference);
    if (difference <= 1e-12) agreeing++;
  }
  const ratios = [];
  const load0 = loadavg()[0];
  for (let round = 0; round < ROUNDS; round++) {
    const times = {};
    for (const [name, run] of round % 2
      ? [
          ['ccf', ccf],
          ['engine', engine],
        ]
      : [
          ['engine', engine],
          ['ccf', ccf],
        ]) {
      gc?.();
      const started = performance.now();
      run();
      times[name] = performance.now() - started;
    }
    ratios.push(times.engine / times.ccf);
  }
  console.log(
    JSON.stringify({
      kind,
      n: N,
      ratio: median(ratios),
      ratios,
      maxRelativeDifference,
      agreeing,
      load: load0,
    }),
  );
}
