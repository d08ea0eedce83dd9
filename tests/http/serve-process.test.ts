import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

/** `co2e-engine serve` as a real process on 127.0.0.1: shutdown, limits, timeouts and key checks (issue 12). */

const CLI = ['--import', 'tsx', 'src/cli/index.ts', 'serve', '--port', '0'];
const running = new Set<ChildProcess>();

interface Served {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startServe(argv: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [...CLI, ...argv], {
    env: { ...process.env, CO2E_API_KEYS: undefined, ...env },
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

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** A raw HTTP/1.1 exchange, so the test controls when each byte is sent. */
function rawSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

const CPU = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('serve: graceful shutdown (issue 12 item 6)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'a request whose body is still arriving when %s lands gets its full response',
    async (signal) => {
      const served = await startServe();
      const { socket, received, closed } = await rawSocket(served.port);
      socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)) + CPU.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server has the headers and part of the body
      served.child.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.write(CPU.slice(10));
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(received()).toMatch(/connection: close/i);
      // 1 CPU-hour × 0.0010442908 kg (see tests/http/routes.test.ts)
      expect(received()).toContain('"co2e":0.0010442908');
      expect(await served.exited).toBe(0);
      expect(served.stderr()).toContain('co2e-engine serve: stopped');
    },
  );

