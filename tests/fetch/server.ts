import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A loopback stand-in for Zenodo's record API and file downloads, and for Eurostat's SDMX API, on 127.0.0.1.
 *
 * - `GET /api/records/<record>` answers as Zenodo does: `{"id", "files": [{"key", "size", "checksum": "md5:…",
 *   "links": {"self": …}}]}`, with `files` as set in `records` (the listed checksum is the real md5 of the bytes
 *   unless `checksums` replaces it).
 * - `GET /api/records/<record>/files/<key>/content` serves the bytes, honouring `Range: bytes=N-` with 206 and
 *   `Content-Range` (unless `ignoreRange`), and cutting the connection after `dropAfter` bytes of the next
 *   `drops` responses.
 * - `GET /eurostat/data/naio_10_cp15/<key>?…` answers `eurostat` (the TSV), whatever the key.
 * Every request is logged with its path and `Range`.
 */

export interface FakeServer {
  url: string;
  requests: Array<{ method: string; path: string; range: string | undefined }>;
  /** record → file name → bytes. */
  records: Map<string, Map<string, Uint8Array>>;
  /** file name → the checksum to list instead of the real one. */
  checksums: Map<string, string>;
  /** Bytes after which the next `drops` file responses are cut off. */
  dropAfter: number;
  drops: number;
  ignoreRange: boolean;
  /** Bytes after which file responses stop sending, without ending (undefined: send everything). */
  stallAfter: number | undefined;
  /** The naio_10_cp15 TSV served, and its status. */
  eurostat: string;
  eurostatStatus: number;
  close(): Promise<void>;
}

export const md5 = (bytes: Uint8Array) => `md5:${createHash('md5').update(bytes).digest('hex')}`;

/** `tls`: serve HTTPS with this key and certificate instead of plain HTTP. */
export async function startFakeServer(tls?: { key: string; cert: string }): Promise<FakeServer> {
  const fake = {
    url: '',
    requests: [],
    records: new Map(),
    checksums: new Map(),
    dropAfter: 0,
    drops: 0,
    ignoreRange: false,
    stallAfter: undefined,
    eurostat: '',
    eurostatStatus: 200,
  } as unknown as FakeServer;
  const sockets = new Set<Socket>();
  const handler: RequestListener = (req: IncomingMessage, res) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    fake.requests.push({ method: req.method ?? '', path: req.url ?? '', range: req.headers.range });
    const record = /^\/api\/records\/([^/]+)$/.exec(path);
    if (record !== null) {
      const files = fake.records.get(record[1] as string);
      if (files === undefined) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"status":404,"message":"not found"}');
        return;
      }
      const body = {
        id: Number(record[1]),
        files: [...files].map(([key, bytes]) => ({
          id: `uuid-${key}`,
          key,
          size: bytes.length,
          checksum: fake.checksums.get(key) ?? md5(bytes),
          links: { self: `https://zenodo.org/api/records/${record[1]}/files/${key}/content` },
        })),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const file = /^\/api\/records\/([^/]+)\/files\/([^/]+)\/content$/.exec(path);
    if (file !== null) {
      const bytes = fake.records.get(file[1] as string)?.get(file[2] as string);
      if (bytes === undefined) {
        res.writeHead(404).end();
        return;
      }
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const start = range !== null && !fake.ignoreRange ? Number(range[1]) : 0;
      if (start >= bytes.length && start > 0) {
        res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
        return;
      }
      const body = bytes.subarray(start);
      res.writeHead(start > 0 ? 206 : 200, {
        'content-type': 'application/zip',
        'content-length': String(body.length),
        'accept-ranges': 'bytes',
        ...(start > 0 ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
      });
      if (fake.stallAfter !== undefined) {
        res.write(body.subarray(0, fake.stallAfter)); // and never end
        return;
      }
      if (fake.drops > 0 && fake.dropAfter < body.length) {
        fake.drops -= 1;
        // Send the first bytes, give the client time to read them (a stream that errors drops what it has not
        // handed on), then end the connection mid-body.
        res.write(body.subarray(0, fake.dropAfter), () => setTimeout(() => res.socket?.end(), 50));
        return;
      }
      res.end(body);
      return;
    }
    if (path.startsWith('/eurostat/data/naio_10_cp15/')) {
      res
        .writeHead(fake.eurostatStatus, { 'content-type': 'text/tab-separated-values' })
        .end(fake.eurostatStatus === 200 ? fake.eurostat : 'no data');
      return;
    }
    res.writeHead(404).end();
  };
  const server: Server = tls === undefined ? createServer(handler) : createTlsServer(tls, handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/** A loopback HTTP proxy that tunnels CONNECT requests and logs their targets. */
export async function startConnectProxy(): Promise<{
  url: string;
  connects: string[];
  close(): Promise<void>;
}> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host as string, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    connects,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
