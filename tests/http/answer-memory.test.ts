import fc from 'fast-check';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isErrorBody } from '../../src/core/batch';
import { defaultDatasets } from '../../src/embedded/index';
import { createNodeListener } from '../../src/http/index';
import { type BatchWriter, batchWriter } from '../../src/http/json-writer';
import { toWireEstimate } from '../../src/http/wire';
import { calculateCpuBatch } from '../../src/index';

/**
 * Issue 40 item 4: a batch answer's bytes are cut from a slab, and an answer the edge gives back once written lends
 * its memory to the next answer. An answer still held (not yet written, or never given back) keeps its bytes
 * whatever is written and given back after it.
 */

const REGIONS = ['us_east_1', 'eu_west_1', 'ap_southeast_2'];
const results = calculateCpuBatch(
  'aws',
  Array.from({ length: 200 }, (_, index) => ({
    cpu_count: (index % 13) + 1,
    region: REGIONS[index % 3] as string,
    duration: 1 + index / 7,
  })),
  defaultDatasets,
);
/** The wire text of the results from `from` to `to`, as JSON.stringify writes it. */
const expected = (from: number, to: number) =>
  JSON.stringify(
    results.slice(from, to).map((result) => (isErrorBody(result) ? result : toWireEstimate(result as never))),
  );

interface Answer {
  writer: BatchWriter;
  body: Uint8Array[];
  from: number;
  to: number;
}

/** A whole answer of the results from `from` to `to`, in slices of 16, not given back. */
function answer(from: number, to: number): Answer {
  const writer = batchWriter({ wire: true, maxLength: 1e9, count: to - from });
  for (let start = from; start < to; start += 16) writer.add(results.slice(start, Math.min(to, start + 16)));
  return { writer, body: writer.end() as Uint8Array[], from, to };
}

const textOf = (body: readonly Uint8Array[]) => Buffer.concat(body).toString('utf8');
const place = (body: readonly Uint8Array[]) => [body[0]?.buffer, body[0]?.byteOffset];

/**
 * Writes answers and gives each back at once, until one is written where the one before it was: from then on no
 * answer written earlier in this file holds the slab being cut.
 */
function settle(): void {
  let last = answer(0, 50);
  last.writer.release();
  for (let tries = 0; tries < 100; tries++) {
    const next = answer(0, 50);
    next.writer.release();
    if (place(next.body)[0] === place(last.body)[0] && place(next.body)[1] === place(last.body)[1]) return;
    last = next;
  }
  throw new Error('no answer was written where the last one given back was');
}

describe('the memory of batch answers (issue 40 item 4)', () => {
  it('an answer given back is written over by the next one, its text as JSON.stringify writes it', () => {
    settle();
    const first = answer(0, 100);
    expect(textOf(first.body)).toBe(expected(0, 100));
    first.writer.release();
    const second = answer(100, 200);
    expect(place(second.body)).toEqual(place(first.body));
    expect(textOf(second.body)).toBe(expected(100, 200));
    second.writer.release();
  });

  it('an answer still held keeps its bytes while many are written and given back after it', () => {
    settle();
    const held = answer(0, 120);
    for (let round = 0; round < 60; round++) {
      const other = answer(round % 7, 200 - (round % 11));
      expect(textOf(other.body)).toBe(expected(other.from, other.to));
      other.writer.release();
    }
    expect(textOf(held.body)).toBe(expected(0, 120));
    held.writer.release();
  });

  it('giving an answer back twice gives back no other answer held beside it', () => {
    settle();
    const held = answer(0, 80);
    const twice = answer(80, 160);
    twice.writer.release();
    twice.writer.release();
    const later = answer(120, 200);
    expect(textOf(held.body)).toBe(expected(0, 80));
    expect(textOf(later.body)).toBe(expected(120, 200));
    held.writer.release();
    later.writer.release();
  });

  it('an answer that grows while others are cut after it, into later slabs, keeps its bytes', () => {
    settle();
    const growing = batchWriter({ wire: true, maxLength: 1e9, count: 1 });
    const others: Answer[] = [];
    // 40 answers of 77 KB cut after it: it cannot grow in place, and moves, the last time into the third slab.
    for (let start = 0; start < 200; start += 5) {
      growing.add(results.slice(start, start + 5));
      others.push(answer(0, 100));
    }
    for (const other of others) other.writer.release();
    // Held answers over a whole slab's bytes: one of them would be written where it is, were it given back.
    const after = Array.from({ length: 14 }, () => answer(100, 200));
    expect(textOf(growing.end() as Uint8Array[])).toBe(expected(0, 200));
    growing.release();
    for (const other of after) other.writer.release();
  });

  it('answers opened, grown, ended, given back and abandoned in any order keep their bytes while held', () => {
    const step = fc.record({
      kind: fc.constantFrom('open', 'add', 'end', 'release', 'abandon'),
      pick: fc.nat(),
      size: fc.integer({ min: 1, max: 60 }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const open: { writer: BatchWriter; from: number; to: number }[] = [];
        const held: Answer[] = [];
        let start = 0;
        for (const { kind, pick, size } of steps) {
          if (kind === 'open') {
            start = (start + 37) % 150;
            // Sized right, for one element, or not sized: the buffer grows in place or moves.
            const count = [size, 1, undefined][pick % 3];
            open.push({ writer: batchWriter({ wire: true, maxLength: 1e9, count }), from: start, to: start });
          } else if (open.length > 0 && kind === 'add') {
            const writing = open[pick % open.length]!;
            const to = Math.min(200, writing.to + size);
            writing.writer.add(results.slice(writing.to, to));
            writing.to = to;
          } else if (open.length > 0 && (kind === 'end' || kind === 'abandon')) {
            const [writing] = open.splice(pick % open.length, 1);
            if (kind === 'abandon') writing!.writer.release();
            else held.push({ ...writing!, body: writing!.writer.end() as Uint8Array[] });
          } else if (held.length > 0 && kind === 'release') {
            const [given] = held.splice(pick % held.length, 1);
            expect(textOf(given!.body)).toBe(expected(given!.from, given!.to));
            given!.writer.release();
          }
        }
        for (const kept of held) expect(textOf(kept.body)).toBe(expected(kept.from, kept.to));
        for (const kept of held) kept.writer.release();
        for (const writing of open) writing.writer.release();
      }),
      { numRuns: 200 },
    );
  });
});