  it('stops accepting at once, and cuts a request still open when the grace period ends', async () => {
    const served = await startServe(['--shutdown-grace', '300']);
    const { socket, closed } = await rawSocket(served.port);
    socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    served.child.kill('SIGTERM');
    await closed;
    expect(await served.exited).toBe(0);
    expect(served.stderr()).toContain('1 request(s) still running after the grace period');
    await expect(rawSocket(served.port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('serve: bounded input (issue 12 item 7)', () => {
  it.each([
    [['--max-batch-size', '1000000'], '--max-batch-size must be a whole number from 1 to 10000.'],
    [['--max-body-bytes', '1000000000'], '--max-body-bytes must be a whole number from 1 to 10000000.'],
  ])('%j is refused at startup', async (argv, message) => {
    await expect(startServe(argv)).rejects.toThrow(message);
  });

  it('a batch at the ceiling is answered in full (200, every element), never a 500', async () => {
    const served = await startServe(['--max-batch-size', '10000', '--max-body-bytes', '10000000']);
    const batch = Array.from({ length: 10_000 }, (_, index) => ({
      cpu_count: (index % 4) + 1,
      region: 'us_east_1',
      duration: 1,
    }));
    const response = await fetch(`http://127.0.0.1:${served.port}/compute/aws/cpu/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    const results = (await response.json()) as { co2e: number }[];
    expect(results).toHaveLength(10_000);
    expect(results[1]?.co2e).toBe(0.0020885816); // 2 CPU-hours × 0.0010442908 kg
    const tooMany = await fetch(`http://127.0.0.1:${served.port}/compute/aws/cpu/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([...batch, batch[0]]),
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error_code: string }).error_code).toBe('batch_too_large');
  });
});

describe('serve: timeouts and connection cap (issue 12 item 8)', () => {
  it('a client that never finishes its headers is cut after --headers-timeout', async () => {
    const served = await startServe(['--headers-timeout', '300', '--request-timeout', '600']);
    const { socket, received, closed } = await rawSocket(served.port);
    socket.write('POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\n');
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a client that trickles its body is cut after --request-timeout', async () => {
    const served = await startServe(['--headers-timeout', '300', '--request-timeout', '600']);
    const { socket, received, closed } = await rawSocket(served.port);
    socket.write(head('/compute/aws/cpu', 1000) + '[');
    const trickle = setInterval(() => socket.write(' '), 100);
    await closed;
    clearInterval(trickle);
    expect(received()).not.toMatch(/200 OK/);
  });

  it('an idle kept-alive connection is closed after --idle-timeout', async () => {
    const served = await startServe(['--idle-timeout', '200']);
    const { socket, received, closed } = await rawSocket(served.port);
    socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)) + CPU);
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('connections beyond --max-connections are dropped', async () => {
    const served = await startServe(['--max-connections', '1']);
    const first = await rawSocket(served.port);
    // Counted once it has sent something: half its request.
    first.socket.write('POST /compute/aws/cpu HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await rawSocket(served.port);
    second.socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)) + CPU);
    await second.closed;
    expect(second.received()).toBe('');
    first.socket.write(
      `Host: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(CPU)}\r\n\r\n${CPU}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 OK/);
    first.socket.destroy();
  });

  // Issue 23 item 8: 1,000 sockets that never sent a byte held the cap and locked every client out.
  it('silent connections do not count toward --max-connections and are closed after 2 s', async () => {
    const served = await startServe(['--max-connections', '3']);
    const idle = await Promise.all(Array.from({ length: 10 }, () => rawSocket(served.port)));
    const client = await rawSocket(served.port);
    client.socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)) + CPU);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK/);
    client.socket.destroy();
    // The silent ones (at most 3 wait at a time: the oldest made room for newer ones) are closed, unanswered.
    const started = performance.now();
    await Promise.all(idle.map((socket) => socket.closed));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(idle.map((socket) => socket.received())).toEqual(Array(10).fill(''));
  });

  it('--headers-timeout above --request-timeout is refused', async () => {
    await expect(startServe(['--headers-timeout', '5000', '--request-timeout', '1000'])).rejects.toThrow(
      '--headers-timeout (5000) must not exceed --request-timeout (1000).',
    );
  });
});

describe('serve: API keys (issue 12 item 9)', () => {
  it.each([
    [[], { CO2E_API_KEYS: ' , ,' }, 'CO2E_API_KEYS is set but holds no key'],
    [['--api-key', 'k1'], { CO2E_API_KEYS: ',' }, 'CO2E_API_KEYS is set but holds no key'],
    [['--api-key', ' '], {}, '--api-key is empty'],
  ])('%j with %j is a startup error', async (argv, env, message) => {
    const refused = startServe(argv, env);
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toThrow(/exited 2/);
  });
});

/** Waits until the connection closes, or `ms` pass; what the client received by then. */
async function receivedWithin(exchange: Awaited<ReturnType<typeof rawSocket>>, ms: number): Promise<string> {
  await Promise.race([exchange.closed, new Promise((resolve) => setTimeout(resolve, ms))]);
  return exchange.received();
}

describe('serve: Expect: 100-continue', () => {
  const expecting = (path: string, length: number, headers = '') =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n${headers}\r\n`;

  it.each([
    [
      'a declared body over --max-body-bytes',
      '/compute/aws/cpu/batch',
      'Content-Type: application/json\r\n',
      413,
    ],
    ['no such route', '/compute/aws/gpu', 'Content-Type: application/json\r\n', 404],
    ['a body that is not JSON', '/compute/aws/cpu', 'Content-Type: text/plain\r\n', 415],
  ])('%s: the refusal, without 100 Continue, and the connection closed', async (_, path, headers, status) => {
    const served = await startServe();
    const exchange = await rawSocket(served.port);
    // 1.25 MB declared, none of it sent: the client waits for 100 Continue before sending it.
    exchange.socket.write(expecting(path, 1_250_000, headers));
    const received = await receivedWithin(exchange, 3_000);
    expect(received).not.toMatch(/100 Continue/);
    expect(received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(/\{.*\}/s.exec(received)?.[0] ?? '').error_code).toBeTypeOf('string');
    await exchange.closed; // not kept waiting for 1.25 MB that will never come
  });

  it('a keyed server without a key: 401 without 100 Continue', async () => {
    const served = await startServe(['--api-key', 'k1']);
    const exchange = await rawSocket(served.port);
    exchange.socket.write(expecting('/compute/aws/cpu', 1_000, 'Content-Type: application/json\r\n'));
    const received = await receivedWithin(exchange, 3_000);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    await exchange.closed;
  });

  it('an acceptable request gets 100 Continue, then its answer once the body is sent', async () => {
    const served = await startServe();
    const exchange = await rawSocket(served.port);
    exchange.socket.write(
      expecting('/compute/aws/cpu', Buffer.byteLength(CPU), 'Content-Type: application/json\r\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(exchange.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    exchange.socket.write(CPU);
    while (!/\r\n0\r\n\r\n$|"co2e"[\s\S]*}$/.test(exchange.received()))
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exchange.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    exchange.socket.destroy();
  });
});

describe('serve: a client that half-closes after sending', () => {
  /** A connection that may keep reading after its own end (as `nc -N` or `shutdown(SHUT_WR)`). */
  function halfOpen(port: number) {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    return { socket, received: () => received, closed };
  }
  const instances = JSON.stringify(
    Array.from({ length: 100 }, () => ({ instance: 'm5.24xlarge', region: 'us_east_1', duration: 1 })),
  );

  it('gets the whole answer to a large batch, then the connection closes', async () => {
    const served = await startServe();
    const client = halfOpen(served.port);
    client.socket.end(head('/compute/aws/instance/batch', instances.length) + instances);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // 100 results, each with its instance name (the chunked answer ends with its last chunk).
    expect(client.received().match(/"m5\.24xlarge"/g)?.length).toBeGreaterThanOrEqual(100);
    expect(client.received()).toMatch(/\r\n0\r\n\r\n$/);
  });

  it('is still closed when it half-closes idle, after an answer or before any request', async () => {
    const served = await startServe();
    const answered = halfOpen(served.port);
    answered.socket.write(head('/compute/aws/cpu', Buffer.byteLength(CPU)) + CPU);
    while (!/}$|\r\n0\r\n\r\n$/.test(answered.received()))
      await new Promise((resolve) => setTimeout(resolve, 20));
    answered.socket.end();
    const silent = halfOpen(served.port);
    silent.socket.end();
    // Well within --idle-timeout (5 s) and the 2 s first-byte limit: closed because the client ended.
    const within = (closed: Promise<void>) =>
      Promise.race([
        closed.then(() => 'closed'),
        new Promise((resolve) => setTimeout(resolve, 1_000, 'open')),
      ]);
    expect(await within(answered.closed)).toBe('closed');
    expect(await within(silent.closed)).toBe('closed');
  });

  it('is closed when it half-closes in the middle of its body', async () => {
    const served = await startServe();
    const cut = halfOpen(served.port);
    cut.socket.end(head('/compute/aws/cpu', 1_000) + CPU.slice(0, 10));
    const started = performance.now();
    await cut.closed;
    expect(performance.now() - started).toBeLessThan(4_000); // not the 30 s --request-timeout
    expect(cut.received()).not.toMatch(/200 OK/);
  });
});

describe('serve: errors node answers before the handler have the JSON error body', () => {
  /** The status line, headers and parsed body of a raw answer. */
  const parsed = (received: string) => {
    const [head = '', body = ''] = received.split('\r\n\r\n');
    return { status: head.split(' ')[1], head, body: JSON.parse(body) as Record<string, unknown> };
  };
  const expectJsonError = (received: string, status: string, errorCode: string, message: string) => {
    const answer = parsed(received);
    expect(answer.status).toBe(status);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(answer.head).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(answer.head).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer.head).toMatch(
      new RegExp(`\\r\\ncontent-length: ${Buffer.byteLength(JSON.stringify(answer.body))}(\\r\\n|$)`, 'i'),
    );
    expect(answer.body).toEqual({ error: answer.body.error, error_code: errorCode, message });
  };

  it('408 when the headers do not arrive within --headers-timeout', async () => {
    const served = await startServe(['--headers-timeout', '300', '--request-timeout', '600']);
    const exchange = await rawSocket(served.port);
    exchange.socket.write('POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\n');
    await exchange.closed;
    expectJsonError(
      exchange.received(),
      '408',
      'request_timeout',
      'The request did not arrive in time; send it whole, without pauses.',
    );
  });

  it.each([
    [
      'two Content-Length headers',
      `POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
    ],
    ['a target without a leading /', `GET compute/metadata HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('400 for %s', async (_, request) => {
    const served = await startServe();
    const exchange = await rawSocket(served.port);
    exchange.socket.write(request);
    await exchange.closed;
    expectJsonError(exchange.received(), '400', 'invalid_request', 'The request is not valid HTTP/1.1.');
  });

  it('431 for headers past node’s 16 KB', async () => {
    const served = await startServe();
    const exchange = await rawSocket(served.port);
    exchange.socket.write(
      `GET /compute/metadata HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    await exchange.closed;
    expectJsonError(
      exchange.received(),
      '431',
      'headers_too_large',
      'The request headers are larger than the server accepts.',
    );
  });
});
