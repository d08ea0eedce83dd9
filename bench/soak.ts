import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { format, resolveConfig } from 'prettier';
import { numberFlag, ROOT, rssMb, sleep, startChild } from './http-common';

/**
 * `npm run bench:soak` (after the build it runs first): `co2e-engine serve` on 127.0.0.1 with its default limits,
 * for `--duration <s>` (default 90), under three loads at once:
 *
 * - ordinary clients (8 connections: single CPU and spend requests, batches of 10), whose latency is measured;
 * - the old misuse mix (4 connections cycling through invalid requests: bad JSON, 1 MB+ bodies, wrong keys, ...);
 * - the adversarial mix of issue 23: 1,500 sockets that never send a byte (re-opened as the server closes them),
 *   2 connections sending batches of the maximum size (100) of unknown instance types, each element a slow
 *   did-you-mean miss, and 20 connections trickling a body one byte every 500 ms.
 *
 * Passes when ordinary requests have p99 < 50 ms and every one is a 2xx, nothing gets a 5xx, an error or a
 * timeout, and RSS stays within 20 % of its level after the first fifth of the run. Writes bench/soak.md; exits 1
 * when it fails. Loopback only; every socket is closed at the end.
 */

const DURATION = numberFlag('duration', 90);
const IDLE_SOCKETS = numberFlag('idle', 1_500);
const SLOW_BODIES = numberFlag('slow', 20);
const SAMPLE_SECONDS = Math.min(30, Math.max(5, Math.floor(DURATION / 10)));
const CPU = { cpu_count: 1, region: 'us_east_1', duration: 1 };
const SPEND = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2019,
  spend_region: 'DE',
  money: 100,
  money_unit: 'eur',
};
const json = { 'content-type': 'application/json', authorization: 'Bearer soak-key' };

const ORDINARY = [
  { path: '/compute/aws/cpu', body: JSON.stringify(CPU) },
  { path: '/procurement/spend', body: JSON.stringify(SPEND) },
  { path: '/compute/aws/cpu/batch', body: JSON.stringify(Array.from({ length: 10 }, () => CPU)) },
].map((request) => ({ method: 'POST', ...request, headers: json }));

/** Valid and invalid requests in turn: each connection cycles through the list. */
const MISUSE = [
  { path: '/procurement/spend/batch', body: JSON.stringify([SPEND, { ...SPEND, spend_region: 'XX' }]) },
  { path: '/compute/aws/cpu', body: JSON.stringify({ ...CPU, region: 'nowhere' }) }, // 400
  { path: '/compute/aws/cpu', body: '{"cpu_count": ' }, // 400 invalid_json
  { path: '/compute/aws/cpu/batch', body: JSON.stringify(Array.from({ length: 101 }, () => CPU)) }, // 400 batch
  { path: '/compute/aws/cpu', body: 'x'.repeat(1_000_001) }, // 413
  { path: '/compute/nowhere/cpu', body: JSON.stringify(CPU) }, // 400 provider
  { path: '/nothing', body: '{}' }, // 404
  { path: '/compute/aws/cpu', body: JSON.stringify(CPU), headers: { 'content-type': 'text/plain' } }, // 415
  { path: '/compute/aws/cpu', body: JSON.stringify(CPU), headers: { authorization: 'Bearer wrong' } }, // 401
  { path: '/compute/aws/cpu', method: 'GET' }, // 405
].map((request) => ({ method: 'POST', ...request, headers: { ...json, ...request.headers } }));

/** A batch of the default maximum size whose every element misses (unknown instance type: did-you-mean search). */
const MAX_BATCH = JSON.stringify(
  Array.from({ length: 100 }, (_, index) => ({
    instance: `zz.unknown${index}`,
    region: 'us_east_1',
    duration: 1,
  })),
);

/** Keeps `count` sockets open that never send a byte; counts how many the server closed. */
function idleSockets(port: number, count: number) {
  const open = new Set<Socket>();
  let closedByServer = 0;
  let stopped = false;
  const add = () => {
    if (stopped) return;
    const socket = connect(port, '127.0.0.1');
    open.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      open.delete(socket);
      if (stopped) return;
      closedByServer++;
      setTimeout(add, 10); // re-open, as an attacker would
    });
  };
  for (let index = 0; index < count; index++) add();
  return {
    closed: () => closedByServer,
    stop: () => {
      stopped = true;
      for (const socket of open) socket.destroy();
    },
  };
}

/** Connections that send headers, then one body byte every 500 ms; re-opened when the server cuts them. */
function slowBodies(port: number, count: number) {
  const open = new Set<Socket>();
  let cut = 0;
  let stopped = false;
  const add = () => {
    if (stopped) return;
    const socket = connect(port, '127.0.0.1');
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    const timer = setInterval(() => socket.write('1'), 500);
    socket.once('connect', () =>
      socket.write(
        `POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Authorization: Bearer soak-key\r\nContent-Length: 100000\r\n\r\n`,
      ),
    );
    socket.once('close', () => {
      clearInterval(timer);
      open.delete(socket);
      if (stopped) return;
      cut++;
      setTimeout(add, 10);
    });
  };
  for (let index = 0; index < count; index++) add();
  return {
    cut: () => cut,
    stop: () => {
      stopped = true;
      for (const socket of open) socket.destroy();
    },
  };
}

