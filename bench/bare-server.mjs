// The baseline of bench/http.ts: a bare node:http server answering a fixed JSON body of the given size.
import { createServer } from 'node:http';

const size = Number(process.argv[2] ?? 300);
const body = JSON.stringify({ padding: 'x'.repeat(Math.max(0, size - 14)) });
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`bare: listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
