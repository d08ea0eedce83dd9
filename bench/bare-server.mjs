// The baseline of bench/http.ts (issue 24: "a bare node:http server that parses the same JSON"; issue 40: "answering
// the same bytes"): a node:http server that reads the request body, parses it with JSON.parse, and answers the
// bytes of the given file (what `serve` answered to the same request), or a fixed JSON body of the given size.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const argument = process.argv[2] ?? '300';
const body = /^\d+$/.test(argument)
  ? JSON.stringify({ padding: 'x'.repeat(Math.max(0, Number(argument) - 14)) })
  : readFileSync(argument);
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let parsed;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (parsed === null || typeof parsed !== 'object') {
      response.writeHead(400).end();
      return;
    }
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
