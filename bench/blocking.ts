/**
 * Ordinary latency under max-size batch attackers (issue 39 item 5): `co2e-engine serve` at the ceilings
 * (10,000 elements, 10 MB bodies) on 127.0.0.1; 4 ordinary clients send single CPU requests in a loop while 0, 1
 * or 2 attackers send 10,000-element instance batches (27 MB answers) back to back. Prints p50/p99 of the ordinary
 * requests and the p99 ratio to no attack. `tsx bench/blocking.ts [--root DIR] [--seconds 8]` (DIR: a checkout
 * to measure, default this one). Loopback only, bounded in time (3 × the seconds, plus start-up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const ROOT = resolve(option('--root', '.'));
const SECONDS = Number(option('--seconds', '8'));

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
const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

async function scenario(url: string, attackers: number) {
  const until = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let failures = 0;
  let batches = 0;
  const ordinary = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const response = await post(`${url}/compute/aws/cpu`, CPU).catch(() => undefined);
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
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { attackers, requests: latencies.length, failures, batches, p50: at(0.5), p99: at(0.99) };
}

const { child, url } = await startServe();
try {
  await post(`${url}/compute/aws/instance/batch`, BATCH).then((response) => response.arrayBuffer()); // warm up
  const rows = [];
  for (const attackers of [0, 1, 2]) rows.push(await scenario(url, attackers));
  const quiet = rows[0]!.p99;
  console.log(`root ${ROOT}, ${SECONDS} s per scenario`);
  for (const row of rows)
    console.log(
      `${row.attackers} attacker(s): ${row.requests} ordinary (${row.failures} failed), ${row.batches} batches; p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms = ${(row.p99 / quiet).toFixed(1)}x quiet`,
    );
} finally {
  child.kill('SIGKILL');
}
