import { writeFileSync } from 'node:fs';
import { createDeflateRaw, createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { defaultTables } from '../../src/embedded/index';
import { EXIOBASE_MARGIN_FILES } from '../../src/loaders/index';
import { loadExiobaseMargins, loadExiobaseRelease, readEurostatText } from '../../src/node/index';
import { tempPath } from '../cli/harness';

/**
 * Issue 39 item 7: every zip and gzip the loaders read has an entry-size and a compression-ratio cap, refused with
 * a clear "too large" error before memory grows; gzip truncation and corruption are named in words.
 */

const MB = 1 << 20;

/** `megabytes` MB of zero bytes, compressed by `make` a megabyte at a time (the test never holds them whole). */
async function compressZeros(megabytes: number, make: typeof createDeflateRaw | typeof createGzip) {
  const stream = make({ level: 9 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => stream.once('end', () => resolve()));
  const zeros = Buffer.alloc(MB);
  for (let index = 0; index < megabytes; index++)
    if (!stream.write(zeros)) await new Promise((resolve) => stream.once('drain', resolve));
  stream.end();
  await done;
  return Buffer.concat(chunks);
}

interface Entry {
  name: string;
  data: Buffer;
  method: 0 | 8;
  size: number;
}

/** A zip of the entries as given (sizes as declared, CRC left 0: the reader does not check it). */
function zipOf(entries: readonly Entry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.data.byteLength, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.byteLength, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    directory.push(central, name);
    offset += 30 + name.byteLength + entry.data.byteLength;
  }
  const centralBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

const stored = (name: string, text: string): Entry => {
  const data = Buffer.from(text);
  return { name, data, method: 0, size: data.byteLength };
};

/** The error a call throws, and how much the process's memory grew meanwhile. */
function attempt(run: () => unknown): { message: string; grewMb: number } {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let message = '(no error)';
  try {
    run();
  } catch (error) {
    message = (error as Error).message;
  }
  const after = process.memoryUsage();
  const grew = Math.max(after.rss - before.rss, after.arrayBuffers - before.arrayBuffers);
  return { message, grewMb: grew / MB };
}

const products = defaultTables.classifications.products;

describe('bounded decompression (issue 39 item 7)', () => {
  it('an EXIOBASE release whose impacts/M.txt inflates 600 MB of zeros is refused as too large, memory flat', async () => {
    const bomb = await compressZeros(600, createDeflateRaw);
    expect(bomb.byteLength).toBeLessThan(1 * MB);
    const path = tempPath('IOT_2019_pxp.zip');
    writeFileSync(
      path,
      zipOf([
        { name: 'IOT_2019_pxp/impacts/M.txt', data: bomb, method: 8, size: 600 * MB },
        stored('IOT_2019_pxp/x.txt', 'region\tsector\tindout\n'),
      ]),
    );
    const { message, grewMb } = attempt(() => loadExiobaseRelease(path, { year: 2019, products }));
    expect(message).toMatch(/impacts\/M\.txt.*too large/);
    expect(message.length).toBeLessThanOrEqual(200 + path.length);
    expect(grewMb).toBeLessThan(100);
  }, 60_000);

  it('an entry that inflates past the size its directory declares is refused, not trusted', async () => {
    const bomb = await compressZeros(64, createDeflateRaw);
    const path = tempPath('IOT_2019_pxp-liar.zip');
    writeFileSync(
      path,
      zipOf([
        { name: 'IOT_2019_pxp/impacts/M.txt', data: bomb, method: 8, size: 1000 },
        stored('IOT_2019_pxp/x.txt', 'region\tsector\tindout\n'),
      ]),
    );
    const { message } = attempt(() => loadExiobaseRelease(path, { year: 2019, products }));
    expect(message).toMatch(/impacts\/M\.txt.*(too large|more than)/);
  }, 60_000);

  it('EXIOBASE margins read entry by entry: a bomb among them is refused as it inflates, memory flat', async () => {
    const bomb = await compressZeros(600, createDeflateRaw);
    const path = tempPath('MRSUT_2019.zip');
    writeFileSync(
      path,
      zipOf(
        Object.values(EXIOBASE_MARGIN_FILES).map((file) => ({
          name: `MRSUT_2019/${file}`,
          data: bomb,
          method: 8 as const,
          size: 600 * MB,
        })),
      ),
    );
    const { message, grewMb } = attempt(() => loadExiobaseMargins(path, { year: 2019, products }));
    expect(message).toMatch(/too large/);
    expect(grewMb).toBeLessThan(100);
  }, 60_000);

  it('a Eurostat .tsv.gz that inflates 600 MB of zeros is refused as too large, memory flat', async () => {
    const path = tempPath('naio_10_cp15.tsv.gz');
    writeFileSync(path, await compressZeros(600, createGzip));
    const { message, grewMb } = attempt(() => readEurostatText(path));
    expect(message).toMatch(/too large/);
    expect(grewMb).toBeLessThan(100);
  }, 60_000);

  it('a truncated or corrupt gzip file is named so, in words', () => {
    const whole = gzipSync(Buffer.from('freq,unit\tA\n'.repeat(1000)));
    const truncated = tempPath('truncated.tsv.gz');
    writeFileSync(truncated, whole.subarray(0, whole.byteLength - 40));
    const corrupt = tempPath('corrupt.tsv.gz');
    const bad = Buffer.from(whole);
    bad.fill(0xff, 20, 40);
    writeFileSync(corrupt, bad);
    const truncatedMessage = attempt(() => readEurostatText(truncated)).message;
    expect(truncatedMessage).toMatch(/truncated/);
    expect(truncatedMessage).not.toMatch(/Z_BUF_ERROR|unexpected end/);
    const corruptMessage = attempt(() => readEurostatText(corrupt)).message;
    expect(corruptMessage).toMatch(/corrupt/);
    expect(corruptMessage).not.toMatch(/Z_DATA_ERROR/);
  });
});
