import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { answerClientError, createNodeListener } from '../../src/http/index';

/** `answerClientError` on a plain node:http server, as a `createNodeListener` user registers it. */

const server = createServer(createNodeListener({ datasets: defaultDatasets })).on(
  'clientError',
  answerClientError,
);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
  server.closeAllConnections();
});

/** Everything the server sends back to `text` until it closes the connection. */
function exchange(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

describe('answerClientError', () => {
  it('413 with the JSON body for chunk extensions past node’s limit', async () => {
    const received = await exchange(
      `POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'payload_too_large',
      error_code: 'payload_too_large',
      message: "The request's chunk extensions are larger than the server accepts.",
    });
  });

  it('after an answer on the connection (by default, as node decides), only closes it', async () => {
    const body = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
    const received = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        ),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.endsWith('}') || text.endsWith('\r\n0\r\n\r\n'))
          socket.write('GET nowhere HTTP/1.1\r\n\r\n');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
    });
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});
