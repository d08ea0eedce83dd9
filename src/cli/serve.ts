import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Datasets } from '../datasets/types';
import { createHandler } from '../http/create-handler';
import { toNodeListener } from '../http/node';
import { type CliIo, EXIT, UsageError } from './io';

/** `serve`: the HTTP handler on node:http until the signal aborts. */

export interface ServeOptions {
  port: number;
  host: string;
  /** API keys from `--api-key`; `CO2E_API_KEYS` (comma-separated) adds more. */
  apiKeys: readonly string[];
  maxBatchSize?: number;
  maxBodyBytes?: number;
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

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Starts the server, reports its address on stderr, and resolves with exit code 0 once `io.signal` aborts.
 *
 * @throws {UsageError} when the address cannot be listened on (in use, not permitted).
 */
export async function serve(options: ServeOptions, datasets: Datasets, io: CliIo): Promise<number> {
  const fromEnv = (io.env.CO2E_API_KEYS ?? '').split(',');
  const keys = [
    ...new Set([...options.apiKeys, ...fromEnv].map((key) => key.trim()).filter((key) => key !== '')),
  ];
  const handler = createHandler({
    datasets,
    ...(keys.length > 0 && { authorize: keyChecker(keys) }),
    ...(options.maxBatchSize !== undefined && { maxBatchSize: options.maxBatchSize }),
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
    onError: (error) =>
      io.stderr.write(`co2e-engine serve: internal error: ${String((error as Error)?.stack ?? error)}\n`),
  });
  const server = createServer(toNodeListener(handler));
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
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  io.stderr.write('co2e-engine serve: stopped\n');
  return EXIT.ok;
}
