/**
 * Ordinary latency under max-size batch attackers (issue 39 item 5) and, together with them, 1,200 dripping
 * connections (issue 39 item 6, the combined soak): `co2e-engine serve` at the ceilings (10,000 elements, 10 MB
 * bodies) on 127.0.0.1; 4 ordinary clients send single CPU requests in a loop (2 s timeout each) while 0, 1 or 2
 * attackers send 10,000-element instance batches (27 MB answers) back to back, first alone and then with `--drip`
 * connections (default 1,200) from 127.0.0.2 that send a request line and then one header line a second,
 * re-opened when cut. Prints p50/p99 of the ordinary requests, their p99 ratio to the quiet run, and the share of
 * ordinary requests served (a 200). The attackers and drippers run in a process of their own
 * (bench/blocking-attackers.ts), so the process timing the ordinary requests does not also receive 27 MB answers;
 * `--same-process` runs them beside the ordinary clients, as this bench did before 2026-11-27T16Z.
 * `tsx bench/blocking.ts [--root DIR] [--seconds 8] [--drip 1200] [--same-process]` (DIR: a checkout to measure,
 * default this one). Loopback only, bounded in time (6 × the seconds, plus start-up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { dripping } from '../tests/http/dripping';
import { ATTACK_BATCH } from './blocking-batch';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const ROOT = resolve(option('--root', '.'));
const SECONDS = Number(option('--seconds', '8'));
const DRIP = Number(option('--drip', '1200'));
const SAME_PROCESS = args.includes('--same-process');

function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/index.ts',
      'serve',
      '--port',
      '0',
      '--max-batch-size',
      '10000',
      '--max-body-bytes',
      '10000000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CO2E_API_KEYS: undefined } },
  );
  let stderr = '';
  return new Promise((done, fail) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) done({ child, url: match[1]! });
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

const CPU = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
const BATCH = ATTACK_BATCH;
const post = (url: string, body: string, timeout?: number) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...(timeout !== undefined && { signal: AbortSignal.timeout(timeout) }),
  });

/** The attackers and drippers in their own process; resolves once its drippers had time to connect. */
async function attackApart(url: string, attackers: number, drip: number) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(import.meta.dirname, 'blocking-attackers.ts'),
      url,
      String(attackers),
      String(drip),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  if ((await lines.next()).value !== 'ready') throw new Error('the attackers did not start');
  return {
    stop: async (): Promise<{ batches: number; opened: number }> => {
      child.stdin!.end();
      const { value } = await lines.next();
      return JSON.parse(String(value)) as { batches: number; opened: number };
    },
  };
}

/** The attackers and drippers beside the ordinary clients, in this process (`--same-process`). */
async function attackHere(url: string, attackers: number, drip: number) {
  const drippers = drip > 0 ? dripping(Number(new URL(url).port), drip) : undefined;
  if (drippers !== undefined) await new Promise((done) => setTimeout(done, 2_000)); // let them connect
  let stopped = false;
  let batches = 0;
  const attacker = async () => {
    while (!stopped) {
      const response = await post(`${url}/compute/aws/instance/batch`, BATCH).catch(() => undefined);
      await response?.arrayBuffer();
      if (response?.status === 200 && !stopped) batches++;
    }
  };
  const running = Promise.all(Array.from({ length: attackers }, attacker));
  return {
    stop: async () => {
      stopped = true;
      drippers?.stop();
      await running;
      return { batches, opened: drippers?.opened() ?? 0 };
    },
  };
}

async function scenario(url: string, attackers: number, drip: number) {
  const attack = await (SAME_PROCESS ? attackHere : attackApart)(url, attackers, drip);
  const until = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const ordinary = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const response = await post(`${url}/compute/aws/cpu`, CPU, 2_000).catch(() => undefined);
      if (response?.status === 200) {
        await response.arrayBuffer();
        latencies.push(performance.now() - start);
      } else failures++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, ordinary));
  const { batches, opened } = await attack.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    attackers,
    drip,
    opened,
    requests: latencies.length,
    failures,
    batches,
    p50: at(0.5),
    p99: at(0.99),
  };
}

const { child, url } = await startServe();
try {
  await post(`${url}/compute/aws/instance/batch`, BATCH).then((response) => response.arrayBuffer()); // warm up
  const rows = [];
  const load = loadavg().map((value) => value.toFixed(1));
  for (const drip of [0, DRIP])
    for (const attackers of [0, 1, 2]) rows.push(await scenario(url, attackers, drip));
  const quiet = rows[0]!.p99;
  console.log(
    `${new Date().toISOString().slice(0, 16)}Z, root ${ROOT}, ${SECONDS} s per scenario, ${SAME_PROCESS ? 'attackers in this process' : 'attackers apart'}, load average ${load.join(' / ')} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
  );
  console.log('| attackers | dripping (opened) | ordinary served | p50 / p99 ms | p99 ÷ quiet | batches |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    const served = (100 * row.requests) / (row.requests + row.failures);
    console.log(
      `| ${row.attackers} | ${row.drip} (${row.opened}) | ${row.requests} of ${row.requests + row.failures} (${served.toFixed(1)} %) | ${row.p50.toFixed(1)} / ${row.p99.toFixed(1)} | ${(row.p99 / quiet).toFixed(1)}× | ${row.batches} |`,
    );
  }
} finally {
  child.kill('SIGKILL');
}
