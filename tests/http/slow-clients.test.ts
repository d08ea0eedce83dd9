import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { dripping } from './dripping';

/**
 * Issue 39 item 6: 1,200 connections that drip one header line a second filled the 1,000-connection cap, and 183 of
 * 202 ordinary requests failed for 12 s. With a per-address share of the cap and a minimum sending rate, ordinary
 * clients on another address are served. Real `serve` process on loopback; the attacker binds 127.0.0.2.
 */

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

function startServe(argv: string[] = []): Promise<{ port: number; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/index.ts', 'serve', '--port', '0', ...argv],
    { env: { ...process.env, CO2E_API_KEYS: undefined }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(stderr);
      if (match) resolve({ port: Number(match[1]), stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

/** One ordinary request on a new connection from 127.0.0.1: true when answered 200 within 2 s. */
function ordinary(port: number): Promise<boolean> {
  const body = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
  return new Promise((resolve) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/compute/aws/cpu',
        agent: false,
        timeout: 2_000,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode === 200));
        response.once('error', () => resolve(false));
      },
    );
    call.once('timeout', () => call.destroy());
    call.once('error', () => resolve(false));
    call.end(body);
  });
}

describe('slow clients cannot starve fast ones (issue 39 item 6)', () => {
  it('1,200 dripping connections from one address leave >= 99 % of 200 ordinary requests served', async () => {
    const served = await startServe();
    const attack = dripping(served.port, 1_200);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the cap would be full by now
    const results: boolean[] = [];
    for (let round = 0; round < 20; round++) {
      results.push(...(await Promise.all(Array.from({ length: 10 }, () => ordinary(served.port)))));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    attack.stop();
    const ok = results.filter(Boolean).length;
    expect(attack.opened()).toBeGreaterThanOrEqual(1_200);
    expect(ok / results.length).toBeGreaterThanOrEqual(0.99);
  }, 60_000);
});
