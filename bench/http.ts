import autocannon, { type Result } from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Child,
  cpuMs,
  numberFlag,
  ROOT,
  rssMb,
  sleep,
  startChild,
  startServe,
  writeSection,
} from './http-common';
import { median } from './statistics';

/**
 * `npm run bench:http` (after the build it runs first): `co2e-engine serve` on 127.0.0.1 under autocannon, beside
 * bare node:http servers that parse the same JSON and answer the same bytes `serve` answered (bench/bare-server.mjs;
 * one for the single request, one for the batch of 100), and the in-process batch rate, all in one run. The
 * machine is shared, so only ratios between figures of the same run mean anything. Flags: `--duration <s>` per
 * load case (default 10), `--rounds <n>` interleaved rounds (default 7, as the issue asks of the calculators; medians
 * are reported, a ratio as the median of the rounds' ratios), `--memory-minutes <m>` of the memory run (default 5;
 * 0 skips it). Each load also reads the server's CPU from /proc: CPU per answer depends far less than answers per
 * second on how much of the machine autocannon and other work leave the server. Writes its section of
 * bench/results.md.
 */

const DURATION = numberFlag('duration', 10);
const ROUNDS = numberFlag('rounds', 7);
const MEMORY_MINUTES = numberFlag('memory-minutes', 5);
const CONNECTIONS = 32;
const CPU = { cpu_count: 1, region: 'us_east_1', duration: 1 };
const BATCH = Array.from({ length: 100 }, (_, index) => ({ ...CPU, cpu_count: (index % 8) + 1 }));
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Load {
  rate: number;
  /** The server's user + system CPU per answer, µs. */
  cpu: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(server: Child, path: string, body: string, seconds = DURATION): Promise<Load> {
  const pid = server.process.pid as number;
  const cpuBefore = cpuMs(pid);
  const result: Result = await autocannon({
    url: `http://127.0.0.1:${server.port}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: JSON_HEADERS,
    body,
  });
  return {
    rate: result.requests.total / seconds,
    cpu: ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/** Estimates per second of `calculateCpuBatch` on batches of 100, in this process (no load running). */
async function inProcessBatchRate(seconds: number): Promise<number> {
  const dist = (name: string) => pathToFileURL(join(ROOT, 'dist', name)).href;
  const { calculateCpuBatch } = await import(dist('index.js'));
  const { defaultDatasets } = await import(dist('datasets.js'));
  for (let warm = 0; warm < 200; warm++) JSON.stringify(calculateCpuBatch('aws', BATCH, defaultDatasets));
  let estimates = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    // JSON.stringify as the server does, so both sides include serialising the results.
    JSON.stringify(calculateCpuBatch('aws', BATCH, defaultDatasets));
    estimates += BATCH.length;
  }
  return estimates / ((performance.now() - start) / 1000);
}

const startedAt = new Date().toISOString().slice(0, 16);
const loadAverage = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
const ratio = (value: number, base: number) => (value / base).toFixed(2);
const fmt = (value: number) => Math.round(value).toLocaleString('en');

/** What `serve` answers to one request, to hand the bare server the same bytes. */
async function answer(port: number, path: string, body: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body,
  });
  return response.text();
}

async function main() {
  const serve = await startServe(['--max-batch-size', '100']);
  const single = JSON.stringify(CPU);
  const batch = JSON.stringify(BATCH);
  const folder = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const singleAnswer = join(folder, 'single.json');
  const batchAnswer = join(folder, 'batch.json');
  writeFileSync(singleAnswer, await answer(serve.port, '/compute/aws/cpu', single));
  writeFileSync(batchAnswer, await answer(serve.port, '/compute/aws/cpu/batch', batch));
  const size = (await answer(serve.port, '/compute/aws/cpu', single)).length;
  const batchSize = (await answer(serve.port, '/compute/aws/cpu/batch', batch)).length;
  const bare: Child = await startChild([join(ROOT, 'bench', 'bare-server.mjs'), singleAnswer]);
  const bareBatch: Child = await startChild([join(ROOT, 'bench', 'bare-server.mjs'), batchAnswer]);
  const rssStart = rssMb(serve.process.pid as number);

  const rows: { bare: Load; single: Load; bareBatch: Load; batch: Load; inProcess: number }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, so the machine's other load falls on every case alike.
      const bareLoad = await load(bare, '/', single);
      const singleLoad = await load(serve, '/compute/aws/cpu', single);
      const bareBatchLoad = await load(bareBatch, '/', batch);
      const batchLoad = await load(serve, '/compute/aws/cpu/batch', batch);
      const inProcess = await inProcessBatchRate(Math.min(DURATION, 5));
      rows.push({
        bare: bareLoad,
        single: singleLoad,
        bareBatch: bareBatchLoad,
        batch: batchLoad,
        inProcess,
      });
      process.stderr.write(
        `round ${round + 1}: bare ${fmt(bareLoad.rate)}/s, single ${fmt(singleLoad.rate)}/s p99 ${singleLoad.p99} ms, bare batch ${fmt(bareBatchLoad.rate)}/s, batch ${fmt(batchLoad.rate)}/s p99 ${batchLoad.p99} ms; CPU per answer µs: bare ${bareLoad.cpu.toFixed(0)}, single ${singleLoad.cpu.toFixed(0)}, bare batch ${bareBatchLoad.cpu.toFixed(0)}, batch ${batchLoad.cpu.toFixed(0)}; in-process ${fmt(inProcess)} est/s; ratios single ${ratio(singleLoad.rate, bareLoad.rate)}, batch ${ratio(batchLoad.rate, bareBatchLoad.rate)}\n`,
      );
    }
    const rssAfterLoad = rssMb(serve.process.pid as number);

    const memory: number[] = [];
    if (MEMORY_MINUTES > 0) {
      // Rounds of 20 s load (single and batch mixed) and 10 s idle; RSS after each round.
      const rounds = Math.max(1, Math.round((MEMORY_MINUTES * 60) / 30));
      for (let round = 0; round < rounds; round++) {
        // Two loads on one server at once: their CPU per answer is not read.
        await Promise.all([
          load(serve, '/compute/aws/cpu', single, 20),
          load(serve, '/compute/aws/cpu/batch', batch, 20),
        ]);
        await sleep(10_000);
        memory.push(rssMb(serve.process.pid as number));
        process.stderr.write(`memory round ${round + 1}/${rounds}: RSS ${memory.at(-1)} MB\n`);
      }
    }

    const pick = (get: (row: (typeof rows)[number]) => number) => median(rows.map(get));
    const bareRate = pick((row) => row.bare.rate);
    const singleRate = pick((row) => row.single.rate);
    const batchEstimates = pick((row) => row.batch.rate * BATCH.length);
    const batchRate = pick((row) => row.batch.rate);
    const bareBatchRate = pick((row) => row.bareBatch.rate);
    const inProcess = pick((row) => row.inProcess);
    // Each round's serve figure over the bare server's of the same round, then the median: the machine's speed
    // moves between rounds more than between the two servers of one round.
    const singleRatio = pick((row) => row.single.rate / row.bare.rate);
    const batchRatio = pick((row) => row.batch.rate / row.bareBatch.rate);
    // The same, in CPU per answer: the bare server's over serve's, so that higher is better as with the rates.
    const singleCpuRatio = pick((row) => row.bare.cpu / row.single.cpu);
    const batchCpuRatio = pick((row) => row.bareBatch.cpu / row.batch.cpu);
    const singleP99 = pick((row) => row.single.p99);
    const bareP99 = pick((row) => row.bare.p99);
    const firstMemory = memory[0] ?? Number.NaN;
    const worstMemory = Math.max(...memory);
    const errors = rows.reduce((sum, row) => sum + row.single.non2xx + row.batch.non2xx, 0);
    const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

    const table = [
      `Run ${startedAt}Z (load average ${loadAverage} at the start): autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, median of ${ROUNDS} interleaved rounds (a ratio: the median of each round's ratio, and in brackets the ratio of the medians), all processes on this shared 2-core machine at once. Only the ratios (each to its baseline in this same run) are comparable between runs.`,
      '',
      "| figure | serve | baseline (same run) | ratio: median of the rounds' (of the medians) | target | |",
      '|---|---|---|---|---|---|',
      `| single cpu estimate, req/s | ${fmt(singleRate)} | bare node:http, JSON.parse + the same ${fmt(size)} bytes: ${fmt(bareRate)} | ${singleRatio.toFixed(2)} (${ratio(singleRate, bareRate)}) | ≥ 0.70 | ${mark(singleRatio >= 0.7)} |`,
      `| single cpu estimate, p50 / p99 ms | ${pick((row) => row.single.p50)} / ${singleP99} | bare: ${pick((row) => row.bare.p50)} / ${bareP99} | p99 ${ratio(singleP99, bareP99)}× | p99 < 10 ms | ${mark(singleP99 < 10)} |`,
      `| cpu batch of 100, req/s | ${fmt(batchRate)} (p99 ${pick((row) => row.batch.p99)} ms) | bare node:http, JSON.parse + the same ${fmt(batchSize)} bytes: ${fmt(bareBatchRate)} (p99 ${pick((row) => row.bareBatch.p99)} ms) | ${batchRatio.toFixed(2)} (${ratio(batchRate, bareBatchRate)}) | ≥ 0.50 | ${mark(batchRatio >= 0.5)} |`,
      `| single cpu estimate, the server's CPU per answer | ${pick((row) => row.single.cpu).toFixed(0)} µs | bare: ${pick((row) => row.bare.cpu).toFixed(0)} µs | bare ÷ serve ${singleCpuRatio.toFixed(2)} | none (less tied to autocannon) | |`,
      `| cpu batch of 100, the server's CPU per answer | ${pick((row) => row.batch.cpu).toFixed(0)} µs | bare: ${pick((row) => row.bareBatch.cpu).toFixed(0)} µs | bare ÷ serve ${batchCpuRatio.toFixed(2)} | none (less tied to autocannon) | |`,
      `| cpu batch of 100, estimates/s | ${fmt(batchEstimates)} (${fmt(batchEstimates / 100)} req/s, p99 ${pick((row) => row.batch.p99)} ms) | in-process calculateCpuBatch + JSON.stringify: ${fmt(inProcess)} | ${ratio(batchEstimates, inProcess)} | ≥ 0.50 | ${mark(batchEstimates / inProcess >= 0.5)} |`,
      memory.length > 0
        ? `| RSS over ${MEMORY_MINUTES} min (${memory.length} × 20 s load + 10 s idle), MB | ${memory.join(', ')} | after the first round: ${firstMemory} | worst ${ratio(worstMemory, firstMemory)} | ≤ 1.20 | ${mark(worstMemory / firstMemory <= 1.2)} |`
        : '| RSS over a long run | not measured (--memory-minutes 0) | | | | |',
      '',
      `RSS of serve: ${rssStart} MB at start, ${rssAfterLoad} MB after the throughput rounds. Non-2xx, errors and timeouts during the throughput rounds: ${errors}.`,
    ].join('\n');
    await writeSection('bench-http', `## HTTP server (\`npm run bench:http\`, generated)\n\n${table}`);
    process.stdout.write(`${table}\n`);
  } finally {
    await serve.stop();
    await bare.stop();
    await bareBatch.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
