import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { format, resolveConfig } from 'prettier';
import { defaultDatasets } from '../src/embedded/index';
import { createNodeListener } from '../src/http/index';
import { numberFlag, ROOT, sleep } from './http-common';

/**
 * `npm run bench:heap`: whether a server's live heap levels off under varied requests. bench/soak.ts sends the same
 * few requests again and again, so caches keyed by what clients send (utilisations, currencies, codes, the
 * writer's pieces) never grow there. Here `createNodeListener` serves in this process (run with `--expose-gc`) while
 * a worker thread (bench/heap-soak-load.ts) sends requests whose every value is drawn afresh, for `--duration <s>`
 * (default 240) with `--clients <n>` (default 8). Every `--sample <s>` (default 15) the heap is read after a forced
 * collection: RSS alone would mislead, since under such load V8 holds hundreds of MB of garbage between major
 * collections. The caches fill in the first half; passes when the heap grows by at most 0.5 MB a minute over the
 * second (the three unbounded caches of 2026-11-29 grew it by about 1 MB a minute); writes bench/heap-soak.md and
 * exits 1 otherwise.
 */

const DURATION = numberFlag('duration', 240);
const CLIENTS = numberFlag('clients', 8);
const SAMPLE = numberFlag('sample', 15);
/** MB a minute over the second half of the run. */
const GROWTH_ALLOWED = 0.5;

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with node --expose-gc (npm run bench:heap does)');
const liveMb = () => {
  collect();
  return process.memoryUsage().heapUsed / 1e6;
};

const server = createServer(createNodeListener({ datasets: defaultDatasets, maxBatchSize: 100 }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const load = loadavg()[0]?.toFixed(1);
const started = Date.now();
// A worker's first module is loaded before any hooks of its own: it registers tsx's, then loads the TypeScript.
const loadModule = new URL('./heap-soak-load.ts', import.meta.url).href;
const worker = new Worker(
  `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(loadModule)}); });`,
  {
    eval: true,
    workerData: { port, clients: CLIENTS, until: started + DURATION * 1000, seed: 0x50a4 },
  },
);
const statuses = new Promise<Record<string, number>>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});

const samples: { seconds: number; mb: number }[] = [{ seconds: 0, mb: liveMb() }];
while (Date.now() - started < DURATION * 1000) {
  await sleep(SAMPLE * 1000);
  samples.push({ seconds: Math.round((Date.now() - started) / 1000), mb: liveMb() });
  process.stderr.write(`${samples.at(-1)?.seconds} s: live heap ${samples.at(-1)?.mb.toFixed(1)} MB\n`);
}
const answered = await statuses;
await worker.terminate();
server.close();

const half = samples.find((sample) => sample.seconds >= DURATION / 2) ?? samples[0]!;
const last = samples.at(-1)!;
const growth = (last.mb - half.mb) / Math.max(1 / 60, (last.seconds - half.seconds) / 60);
const passed = growth <= GROWTH_ALLOWED;
const markdown = [
  '# Live heap under varied requests (`npm run bench:heap`, generated)',
  '',
  `Run ${new Date(started).toISOString().slice(0, 16)}Z (load average ${load} at the start): \`createNodeListener\` ` +
    `with the embedded datasets, ${CLIENTS} clients in a worker thread for ${DURATION} s, every value of every ` +
    'request drawn afresh (bench/heap-soak-load.ts). Heap after a forced collection.',
  '',
  '| seconds | live heap, MB |',
  '|---:|---:|',
  ...samples.map((sample) => `| ${sample.seconds} | ${sample.mb.toFixed(1)} |`),
  '',
  `Answers by status: ${Object.entries(answered)
    .map(([status, count]) => `${status} ${count.toLocaleString('en-US')}`)
    .join(', ')}.`,
  '',
  `From ${half.seconds} s to the end: ${growth.toFixed(2)} MB a minute (at most ${GROWTH_ALLOWED}): ` +
    `**${passed ? 'levels off' : 'still growing'}**.`,
].join('\n');
const file = join(ROOT, 'bench', 'heap-soak.md');
writeFileSync(file, await format(markdown, { ...((await resolveConfig(file)) ?? {}), filepath: file }));
console.log(markdown);
process.exitCode = passed ? 0 : 1;
