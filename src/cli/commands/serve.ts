import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { InvalidArgumentError, Option } from 'commander';
import type { Datasets } from '../../datasets/types';
import { HANDLER_CEILINGS } from '../../http/create-handler';
import { answerClientError } from '../../http/client-error';
import { createNodeListener } from '../../http/node-handler';
import { type CliIo, EXIT, UsageError } from '../io';

/** `serve`: the HTTP handler on node:http until the signal aborts. */

export interface ServeOptions {
  port: number;
  host: string;
  /** API keys from `--api-key`; `CO2E_API_KEYS` (comma-separated) adds more. */
  apiKeys: readonly string[];
  maxBatchSize?: number;
  maxBodyBytes?: number;
  /** Milliseconds a client has to send its request headers (408 and close after). */
  headersTimeout?: number;
  /** Milliseconds a client has to send its whole request, body included (408 and close after). */
  requestTimeout?: number;
  /** Milliseconds a kept-alive connection may sit idle between requests before it is closed. */
  idleTimeout?: number;
  /** Most open connections; further ones are dropped until one closes. */
  maxConnections?: number;
  /** Most of those connections one client address may hold, so one client cannot fill the cap. */
  maxConnectionsPerAddress?: number;
  /** Slowest a client may send a request (headers or body) once it has begun, in bytes per second after 2 s. */
  minBytesPerSecond?: number;
  /** Milliseconds in-flight requests get to finish after SIGTERM/SIGINT before their connections are cut. */
  shutdownGrace?: number;
  /** Origins from `--cors` (`*`: any); none: CORS off. */
  cors?: readonly string[];
}

/** The defaults of the timeout, connection and shutdown flags. */
export const SERVE_DEFAULTS = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  idleTimeout: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerAddress: 250,
  minBytesPerSecond: 500,
  shutdownGrace: 10_000,
});

function whole(name: string, min: number, max: number) {
  return (text: string): number => {
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return value;
  };
}

const HOUR_MS = 3_600_000;

