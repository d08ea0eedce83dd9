import { connect, type Socket } from 'node:net';

/**
 * The slowloris attacker of issue 39 item 6, shared by tests/http/slow-clients.test.ts and bench/blocking.ts.
 */

/** `count` connections from 127.0.0.2, each sending a request line then one header line a second, re-opened when cut. */
export function dripping(port: number, count: number) {
  let stopped = false;
  let opened = 0;
  const sockets = new Set<Socket>();
  const open = () => {
    if (stopped) return;
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    opened++;
    sockets.add(socket);
    let line = 0;
    const timer = setInterval(() => socket.write(`X-Drip-${line++}: ${'a'.repeat(10)}\r\n`), 1_000);
    socket.on('connect', () => socket.write('POST /compute/aws/cpu HTTP/1.1\r\nHost: x\r\n'));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      setTimeout(open, 50);
    });
  };
  for (let index = 0; index < count; index++) open();
  return {
    opened: () => opened,
    stop: () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
