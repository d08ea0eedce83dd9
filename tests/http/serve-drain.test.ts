import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Issue 39 item 2: on SIGTERM the server stops accepting and lets every request it has received finish, large
 * responses and bodies still arriving included, before it exits (real process on 127.0.0.1).
 */

const CLI = ['--import', 'tsx', 'src/cli/index.ts', 'serve', '--port', '0'];
const running = new Set<ChildProcess>();

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

function startServe(
  argv: string[],
): Promise<{ child: ChildProcess; port: number; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [...CLI, ...argv], {
    env: { ...process.env, CO2E_API_KEYS: undefined },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve({ child, port: Number(match[1]), stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

/** One raw HTTP/1.1 exchange: sends the head and `first` bytes now, the rest when `finish` is called. */
function exchange(port: number, body: string, firstBytes: number) {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  let failure: string | undefined;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    failure = error.code ?? error.message;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const bytes = Buffer.from(body);
  socket.write(
    `POST /compute/aws/cpu/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bytes.byteLength}\r\n\r\n`,
  );
  // Written once connected; the callback says the bytes are with the kernel, on their way to the server.
  const sent = new Promise<void>((resolve) => socket.write(bytes.subarray(0, firstBytes), () => resolve()));
  return {
    sent,
    finish: () => socket.write(bytes.subarray(firstBytes)),
    /** The status and the parsed body, or what went wrong. */
    result: closed.then(() => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.subarray(0, split).toString();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      const { payload, complete } = /transfer-encoding: chunked/i.test(head)
        ? dechunk(raw.subarray(split + 4))
        : whole(raw.subarray(split + 4), Number(/content-length: (\d+)/i.exec(head)?.[1] ?? -1));
      return { failure, status, complete, payload };
    }),
  };
}

/** A chunked body decoded; complete only when its last (empty) chunk arrived. */
function dechunk(body: Buffer): { payload: string; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = body.indexOf('\r\n', at);
    if (end < 0) return { payload: Buffer.concat(parts).toString(), complete: false };
    const size = Number.parseInt(body.subarray(at, end).toString(), 16);
    if (size === 0) return { payload: Buffer.concat(parts).toString(), complete: true };
    if (end + 2 + size > body.byteLength)
      return { payload: Buffer.concat(parts).toString(), complete: false };
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

const whole = (body: Buffer, length: number) => ({
  payload: body.toString(),
  complete: body.byteLength === length,
});

const batch = (size: number) =>
  JSON.stringify(
    Array.from({ length: size }, (_, index) => ({
      cpu_count: (index % 4) + 1,
      region: 'us_east_1',
      duration: 1,
    })),
  );

describe('serve: SIGTERM drains every received request (issue 39 item 2)', () => {
  it('three 10,000-element batches and three uploads still arriving all get their full 200', async () => {
    const served = await startServe(['--max-batch-size', '10000', '--max-body-bytes', '10000000']);
    const big = batch(10_000);
    const large = [0, 1, 2].map(() => exchange(served.port, big, Buffer.byteLength(big)));
    const slowBody = batch(50);
    const slow = [0, 1, 2].map(() => exchange(served.port, slowBody, 100));
    await new Promise((resolve) => setTimeout(resolve, 150));
    served.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const upload of slow) upload.finish();
    const results = await Promise.all([...large, ...slow].map((item) => item.result));
    for (const [index, result] of results.entries()) {
      expect({ index, failure: result.failure, status: result.status, complete: result.complete }).toEqual({
        index,
        failure: undefined,
        status: '200',
        complete: true,
      });
      const parsed = JSON.parse(result.payload) as { co2e: number }[];
      expect(parsed).toHaveLength(index < 3 ? 10_000 : 50);
      expect(parsed[1]?.co2e).toBe(0.0020885816); // 2 CPU-hours × 0.0010442908 kg
    }
    expect(await served.exited).toBe(0);
    expect(served.stderr()).not.toContain('still running');
  }, 60_000);

  it('a request the kernel holds when SIGTERM arrives (process stopped) is still answered', async () => {
    const served = await startServe([]);
    // SIGSTOP freezes the server, so the connection waits in the kernel's accept queue with its request sent, and
    // SIGTERM is pending: on SIGCONT the server sees the signal and the connection in the same turn.
    served.child.kill('SIGSTOP');
    const whole = exchange(served.port, batch(3), Buffer.byteLength(batch(3)));
    const slow = exchange(served.port, batch(50), 100);
    // Both requests are with the kernel before the signal, so that the test does not race its own writes: a
    // connection that has sent nothing when the drain begins is silent, and the drain closes it.
    await Promise.all([whole.sent, slow.sent]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    served.child.kill('SIGTERM');
    served.child.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    slow.finish();
    const results = await Promise.all([whole.result, slow.result]);
    expect(results.map(({ failure, status, complete }) => ({ failure, status, complete }))).toEqual([
      { failure: undefined, status: '200', complete: true },
      { failure: undefined, status: '200', complete: true },
    ]);
    expect(await served.exited).toBe(0);
  }, 30_000);
});

/** Pipelined requests' text: each head and body, one after another. */
const pipelined = (bodies: readonly string[]) =>
  bodies
    .map(
      (body) =>
        `POST /compute/aws/cpu/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    .join('');

/** The responses of one connection, one after another: each head, then its chunked body. */
function answersOf(bytes: Buffer) {
  let raw = bytes;
  const answers: Array<{ status?: string; close: boolean; complete: boolean; elements: number }> = [];
  while (raw.byteLength > 0) {
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString();
    const body = raw.subarray(split + 4);
    const { payload, complete } = dechunk(body);
    const end = body.indexOf('\r\n0\r\n\r\n');
    answers.push({
      status: /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1],
      close: /\r\nconnection: close/i.test(head),
      complete,
      elements: complete ? (JSON.parse(payload) as unknown[]).length : -1,
    });
    raw = end < 0 ? Buffer.alloc(0) : body.subarray(end + 7);
  }
  return answers;
}

describe('serve: SIGTERM with pipelined requests on one connection', () => {
  it('answers each in order, and only the last says the connection closes', async () => {
    const served = await startServe(['--max-batch-size', '10000', '--max-body-bytes', '10000000']);
    const bodies = [batch(10_000), batch(10_000), batch(3)];
    const socket = connect(served.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // All three sent at once, before the first is answered: HTTP/1.1 pipelining.
    socket.write(pipelined(bodies));
    await new Promise((resolve) => setTimeout(resolve, 50));
    served.child.kill('SIGTERM');
    await closed;
    const answers = answersOf(Buffer.concat(chunks));
    // Every request is answered, in order. None before the last says `connection: close`: a client would take the
    // connection to end there and drop the answers after it (as Node's server itself does with the requests after
    // such a response). The last one says it where its head was not yet written at the signal; the server ends the
    // connection after it either way.
    expect(answers.map(({ status, complete, elements }) => ({ status, complete, elements }))).toEqual([
      { status: '200', complete: true, elements: 10_000 },
      { status: '200', complete: true, elements: 10_000 },
      { status: '200', complete: true, elements: 3 },
    ]);
    expect(answers.slice(0, -1).map(({ close }) => close)).toEqual([false, false]);
    expect(await served.exited).toBe(0);
  }, 60_000);

  it('answers the requests that arrive after the signal behind one in flight, and closes after the last', async () => {
    const served = await startServe([]);
    const first = batch(50);
    const text = pipelined([first, batch(3), batch(2)]);
    const socket = connect(served.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // The first request's head and part of its body before the signal; the rest of it, and two more requests
    // behind it, after: the first is still unanswered when the others come, its answer not begun.
    const cut = text.indexOf('\r\n\r\n') + 4 + 100;
    socket.write(text.slice(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 150));
    served.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(text.slice(cut));
    await closed;
    expect(answersOf(Buffer.concat(chunks))).toEqual([
      { status: '200', close: false, complete: true, elements: 50 },
      { status: '200', close: false, complete: true, elements: 3 },
      { status: '200', close: true, complete: true, elements: 2 },
    ]);
    expect(await served.exited).toBe(0);
  }, 30_000);
});