/** `serve`'s limit, timeout and shutdown flags, for the command's registration in run-cli. */
export function serveLimitOptions(): Option[] {
  const option = (flags: string, description: string, min: number, max: number, fallback: number) =>
    new Option(flags, description)
      .argParser(whole(flags.split(' ')[0] as string, min, max))
      .default(fallback);
  return [
    option('--max-batch-size <n>', 'most elements per batch request', 1, HANDLER_CEILINGS.maxBatchSize, 100),
    option(
      '--max-body-bytes <n>',
      'largest request body in bytes',
      1,
      HANDLER_CEILINGS.maxBodyBytes,
      1_000_000,
    ),
    option(
      '--headers-timeout <ms>',
      'time a client has to send its headers',
      1,
      HOUR_MS,
      SERVE_DEFAULTS.headersTimeout,
    ),
    option(
      '--request-timeout <ms>',
      'time a client has to send its whole request',
      1,
      HOUR_MS,
      SERVE_DEFAULTS.requestTimeout,
    ),
    option(
      '--idle-timeout <ms>',
      'time a kept-alive connection may be idle',
      1,
      HOUR_MS,
      SERVE_DEFAULTS.idleTimeout,
    ),
    option('--max-connections <n>', 'most open connections', 1, 1_000_000, SERVE_DEFAULTS.maxConnections),
    option(
      '--max-connections-per-address <n>',
      'most open connections from one client address',
      1,
      1_000_000,
      SERVE_DEFAULTS.maxConnectionsPerAddress,
    ),
    option(
      '--min-bytes-per-second <n>',
      'slowest a client may send its request, after 2 s',
      0,
      1_000_000_000,
      SERVE_DEFAULTS.minBytesPerSecond,
    ),
    option(
      '--shutdown-grace <ms>',
      'time in-flight requests get to finish on SIGTERM/SIGINT',
      0,
      HOUR_MS,
      SERVE_DEFAULTS.shutdownGrace,
    ),
  ];
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests in constant time, so response timing says nothing about how much of a key was right. */
function keyChecker(keys: readonly string[]): (key: string) => boolean {
  const digests = keys.map(digest);
  return (key) => {
    const candidate = digest(key);
    let match = false;
    for (const known of digests) match = timingSafeEqual(known, candidate) || match;
    return match;
  };
}

/**
 * The accepted keys: `--api-key` values and `CO2E_API_KEYS`' comma-separated ones. A key setting that yields no
 * key (`CO2E_API_KEYS=" , ,"`, `--api-key " "`) is an error, never an open server.
 */
function apiKeys(flagKeys: readonly string[], envKeys: string | undefined): string[] {
  for (const key of flagKeys) {
    if (key.trim() === '') throw new UsageError('--api-key is empty; give a key, or leave the flag out.');
  }
  const fromEnv = (envKeys ?? '').split(',').map((key) => key.trim());
  if (envKeys !== undefined && envKeys !== '' && fromEnv.every((key) => key === '')) {
    throw new UsageError(
      'CO2E_API_KEYS is set but holds no key; set comma-separated keys, or unset it for an open server.',
    );
  }
  return [...new Set([...flagKeys.map((key) => key.trim()), ...fromEnv].filter((key) => key !== ''))];
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;

/** createNodeListener, with a bad option (a `--cors` origin with a path) reported as a usage error. */
function createListenerOrUsageError(options: Parameters<typeof createNodeListener>[0]) {
  try {
    return createNodeListener(options);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Starts the server, reports its address on stderr, and resolves with exit code 0 once `io.signal` aborts.
 *
 * @throws {@link UsageError} when the address cannot be listened on (in use, not permitted).
 */
export async function serve(options: ServeOptions, datasets: Datasets, io: CliIo): Promise<number> {
  const keys = apiKeys(options.apiKeys, io.env.CO2E_API_KEYS);
  const timeouts = { ...SERVE_DEFAULTS, ...definedOnly(options) };
  if (timeouts.headersTimeout > timeouts.requestTimeout) {
    throw new UsageError(
      `--headers-timeout (${timeouts.headersTimeout}) must not exceed --request-timeout (${timeouts.requestTimeout}).`,
    );
  }
  const cors = options.cors ?? [];
  const listener = createListenerOrUsageError({
    datasets,
    ...(cors.length > 0 && { cors: { origins: cors.includes('*') ? '*' : cors } }),
    ...(keys.length > 0 && { authorize: keyChecker(keys) }),
    ...(options.maxBatchSize !== undefined && { maxBatchSize: options.maxBatchSize }),
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
    onError: (error) =>
      io.stderr.write(`co2e-engine serve: internal error: ${String((error as Error)?.stack ?? error)}\n`),
  });
  // Requests answered or being answered, for the drain's report. The responses themselves are found through their
  // connections (sockets.responses): a Set of them churned its hash table, and the tables it left in the old
  // generation kept every answer's objects alive through a young collection (bench/http.md).
  let running = 0;
  let stopping = false;
  /** Responses the drain marked as their connection's last (only once stopping: no churn under load). */
  const closing = new WeakSet<ServerResponse>();
  const closeAfter = (response: ServerResponse) => {
    if (response.headersSent) return;
    response.setHeader('connection', 'close');
    closing.add(response);
  };
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.idleTimeout,
      // How often Node checks the two timeouts above (its default, 30 s, would let a slow client overstay them).
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1_000, Math.floor(Math.min(timeouts.headersTimeout, timeouts.requestTimeout) / 4)),
      ),
    },
    (request, response) => {
      const socket = request.socket;
      const connection = sockets.admit(socket);
      if (connection === undefined) {
        socket.destroy();
        return;
      }
      running++;
      const earlier = sockets.receiving(connection, request, response);
      response.on('close', () => {
        running--;
        // A response begun before the signal kept its connection alive; end it once flushed ('close' follows
        // 'finish', when the last byte is with the kernel), so the server can close.
        if (sockets.answered(connection, socket) && stopping && !socket.destroyed) socket.end();
      });
      if (stopping) {
        // The connection closes after its last request only: Node's server drops the pipelined requests that follow
        // a response saying it closes, so an earlier one not yet begun no longer says so.
        if (earlier !== undefined && closing.has(earlier) && !earlier.headersSent)
          earlier.removeHeader('connection');
        closeAfter(response);
      }
      listener(request, response);
    },
  );
  // A client that half-closes after its request (`nc -N`, shutdown(SHUT_WR)) still gets its answer: by default node
  // ends the connection when the client's FIN arrives, and a batch answered after a turn of the event loop was
  // lost (0 bytes). Allowed half-open, node marks the response in progress its connection's last and closes after
  // it, and ends a connection with nothing in progress at once, so an idle half-closed one does not stay open.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true; // not in @types/node
  // A request node's parser refuses (malformed, headers over 16 KB) or that misses --headers-timeout or
  // --request-timeout gets the JSON error body every other answer has, not node's bare status line; while one of
  // the connection's responses is being written, the connection is only closed.
  server.on('clientError', (error: Error, socket: Socket) =>
    answerClientError(error, socket, sockets.busy(socket)),
  );
  // A request with `Expect: 100-continue` comes here instead of 'request', so node does not answer 100 before the
  // checks: the node edge sends it when it reads the body (createNodeListener).
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
  // Node's closeIdleConnections (which server.close() also calls) destroys a connection as soon as its response
  // is ended, even while megabytes of it still wait to be flushed: 2 of 3 large answers were cut mid-body at
  // SIGTERM. Here idle means what the drain needs: no response of this connection is still being written, and
  // nothing of a request is sent and unanswered (sockets.idle).
  server.closeIdleConnections = () => {
    for (const socket of sockets.open()) if (sockets.idle(socket)) socket.destroy();
  };
  const sockets = connectionCap(server, {
    max: timeouts.maxConnections,
    perAddress: Math.min(timeouts.maxConnectionsPerAddress, timeouts.maxConnections),
    firstByteMs: Math.min(FIRST_BYTE_TIMEOUT_MS, timeouts.headersTimeout),
    minBytesPerSecond: timeouts.minBytesPerSecond,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    throw new UsageError(
      `cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  io.stderr.write(`co2e-engine serve: listening on http://${host}:${address.port}\n`);
  if (keys.length > 0)
    io.stderr.write(
      `co2e-engine serve: ${keys.length} API key(s); requests need Authorization: Bearer <key>\n`,
    );
  else if (!LOOPBACK.has(options.host)) {
    io.stderr.write(
      'co2e-engine serve: warning: no API key and not bound to loopback; anyone who can reach it can use it\n',
    );
  }

  await new Promise<void>((resolve) => {
    if (io.signal === undefined) return; // runs until the process ends
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // Graceful: stop accepting, let in-flight requests finish (their connections close after the response), and
  // cut whatever is still open when the grace period ends.
  stopping = true;
  sockets.stop();
  for (const response of sockets.responses()) closeAfter(response);
  // Connections the kernel completed before the signal wait in its accept queue, their requests sent: closing the
  // listener now would reset them. Turns of the event loop accept them and read what they sent: until ACCEPT_TURNS
  // turns in a row accept nothing and every connection accepted has been heard from (on a loaded machine, two turns
  // alone left a sent request unread, and it was reset), for at most DRAIN_ACCEPT_MS.
  const draining = performance.now();
  for (let quiet = 0, seen = sockets.accepted(); quiet < ACCEPT_TURNS || sockets.unheard();) {
    if (performance.now() - draining >= DRAIN_ACCEPT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 1));
    const accepted = sockets.accepted();
    quiet = accepted === seen ? quiet + 1 : 0;
    seen = accepted;
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => {
    if (running > 0)
      io.stderr.write(
        `co2e-engine serve: ${running} request(s) still running after the grace period; closing them\n`,
      );
    server.closeAllConnections();
  }, timeouts.shutdownGrace);
  await closed;
  clearTimeout(cut);
  io.stderr.write('co2e-engine serve: stopped\n');
  return EXIT.ok;
}

/** Event-loop turns in a row without a new connection that the drain waits before closing the listener. */
const ACCEPT_TURNS = 2;
/** The most the drain waits for connections to be accepted and heard from (a silent one holds it this long). */
const DRAIN_ACCEPT_MS = 250;
/** How long a new connection may stay silent before it is closed (or the headers timeout, if shorter). */
const FIRST_BYTE_TIMEOUT_MS = 2_000;
/** How often silent connections are looked at. */
const SWEEP_MS = 50;
/** Time a request may take before its sending rate is judged, and how often it is. */
const PROGRESS_GRACE_MS = 2_000;
const PROGRESS_CHECK_MS = 250;

/**
 * Where a counted connection stands: the request being received, its last request's response until answered, how
 * many of its responses are not closed yet, and the rate's starting point. Kept per connection, so a request costs
 * one lookup (bench/http.md).
 */
interface Connection {
  request: IncomingMessage | undefined;
  response: ServerResponse | undefined;
  /** Its responses begun and not closed yet (more than one when requests are pipelined). */
  unanswered: number;
  since: number;
  bytes: number;
  /** bytesRead when its last answer was written (−1: none yet). */
  idleAt: number;
}

/**
 * The connection cap, counting only connections that have sent something. A connection that sends nothing (an
 * idle socket held open to exhaust the cap) waits outside the count and is closed after `firstByteMs`; when more
 * than `max` of them wait, the oldest is closed to make room, so silent sockets can neither lock clients out nor
 * pile up. A connection that speaks when `max` others are counted is closed, as before.
 */
function connectionCap(
  server: Server,
  limits: { max: number; perAddress: number; firstByteMs: number; minBytesPerSecond: number },
) {
  const { max, perAddress, firstByteMs, minBytesPerSecond } = limits;
  const open = new Set<Socket>();
  const byAddress = new Map<string, number>();
  const silent = new Map<Socket, number>();
  const counted = new Map<Socket, Connection>();
  let accepted = 0;
  const count = (socket: Socket): Connection | undefined => {
    const known = counted.get(socket);
    if (known !== undefined) return known;
    const address = socket.remoteAddress ?? '';
    const held = byAddress.get(address) ?? 0;
    if (counted.size >= max || held >= perAddress) return undefined;
    silent.delete(socket);
    byAddress.set(address, held + 1);
    const connection: Connection = {
      request: undefined,
      response: undefined,
      unanswered: 0,
      since: performance.now(),
      bytes: 0,
      idleAt: -1,
    };
    counted.set(socket, connection);
    socket.once('close', () => {
      counted.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
    return connection;
  };
  /**
   * Cuts a counted connection that is sending a request (its headers, or a body the handler is reading) slower
   * than `minBytesPerSecond` over the time since it began, once it has had PROGRESS_GRACE_MS: a client dripping a
   * header line a second holds a slot for 2 s, not for the whole headers timeout.
   */
  const checkProgress = (now: number) => {
    if (minBytesPerSecond === 0) return;
    for (const [socket, state] of counted) {
      const sending =
        state.request !== undefined
          ? !state.request.complete
          : state.idleAt < 0 || socket.bytesRead > state.idleAt; // new bytes after the last answer: headers
      if (!sending) {
        state.since = now;
        state.bytes = socket.bytesRead;
        continue;
      }
      const elapsed = now - state.since;
      if (elapsed < PROGRESS_GRACE_MS) continue;
      if (((socket.bytesRead - state.bytes) * 1000) / elapsed < minBytesPerSecond) socket.destroy();
    }
  };
  let lastProgressCheck = performance.now();
  const sweep = setInterval(() => {
    const now = performance.now();
    if (now - lastProgressCheck >= PROGRESS_CHECK_MS) {
      lastProgressCheck = now;
      checkProgress(now);
    }
    for (const [socket, since] of silent) {
      // A connection that spoke while its address's share (or the cap) was full waits, outside the count, for a
      // place until its first-byte time is up: closed at once, a dripping attacker reconnected at once, and 1,200
      // of them made the server accept and close thousands of connections a second.
      if (socket.bytesRead > 0 && count(socket) !== undefined) continue;
      if (now - since >= firstByteMs) {
        silent.delete(socket);
        socket.destroy();
      }
    }
  }, SWEEP_MS);
  sweep.unref();
  server.on('connection', (socket: Socket) => {
    if (silent.size >= max) {
      const [oldest] = silent.keys();
      if (oldest !== undefined) {
        silent.delete(oldest);
        oldest.destroy();
      }
    }
    silent.set(socket, performance.now());
    open.add(socket);
    accepted += 1;
    socket.once('close', () => {
      silent.delete(socket);
      open.delete(socket);
    });
  });
  return {
    /** Counts a connection that sent a request, and gives its state; undefined when the cap is full. */
    admit: count,
    stop: () => {
      clearInterval(sweep);
      // Connections still waiting for a place would hold the drain until its grace period: those that cannot have
      // one now are closed, as they would have been before they waited.
      for (const socket of silent.keys())
        if (socket.bytesRead > 0 && count(socket) === undefined) socket.destroy();
    },
    /** Every open connection, silent or counted. */
    open: () => open,
    /** How many connections were accepted so far. */
    accepted: () => accepted,
    /** Whether an open connection has not sent a byte yet (or not one that was read). */
    unheard: (): boolean => {
      for (const socket of silent.keys()) if (socket.bytesRead === 0) return true;
      return false;
    },
    /**
     * The response of each connection's last request not yet answered (of pipelined requests, the last: the one
     * after which the connection closes when it says so).
     */
    *responses(): Generator<ServerResponse> {
      for (const state of counted.values()) if (state.response !== undefined) yield state.response;
    },
    /** Whether a response of the connection is still being written. */
    busy: (socket: Socket): boolean => (counted.get(socket)?.unanswered ?? 0) > 0,
    /** Nothing to finish on the connection: it never sent a byte, or its last answer was written and it is silent since. */
    idle: (socket: Socket): boolean => {
      const state = counted.get(socket);
      if (state === undefined) return socket.bytesRead === 0;
      return state.request === undefined && state.idleAt >= 0 && socket.bytesRead === state.idleAt;
    },
    /**
     * A request arrived on the connection: its body, until complete, must keep up the minimum rate. Gives the
     * response of the connection's request before it, when that is not answered yet (HTTP/1.1 pipelining).
     */
    receiving: (
      connection: Connection,
      request: IncomingMessage,
      response: ServerResponse,
    ): ServerResponse | undefined => {
      const earlier = connection.response;
      connection.unanswered += 1;
      connection.request = request;
      connection.response = response;
      connection.since = performance.now();
      connection.bytes = request.socket.bytesRead;
      return earlier;
    },
    /**
     * One of the connection's responses closed; when it was the last one open, the connection is idle until it
     * sends more, and this gives true.
     */
    answered: (connection: Connection, socket: Socket): boolean => {
      connection.unanswered -= 1;
      if (connection.unanswered > 0) return false;
      connection.request = undefined;
      connection.response = undefined;
      connection.idleAt = connection.bytes = socket.bytesRead;
      connection.since = performance.now();
      return true;
    },
  };
}
