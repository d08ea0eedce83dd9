import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, type HandlerOptions, toNodeListener } from '../../src/http/index';

/** A real node:http server on 127.0.0.1 and a free port, serving createHandler(options) through toNodeListener. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export async function startServer(options: HandlerOptions): Promise<TestServer> {
  const server: Server = createServer(toNodeListener(createHandler(options)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async post(path, body, headers = {}) {
      const response = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body:
          typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
      });
      return reply(response);
    },
  };
}
