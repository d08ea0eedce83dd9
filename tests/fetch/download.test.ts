import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/cli/commands/proxy-fetch';
import {
  defaultCacheDir,
  DownloadError,
  downloadVerified,
  fetchExiobaseRelease,
  naioMarginsUrl,
  zenodoRecordFiles,
} from '../../src/node/index';
import { tempPath } from '../cli/harness';
import { type FakeServer, md5, startFakeServer } from './server';

/** The library part of `datasets fetch`: resumable verified downloads, the record API, the cache folder, proxies. */

const BYTES = new Uint8Array(Array.from({ length: 3000 }, (_, index) => (index * 7) % 256));

let server: FakeServer;
let dir: string;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.records.clear();
  server.records.set('1', new Map([['file.zip', BYTES]]));
  server.checksums.clear();
  server.requests.length = 0;
  server.drops = 0;
  server.ignoreRange = false;
  dir = tempPath('download');
});

const url = () => `${server.url}/api/records/1/files/file.zip/content`;
const download = (more: Partial<Parameters<typeof downloadVerified>[0]> = {}) =>
  downloadVerified({
    url: url(),
    path: join(dir, 'file.zip'),
    checksum: md5(BYTES),
    size: BYTES.length,
    retryDelay: 0,
    ...more,
  });
const partialOf = (bytes: Uint8Array) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'file.zip.partial'), bytes);
};