/** The bodies of `count` answers read from a socket, each de-chunked as node frames a batch answer. */
function readAnswers(socket: Socket, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    const bodies: string[] = [];
    const parse = () => {
      for (;;) {
        const headEnd = bytes.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        const head = bytes.subarray(0, headEnd).toString('latin1');
        if (!/^HTTP\/1\.1 200 /.test(head) || !/transfer-encoding: chunked/i.test(head))
          return reject(new Error(`unexpected answer: ${head}`));
        const chunks: Buffer[] = [];
        let at = headEnd + 4;
        for (;;) {
          const sizeEnd = bytes.indexOf('\r\n', at);
          if (sizeEnd === -1) return;
          const size = Number.parseInt(bytes.subarray(at, sizeEnd).toString('latin1'), 16);
          if (bytes.length < sizeEnd + 2 + size + 2) return;
          chunks.push(bytes.subarray(sizeEnd + 2, sizeEnd + 2 + size));
          at = sizeEnd + 2 + size + 2;
          if (size === 0) break;
        }
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        bytes = bytes.subarray(at);
        if (bodies.length === count) return resolve(bodies);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      parse();
    });
    socket.on('error', reject);
  });
}

describe('answers given back by the node edge (issue 40 item 4)', () => {
  it('a client that reads its pipelined answers late gets each whole, while others are answered meanwhile', async () => {
    const server = createServer(createNodeListener({ datasets: defaultDatasets, maxBatchSize: 200 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const batch = (seed: number) =>
        Array.from({ length: 200 }, (_, index) => ({
          cpu_count: ((index + seed) % 13) + 1,
          region: REGIONS[(index + seed) % 3] as string,
          duration: 1 + seed / 8,
        }));
      const wireText = (requests: ReturnType<typeof batch>) =>
        JSON.stringify(
          calculateCpuBatch('aws', requests, defaultDatasets).map((result) =>
            toWireEstimate(result as never),
          ),
        );
      // 40 answers of 155 KB, more than loopback's buffers hold: most wait in node until the client reads.
      const late = connect(port, '127.0.0.1');
      late.pause();
      const seeds = Array.from({ length: 40 }, (_, index) => index);
      late.write(
        seeds
          .map((seed) => {
            const body = JSON.stringify(batch(seed));
            return `POST /compute/aws/cpu/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
          })
          .join(''),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Meanwhile other answers are written, and given back, where the late ones would be if given back too early.
      for (let seed = 100; seed < 160; seed++) {
        const requests = batch(seed);
        const response = await fetch(`http://127.0.0.1:${port}/compute/aws/cpu/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(requests),
        });
        expect(await response.text()).toBe(wireText(requests));
      }
      const answers = readAnswers(late, seeds.length);
      late.resume();
      const bodies = await answers;
      late.destroy();
      bodies.forEach((body, index) => expect(body).toBe(wireText(batch(seeds[index] as number))));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  it('the answers of a client that goes away unread are given back, those queued behind others too', async () => {
    const server = createServer(createNodeListener({ datasets: defaultDatasets, maxBatchSize: 200 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      settle();
      const body = JSON.stringify(
        Array.from({ length: 200 }, (_, index) => ({
          cpu_count: (index % 13) + 1,
          region: 'us_east_1',
          duration: 1,
        })),
      );
      // 40 pipelined answers of 155 KB the client never reads: one is being written when it goes, the rest queued.
      const gone = connect(port, '127.0.0.1');
      gone.pause();
      gone.write(
        `POST /compute/aws/cpu/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`.repeat(
          40,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      gone.destroy();
      // Until the server has seen the connection close and has no answer left to write.
      for (let wait = 0; wait < 100; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const open = await new Promise<number>((resolve) =>
          server.getConnections((_, count) => resolve(count)),
        );
        if (open === 0) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Were any of them still counted as held, the next answer would be cut after them, not at its slab's start.
      const next = answer(0, 50);
      expect(next.body[0]?.byteOffset).toBe(0);
      next.writer.release();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
