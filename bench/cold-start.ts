import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatasetsModule, Lib } from './workload';

/**
 * Cold start in a fresh `node` process: import the root entry, import the default datasets (parse and index the
 * embedded tables), then the first CPU estimate and the first spend estimate. Bundled by bench/run.ts into
 * bench/.out/cold-start.mjs; prints one JSON line of milliseconds.
 */

const root = process.argv[2] ?? '.';
const start = performance.now();
const lib = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as Lib;
const rootImported = performance.now();
const { defaultDatasets } = (await import(
  pathToFileURL(join(root, 'dist', 'datasets.js')).href
)) as DatasetsModule;
const datasetsReady = performance.now();
lib.calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, defaultDatasets);
const firstCpu = performance.now();
lib.calculateSpend(
  {
    activity: { classification_type: 'isic4', classification_code: '4711' },
    spend_year: 2023,
    spend_region: 'DE',
    money: 1000,
    money_unit: 'eur',
  },
  defaultDatasets,
);
const firstSpend = performance.now();

console.log(
  JSON.stringify({
    importRootMs: rootImported - start,
    importDatasetsMs: datasetsReady - rootImported,
    firstCpuEstimateMs: firstCpu - datasetsReady,
    /** Import + datasets ready + first estimate: the cold-start figure. */
    coldStartMs: firstCpu - start,
    firstSpendEstimateMs: firstSpend - firstCpu,
    /** From process start (performance.timeOrigin), so including Node's own bootstrap. */
    sinceProcessStartMs: firstCpu,
  }),
);