describe('downloadVerified', () => {
  it('starts over when the server ignores Range and sends the whole file', async () => {
    partialOf(BYTES.subarray(0, 1000));
    server.ignoreRange = true;
    const result = await download();
    expect(result.requests).toEqual([{ range: 'bytes=1000-', status: 200 }]);
    expect(readFileSync(join(dir, 'file.zip'))).toEqual(Buffer.from(BYTES));
  });

  it('checks a partial that is already whole without asking the server', async () => {
    partialOf(BYTES);
    const result = await download();
    expect(result.requests).toEqual([]);
    expect(result.resumedFrom).toBe(BYTES.length);
    expect(existsSync(join(dir, 'file.zip.partial'))).toBe(false);
  });

  it('takes a 416 on a resume as "nothing left" and verifies what it has (size not listed)', async () => {
    partialOf(BYTES);
    const result = await download({ size: undefined });
    expect(result.requests).toEqual([{ range: `bytes=${BYTES.length}-`, status: 416 }]);
    expect(readFileSync(join(dir, 'file.zip'))).toEqual(Buffer.from(BYTES));
  });

  it('throws a partial longer than the listed size away and starts over', async () => {
    partialOf(new Uint8Array(BYTES.length + 5));
    const result = await download();
    expect(result.requests).toEqual([{ range: undefined, status: 200 }]);
    expect(readFileSync(join(dir, 'file.zip'))).toEqual(Buffer.from(BYTES));
  });

  it('refuses more bytes than the record lists, keeping nothing', async () => {
    const error = await download({ size: 100 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(
      `${url()} sent more than the 100 bytes the record lists for file.zip; the download was removed`,
    );
    expect(existsSync(join(dir, 'file.zip.partial'))).toBe(false);
    expect(existsSync(join(dir, 'file.zip'))).toBe(false);
  });

  it('names the HTTP status of a refused file and keeps a partial for later', async () => {
    partialOf(BYTES.subarray(0, 10));
    const error = await download({ url: `${server.url}/api/records/1/files/gone.zip/content` }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toBe(
      `${server.url}/api/records/1/files/gone.zip/content answered HTTP 404 Not Found`,
    );
    expect((error as DownloadError).partial).toBe(join(dir, 'file.zip.partial'));
  });

  it('refuses a checksum it cannot read', async () => {
    await expect(download({ checksum: 'crc32:1234' })).rejects.toThrow(
      'checksum "crc32:1234" is not md5:<32 hex digits> or sha256:<64 hex digits>',
    );
  });

  it('reports progress up to the whole size, from the resumed offset', async () => {
    partialOf(BYTES.subarray(0, 1200));
    const seen: Array<[number, number | undefined, number]> = [];
    await download({ onProgress: (each) => seen.push([each.bytes, each.total, each.resumedFrom]) });
    expect(seen.at(-1)).toEqual([BYTES.length, BYTES.length, 1200]);
    expect(seen.every(([bytes]) => bytes > 1200)).toBe(true);
  });
});

describe('the Zenodo record API', () => {
  it('reads the InvenioRDM form (files.entries) too, and builds each address from the API base', async () => {
    const body = {
      files: {
        enabled: true,
        entries: {
          'IOT_2019_pxp.zip': { key: 'IOT_2019_pxp.zip', size: 3, checksum: 'md5:abc' },
        },
      },
    };
    const files = await zenodoRecordFiles('42', {
      api: 'http://127.0.0.1:1/api/',
      fetch: async () => new Response(JSON.stringify(body)),
    });
    expect(files).toEqual([
      {
        key: 'IOT_2019_pxp.zip',
        size: 3,
        checksum: 'md5:abc',
        url: 'http://127.0.0.1:1/api/records/42/files/IOT_2019_pxp.zip/content',
      },
    ]);
  });

  it('refuses an answer without files', async () => {
    await expect(
      zenodoRecordFiles('42', { api: 'http://x/api', fetch: async () => new Response('{"hits": []}') }),
    ).rejects.toThrow('Zenodo record 42 (http://x/api/records/42) lists no files with checksums');
  });

  it('fetchExiobaseRelease takes another record by id and keeps its archive under it', async () => {
    server.records.set('77', new Map([['IOT_2020_pxp.zip', BYTES]]));
    const result = await fetchExiobaseRelease({
      record: '77',
      year: 2020,
      cacheDir: dir,
      api: `${server.url}/api`,
    });
    expect(result.path).toBe(join(dir, 'zenodo', '77', 'IOT_2020_pxp.zip'));
    expect(result.file.checksum).toBe(md5(BYTES));
  });
});

describe('places and addresses', () => {
  it('the cache folder: XDG_CACHE_HOME first, then the platform’s own', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u')).toBe('/x/cache/co2e-engine');
    expect(defaultCacheDir({}, 'linux', '/home/u')).toBe('/home/u/.cache/co2e-engine');
    expect(defaultCacheDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Caches/co2e-engine');
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:/L' }, 'win32', 'C:/u')).toBe(
      join('C:/L', 'co2e-engine', 'Cache'),
    );
  });

  it('naio_10_cp15 for the countries: Eurostat’s EL and UK, no rest-of-world regions', () => {
    expect(naioMarginsUrl(['DE', 'GR', 'GB', 'WA', 'WM'], 2020)).toBe(
      'https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1/data/naio_10_cp15/A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..DE+EL+UK?format=TSV&startPeriod=2020&endPeriod=2020&compressed=true',
    );
  });

  it('the proxy by the address’s scheme, with NO_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://secure:8080', HTTP_PROXY: 'http://plain:8080' };
    expect(proxyFor('https://zenodo.org/api/records/1', env)).toBe('http://secure:8080');
    expect(proxyFor('http://zenodo.org/api/records/1', env)).toBe('http://plain:8080');
    expect(
      proxyFor('https://zenodo.org/', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' }),
    ).toBe('http://lower:1');
    expect(proxyFor('https://zenodo.org/', { ALL_PROXY: 'http://all:1' })).toBe('http://all:1');
    expect(proxyFor('https://zenodo.org/', {})).toBeUndefined();
    expect(proxyFor('https://zenodo.org/', { ...env, NO_PROXY: 'example.com, zenodo.org' })).toBeUndefined();
    expect(proxyFor('https://sub.zenodo.org/', { ...env, NO_PROXY: '.zenodo.org' })).toBeUndefined();
    expect(proxyFor('https://notzenodo.org/', { ...env, NO_PROXY: 'zenodo.org' })).toBe('http://secure:8080');
    expect(proxyFor('https://zenodo.org/', { ...env, NO_PROXY: 'zenodo.org:8443' })).toBe(
      'http://secure:8080',
    );
    expect(proxyFor('https://zenodo.org/', { ...env, no_proxy: '*' })).toBeUndefined();
  });
});
