import autocannon from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, cpuMs, numberFlag, ROOT, startChild, startServe } from './http-common';
import { median } from './statistics';

/**
 * Server CPU per answer, the figure behind bench/http.md's ratios: `co2e-engine serve` (from dist/, or
 * `--cli <path>` for another build, e.g. main's built in a copy) and the bare server of bench/http.ts under
 * autocannon (32 connections, a cpu batch of 100), interleaved rounds, each server's user + system CPU read from
 * /proc before and after. A ratio of requests per second also depends on how much CPU autocannon and the machine's
 * other work leave each server; CPU per answer does not. `tsx bench/http-cpu.ts [--rounds 4] [--duration 4]
 * [--cli other/dist/cli.js] [--base other/dist/cli.js] [--single]` after `npm run build`; `--base` adds another build's
 * `serve` to the same rounds (before/after side by side).
 */

const ROUNDS = numberFlag('rounds', 4);
const DURATION = numberFlag('duration', 4);
const BATCH = Array.from({ length: 100 }, (_, index) => ({
  cpu_count: (index % 8) + 1,
  region: 'us_east_1',
  duration: 1,
}));
/** `--single`: one cpu request per answer (bench/http.ts's single case) instead of the batch of 100. */
const SINGLE = process.argv.includes('--single');
const body = JSON.stringify(SINGLE ? BATCH[0] : BATCH);
const headers = { 'content-type': 'application/json' };

async function main() {
  const flag = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const extra = ['--max-batch-size', '100'];
  const startCli = (cli: string) =>
    startChild([cli, 'serve', '--port', '0', '--max-connections', '10000', ...extra]);
  const cli = flag('--cli');
  const serve = cli ? await startCli(cli) : await startServe(extra);
  const baseCli = flag('--base');
  const base = baseCli === undefined ? undefined : await startCli(baseCli);
  const path = SINGLE ? '/compute/aws/cpu' : '/compute/aws/cpu/batch';
  const folder = mkdtempSync(join(tmpdir(), 'bench-http-cpu-'));
  const answerFile = join(folder, 'batch.json');
  const answer = await fetch(`http://127.0.0.1:${serve.port}${path}`, { method: 'POST', headers, body });
  writeFileSync(answerFile, await answer.text());
  const bare: Child = await startChild([join(ROOT, 'bench', 'bare-server.mjs'), answerFile]);
  const load = loadavg()[0]?.toFixed(1);
  const figures: Record<string, { rate: number[]; cpu: number[] }> = {
    bare: { rate: [], cpu: [] },
    serve: { rate: [], cpu: [] },
    ...(base && { base: { rate: [], cpu: [] } }),
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const servers: [string, Child, string][] = [
        ['bare', bare, '/'],
        ['serve', serve, path],
      ];
      if (base !== undefined) servers.splice(round % 2 === 0 ? 1 : 2, 0, ['base', base, path]);
      for (const [name, child, target] of servers) {
        const pid = child.process.pid as number;
        const before = cpuMs(pid);
        const result = await autocannon({
          url: `http://127.0.0.1:${child.port}${target}`,
          connections: 32,
          duration: DURATION,
          method: 'POST',
          headers,
          body,
        });
        const answers = result.requests.total;
        const figure = figures[name] as { rate: number[]; cpu: number[] };
        figure.rate.push(answers / DURATION);
        figure.cpu.push(((cpuMs(pid) - before) * 1000) / answers);
      }
    }
    const lines = Object.entries(figures).map(
      ([name, { rate, cpu }]) =>
        `${name}: ${Math.round(median(rate)).toLocaleString('en')} answers/s, ${median(cpu).toFixed(1)} µs of CPU per answer`,
    );
    // The machine's speed moves between rounds far more than between two builds: figures of one round, paired.
    const paired = (name: string, get: (figure: { rate: number[]; cpu: number[] }) => number[]) => {
      const ours = get(figures.serve as { rate: number[]; cpu: number[] });
      const theirs = get(figures[name] as { rate: number[]; cpu: number[] });
      return median(ours.map((value, round) => value / (theirs[round] as number))).toFixed(3);
    };
    if (base !== undefined)
      lines.push(
        `serve ÷ base, median of the rounds' ratios: CPU per answer ${paired('base', (figure) => figure.cpu)}, answers/s ${paired('base', (figure) => figure.rate)}`,
      );
    lines.push(
      `serve ÷ bare, median of the rounds' ratios: answers/s ${paired('bare', (figure) => figure.rate)}`,
    );
    process.stdout.write(
      `${SINGLE ? 'single cpu request' : 'cpu batch of 100'}, median of ${ROUNDS} interleaved rounds of ${DURATION} s, load average ${load} at the start, ${loadavg()[0]?.toFixed(1)} at the end\n${lines.join('\n')}\n`,
    );
  } finally {
    await serve.stop();
    await base?.stop();
    await bare.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
