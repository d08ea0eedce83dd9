/**
 * Ordinary latency under max-size batch attackers (issue 39 item 5) and, together with them, 1,200 dripping
 * connections (issue 39 item 6, the combined soak): `co2e-engine serve` at the ceilings (10,000 elements, 10 MB
 * bodies) on 127.0.0.1; 4 ordinary clients send single CPU requests in a loop (2 s timeout each) while 0, 1 or 2
 * attackers send 10,000-element instance batches (27 MB answers) back to back, first alone and then with `--drip`
 * connections (default 1,200) from 127.0.0.2 that send a request line and then one header line a second,
 * re-opened when cut. Prints p50/p99 of the ordinary requests, their p99 ratio to the quiet run, and the share of
 * ordinary requests served (a 200). `tsx bench/blocking.ts [--root DIR] [--seconds 8] [--drip 1200]` (DIR: a
 * checkout to measure, default this one). Loopback only, bounded in time (6 × the seconds, plus start-up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { dripping } from '../tests/http/dripping';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const ROOT = resolve(option('--root', '.'));
const SECONDS = Number(option('--seconds', '8'));
const DRIP = Number(option('--drip', '1200'));

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
const BATCH = JSON.stringify(
  Array.from({ length: 10_000 }, (_, index) => ({
    instance: index % 2 === 0 ? 'm5.large' : 't2.micro',
    region: 'us_east_1',
    duration: (index % 24) + 1,
  })),
);
const post = (url: string, body: string, timeout?: number) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...(timeout !== undefined && { signal: AbortSignal.timeout(timeout) }),
  });

async function scenario(url: string, attackers: number, drip: number) {
  const drippers = drip > 0 ? dripping(Number(new URL(url).port), drip) : undefined;
  if (drippers !== undefined) await new Promise((done) => setTimeout(done, 2_000)); // let them connect
  const until = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let failures = 0;
  let batches = 0;
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
  const attacker = async () => {
    while (performance.now() < until) {
      const response = await post(`${url}/compute/aws/instance/batch`, BATCH).catch(() => undefined);
      await response?.arrayBuffer();
      if (response?.status === 200) batches++;
    }
  };
  await Promise.all([...Array.from({ length: 4 }, ordinary), ...Array.from({ length: attackers }, attacker)]);
  drippers?.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const opened = drippers?.opened() ?? 0;
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
    `${new Date().toISOString().slice(0, 16)}Z, root ${ROOT}, ${SECONDS} s per scenario, load average ${load.join(' / ')} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
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
