import autocannon from 'autocannon';
import { numberFlag, rssMb, sleep, startServe, writeSection } from './http-common';

/**
 * `npm run bench:soak` (after the build it runs first): `co2e-engine serve` on 127.0.0.1 under a mix of valid and
 * invalid requests for `--duration <s>` (default 300). Passes when no request gets a 5xx, an error or a timeout
 * (every answer is a 2xx or 4xx) and RSS stays within 20% of its level after the first minute. Writes its section
 * of bench/results.md; exits 1 when it fails.
 */

const DURATION = numberFlag('duration', 300);
const SAMPLE_SECONDS = Math.min(30, Math.max(5, Math.floor(DURATION / 10)));
const CPU = { cpu_count: 1, region: 'us_east_1', duration: 1 };
const SPEND = { activity: 'isic4_4711', spend_year: 2019, spend_region: 'DE', money: 100, money_unit: 'eur' };
const json = { 'content-type': 'application/json', authorization: 'Bearer soak-key' };

/** Valid and invalid requests in turn: each connection cycles through the list. */
const REQUESTS = [
  { path: '/compute/aws/cpu', body: JSON.stringify(CPU) },
  { path: '/compute/aws/cpu/batch', body: JSON.stringify(Array.from({ length: 50 }, () => CPU)) },
  { path: '/procurement/spend', body: JSON.stringify(SPEND) },
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

async function main() {
  const serve = await startServe(['--api-key', 'soak-key']);
  const pid = serve.process.pid as number;
  const samples: { second: number; rss: number }[] = [{ second: 0, rss: rssMb(pid) }];
  const started = Date.now();
  const sampler = setInterval(() => {
    samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) });
  }, SAMPLE_SECONDS * 1000);
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${serve.port}`,
      connections: 16,
      duration: DURATION,
      requests: REQUESTS,
      timeout: 10,
    });
    clearInterval(sampler);
    await sleep(2_000);
    samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMb(pid) });

    const byStatus = Object.entries(result.statusCodeStats)
      .map(([status, { count }]) => `${status}: ${count.toLocaleString('en')}`)
      .join(', ');
    const bad = result['5xx'] + result['1xx'] + result['3xx'] + result.errors + result.timeouts;
    const settled = samples.find((sample) => sample.second >= Math.min(60, DURATION / 5)) ?? samples[1];
    const later = samples.filter((sample) => sample.second >= (settled?.second ?? 0));
    const worst = Math.max(...later.map((sample) => sample.rss));
    const flat = settled !== undefined && worst / settled.rss <= 1.2;
    const text = [
      `Run ${new Date().toISOString().slice(0, 16)}Z: ${DURATION} s, 16 connections cycling through ${REQUESTS.length} requests (4 valid, 9 invalid: bad region, bad JSON, batch too large, 1 MB+ body, bad provider, unknown route, wrong content type, wrong key, wrong method), API key on.`,
      '',
      `- Requests: ${result.requests.total.toLocaleString('en')} (${byStatus}).`,
      `- Not a 2xx or 4xx (5xx, socket errors, timeouts): **${bad}** (target 0: ${bad === 0 ? 'met' : '**missed**'}).`,
      `- RSS, MB (second: MB): ${samples.map((sample) => `${sample.second}: ${sample.rss}`).join(', ')}.`,
      `- Memory: worst ${worst} MB after ${settled?.second} s = ${settled ? (worst / settled.rss).toFixed(2) : '?'}× the ${settled?.rss} MB at that point (target ≤ 1.20: ${flat ? 'met' : '**missed**'}).`,
    ].join('\n');
    await writeSection('bench-soak', `## Soak (\`npm run bench:soak\`, generated)\n\n${text}`);
    process.stdout.write(`${text}\n`);
    if (bad !== 0 || !flat) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await serve.stop();
  }
}

await main();