async function main() {
  // Default limits: 100 elements per batch, 1 MB bodies, 1,000 connections, the default timeouts.
  const serve = await startChild([
    join(ROOT, 'dist', 'cli.js'),
    'serve',
    '--port',
    '0',
    '--api-key',
    'soak-key',
  ]);
  const pid = serve.process.pid as number;
  const url = `http://127.0.0.1:${serve.port}`;
  const samples: { second: number; rss: number }[] = [{ second: 0, rss: rssMb(pid) }];
  const started = Date.now();
  const sampler = setInterval(() => {
    samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) });
  }, SAMPLE_SECONDS * 1000);
  const idle = idleSockets(serve.port, IDLE_SOCKETS);
  const slow = slowBodies(serve.port, SLOW_BODIES);
  try {
    await sleep(1_000); // the idle sockets are in place before the clients come
    const [ordinary, misuse, batches] = await Promise.all([
      autocannon({ url, connections: 8, duration: DURATION, requests: ORDINARY, timeout: 10 }),
      autocannon({ url, connections: 4, duration: DURATION, requests: MISUSE, timeout: 10 }),
      autocannon({
        url,
        connections: 2,
        duration: DURATION,
        timeout: 10,
        requests: [{ method: 'POST', path: '/compute/aws/instance/batch', headers: json, body: MAX_BATCH }],
      }),
    ]);
    clearInterval(sampler);
    idle.stop();
    slow.stop();
    await sleep(2_000);
    samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) });

    const statuses = (result: Result) =>
      Object.entries(result.statusCodeStats)
        .map(([status, { count }]) => `${status}: ${count.toLocaleString('en')}`)
        .join(', ');
    const failures = (result: Result) =>
      result['5xx'] + result['1xx'] + result['3xx'] + result.errors + result.timeouts;
    const bad = failures(ordinary) + failures(misuse) + failures(batches);
    const ordinaryNot2xx = ordinary.requests.total - ordinary['2xx'];
    const p99 = ordinary.latency.p99;
    const settled = samples.find((sample) => sample.second >= Math.min(60, DURATION / 5)) ?? samples[1];
    const later = samples.filter((sample) => sample.second >= (settled?.second ?? 0));
    const worst = Math.max(...later.map((sample) => sample.rss));
    const flat = settled !== undefined && worst / settled.rss <= 1.2;
    const fast = p99 < 50;
    const text = [
      '# Soak under the adversarial mix (`npm run bench:soak`, generated)',
      '',
      `Run ${new Date().toISOString().slice(0, 16)}Z: ${DURATION} s on 127.0.0.1, \`co2e-engine serve\` at its default limits (100 elements per batch, 1 MB bodies, 1,000 connections, default timeouts), API key on. At once:`,
      '',
      `- ordinary clients: 8 connections, single CPU and spend requests and CPU batches of 10;`,
      `- the misuse mix: 4 connections cycling through ${MISUSE.length} requests (1 valid batch; bad region, bad JSON, batch too large, 1 MB+ body, bad provider, unknown route, wrong content type, wrong key, wrong method);`,
      `- ${IDLE_SOCKETS.toLocaleString('en')} sockets that never send a byte, re-opened as the server closes them (closed by the server: ${idle.closed().toLocaleString('en')});`,
      `- 2 connections sending batches of 100 unknown instance types (each element a did-you-mean miss);`,
      `- ${SLOW_BODIES} connections trickling a body one byte every 500 ms, re-opened when cut (cut: ${slow.cut()}).`,
      '',
      `Machine: 2 shared cores (other work was running).`,
      '',
      `- Ordinary requests: ${ordinary.requests.total.toLocaleString('en')} (${statuses(ordinary)}); latency p50 ${ordinary.latency.p50} ms, p90 ${ordinary.latency.p90} ms, **p99 ${p99} ms** (target < 50: ${fast ? 'met' : '**missed**'}), max ${ordinary.latency.max} ms; not a 2xx: **${ordinaryNot2xx}**.`,
      `- Misuse mix: ${misuse.requests.total.toLocaleString('en')} (${statuses(misuse)}).`,
      `- Max-size batches: ${batches.requests.total.toLocaleString('en')} (${statuses(batches)}); latency p50 ${batches.latency.p50} ms, p99 ${batches.latency.p99} ms.`,
      `- Not a 2xx or 4xx anywhere (5xx, socket errors, timeouts): **${bad}** (target 0: ${bad === 0 ? 'met' : '**missed**'}).`,
      `- RSS, MB (second: MB): ${samples.map((sample) => `${sample.second}: ${sample.rss}`).join(', ')}.`,
      `- Memory: worst ${worst} MB after ${settled?.second} s = ${settled ? (worst / settled.rss).toFixed(2) : '?'}× the ${settled?.rss} MB at that point (target ≤ 1.20: ${flat ? 'met' : '**missed**'}).`,
    ].join('\n');
    const file = join(ROOT, 'bench', 'soak.md');
    writeFileSync(file, await format(`${text}\n`, { ...(await resolveConfig(file)), filepath: file }));
    process.stdout.write(`${text}\n`);
    if (bad !== 0 || ordinaryNot2xx !== 0 || !flat || !fast) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    idle.stop();
    slow.stop();
    await serve.stop();
  }
}

await main();
