import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
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

  describe("a connection over its address's share waits for a place (up to 2 s) instead of being closed at once", () => {
    const START = 'POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\n';
    const REST = (() => {
      const body = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
      return `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
    })();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** A connection from 127.0.0.2 that has sent a request line and a header; `closed` resolves at its close. */
    const open = (port: number) => {
      const socket: Socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
      const opened = performance.now();
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('connect', () => socket.write(START));
      const closed = new Promise<number>((resolve) =>
        socket.once('close', () => resolve(performance.now() - opened)),
      );
      return { socket, closed, answer: () => answer };
    };

    it('is not closed at once (before: in ~50 ms, so attackers reconnected at once), nor kept', async () => {
      const { port } = await startServe(['--max-connections-per-address', '2']);
      const held = [open(port), open(port)];
      await sleep(300); // counted at the next sweep (every 50 ms)
      const waiting = open(port);
      const closedAfter = await waiting.closed;
      // Either its 2 s first-byte time ends, or, as the held two are cut by the rate rule at 2 s, it takes their
      // place and is cut by the same rule 2 s later: closed after 2 to 4 s (and some, on a busy machine).
      expect(closedAfter).toBeGreaterThan(1_500);
      expect(closedAfter).toBeLessThan(8_000);
      for (const connection of held) connection.socket.destroy();
    }, 20_000);

    it('gets the place a closed connection frees, and its request is answered', async () => {
      const { port } = await startServe(['--max-connections-per-address', '2']);
      const held = [open(port), open(port)];
      await sleep(300);
      const waiting = open(port);
      await sleep(300);
      held[0]!.socket.destroy();
      await sleep(300);
      waiting.socket.write(REST);
      await waiting.closed;
      expect(waiting.answer()).toMatch(/^HTTP\/1\.1 200 /);
      held[1]!.socket.destroy();
    }, 20_000);
  });
});
