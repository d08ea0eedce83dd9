import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { naioTsv, product } from '../loaders/naio-fixture';
import { cli, tempPath } from '../cli/harness';
import { type FakeServer, md5, startConnectProxy, startFakeServer } from './server';

/**
 * `co2e-engine datasets fetch exiobase` end to end against a loopback Zenodo (tests/fetch/server.ts) serving the
 * small synthetic release of tests/loaders/exiobase-fixture.ts: 3 regions (AT, FR, WA) × 5 products (p01.a, p01.b,
 * p01.d, p52, p72), FR computer services (p72) at 89000 kg per million EUR on the AR5 row = 0.089 kg/EUR.
 */

const RECORD = '5589597'; // EXIOBASE 3.8.2
const ZIP = releaseZip(releaseTexts());
const OTHER_YEAR = releaseZip(releaseTexts(), 'IOT_2018_pxp/');

let server: FakeServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.records.clear();
  server.records.set(
    RECORD,
    new Map([
      ['IOT_2018_pxp.zip', OTHER_YEAR],
      ['IOT_2019_pxp.zip', ZIP],
      ['IOT_2019_ixi.zip', new Uint8Array([1, 2, 3])],
    ]),
  );
  server.checksums.clear();
  server.requests.length = 0;
  server.drops = 0;
  server.ignoreRange = false;
  server.stallAfter = undefined;
  cacheDir = tempPath('cache');
});
afterEach(() => {
  server.drops = 0;
});

const fetchArgs = (out: string, ...more: string[]) => [
  'datasets',
  'fetch',
  'exiobase',
  '--year',
  '2019',
  '--out',
  out,
  '--cache-dir',
  cacheDir,
  '--zenodo-api',
  `${server.url}/api`,
  ...more,
];
const CACHED = () => join(cacheDir, 'zenodo', RECORD, 'IOT_2019_pxp.zip');
const fileRequests = () =>
  server.requests.filter((request) => request.path.endsWith('/files/IOT_2019_pxp.zip/content'));

/** The factors of a written dataset file, `region product` → kgco2e. */
const factorsOf = (out: string) => {
  const file = JSON.parse(readFileSync(out, 'utf8')) as {
    layers: Array<{
      spendFactors?: { dataset: { id: string; version: string }; factors: Array<Record<string, unknown>> };
    }>;
  };
  const spend = file.layers[0]?.spendFactors;
  return {
    dataset: spend?.dataset,
    factors: new Map(spend?.factors.map((factor) => [`${factor.region} ${factor.product}`, factor.kgco2e])),
    file,
  };
};

describe('datasets fetch exiobase', () => {
  it('downloads the release from the record, verifies it, keeps it in the cache and builds the file', async () => {
    const out = tempPath('exiobase.json');
    const run = await cli(fetchArgs(out));
    expect(run.stderr).not.toContain('co2e-engine:');
    expect(run.code).toBe(0);
    // The record, then the file's bytes from the address built from the API base.
    expect(server.requests.map((request) => `${request.path} ${request.range ?? '-'}`)).toEqual([
      `/api/records/${RECORD} -`,
      `/api/records/${RECORD}/files/IOT_2019_pxp.zip/content -`,
    ]);
    expect(readFileSync(CACHED())).toEqual(Buffer.from(ZIP));
    expect(readdirSync(join(cacheDir, 'zenodo', RECORD))).toEqual(['IOT_2019_pxp.zip']); // no partial left
    expect(run.stderr).toContain(`cache: ${CACHED()}`);
    expect(run.stderr).toContain(`${md5(ZIP)} verified`);
    // Not a terminal: a line per tenth reached instead of a bar (the small file comes in one piece).
    expect(run.stderr).toMatch(/\nIOT_2019_pxp\.zip: 100% \(0\.\d\d MB of 0\.\d\d MB, [\d.]+ MB\/s\)\n/);
    expect(run.stderr).toContain('15 factors for 3 regions'); // the build of `datasets build`
    expect(run.stdout).toBe(
      `${out}: spend factors for 3 regions × 5 products\n` +
        'regions (3): AT FR WA\nproducts (5): p01.a p01.b p01.d p52 p72\n',
    );
    const { dataset, factors } = factorsOf(out);
    expect(factors.get('FR p72')).toBe(0.089);
    expect(dataset).toMatchObject({ id: 'exiobase-3-IOT_2019_pxp-ghg-ar5', version: '3.8.2' });

    // A second run takes the verified archive from the cache: the record is read, the file is not.
    server.requests.length = 0;
    const again = await cli(fetchArgs(out, '--force'));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('in the cache');
    expect(fileRequests()).toEqual([]);
  });

  it('resumes a download cut mid-file with a Range request for the missing bytes', async () => {
    const out = tempPath('resumed.json');
    server.dropAfter = 1000;
    server.drops = 1;
    const cut = await cli(fetchArgs(out, '--retries', '0'));
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(`broke off after 1000 of ${ZIP.length} bytes`);
    expect(cut.stderr).toContain('run the same command again to resume');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(CACHED())).toBe(false);
    expect(readFileSync(`${CACHED()}.partial`)).toEqual(Buffer.from(ZIP.subarray(0, 1000)));
    expect(cut.stderr).not.toContain('100%');

    const resumed = await cli(fetchArgs(out));
    expect(resumed.stderr).not.toContain('co2e-engine:');
    expect(resumed.code).toBe(0);
    expect(fileRequests().map((request) => request.range)).toEqual([undefined, 'bytes=1000-']);
    expect(resumed.stderr).toContain('resumed after');
    expect(readFileSync(CACHED())).toEqual(Buffer.from(ZIP));
    expect(existsSync(`${CACHED()}.partial`)).toBe(false);
    expect(factorsOf(out).factors.get('FR p72')).toBe(0.089);
  });

  it('retries within one run, each attempt resuming where the last broke off', async () => {
    const out = tempPath('retried.json');
    server.dropAfter = Math.floor(ZIP.length / 3);
    server.drops = 2;
    const run = await cli(fetchArgs(out, '--retries', '2'));
    expect(run.code).toBe(0);
    expect(fileRequests().map((request) => request.range)).toEqual([
      undefined,
      `bytes=${server.dropAfter}-`,
      `bytes=${2 * server.dropAfter}-`,
    ]);
    expect(readFileSync(CACHED())).toEqual(Buffer.from(ZIP));
  }, 15_000);

  it('refuses a wrong checksum: a clear error, no output, nothing in the cache', async () => {
    const out = tempPath('wrong.json');
    server.checksums.set('IOT_2019_pxp.zip', 'md5:00000000000000000000000000000000');
    const run = await cli(fetchArgs(out));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `checksum mismatch for IOT_2019_pxp.zip from ${server.url}/api/records/${RECORD}/files/IOT_2019_pxp.zip/content: the record lists md5:00000000000000000000000000000000, the download has ${md5(ZIP)}`,
    );
    expect(run.stderr).toContain('nothing was written to the cache');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(cacheDir, 'zenodo', RECORD))).toEqual([]); // neither the entry nor a partial
  });

  it('replaces a damaged cache entry instead of using it', async () => {
    const out = tempPath('damaged.json');
    mkdirSync(join(cacheDir, 'zenodo', RECORD), { recursive: true });
    writeFileSync(
      CACHED(),
      ZIP.map((byte, index) => (index === 50 ? byte ^ 1 : byte)),
    );
    const run = await cli(fetchArgs(out));
    expect(run.code).toBe(0);
    expect(fileRequests()).toHaveLength(1);
    expect(readFileSync(CACHED())).toEqual(Buffer.from(ZIP));
  });

  it('--from builds from an archive already downloaded, without the network', async () => {
    const zip = tempPath('IOT_2019_pxp.zip');
    writeFileSync(zip, ZIP);
    const out = tempPath('from.json');
    const run = await cli(fetchArgs(out, '--from', zip, '--release', '3.9.6'));
    expect(run.code).toBe(0);
    expect(server.requests).toEqual([]);
    expect(run.stdout).toContain('regions (3): AT FR WA');
    expect(factorsOf(out).dataset?.version).toBe('3.9.6');
    // Without --release the version is a digest of the content, as for `datasets build` without one.
    const digest = tempPath('from-digest.json');
    expect((await cli(fetchArgs(digest, '--from', zip))).code).toBe(0);
    expect(factorsOf(digest).dataset?.version).toMatch(/^content-/);
  });

  it('--margins eurostat downloads naio_10_cp15 for the release’s countries and adds its margins', async () => {
    // FR CPA_J62_63 (computer services, EXIOBASE p72): TS_BP 700, D21X31 100, OTTM 200, TS_PP 1000, so tax 0.1,
    // trade + transport 0.2, with --trade-share 0.8 trade 0.16 and transport 0.04.
    server.eurostat = naioTsv(product('FR', 'CPA_J62_63', ['700', '100', '200', '1000']));
    const out = tempPath('margins.json');
    const run = await cli(
      fetchArgs(
        out,
        '--margins',
        'eurostat',
        '--trade-share',
        '0.8',
        '--eurostat-api',
        `${server.url}/eurostat`,
      ),
    );
    expect(run.stderr).not.toContain('co2e-engine:');
    expect(run.code).toBe(0);
    const asked = server.requests.find((request) => request.path.startsWith('/eurostat/'));
    // AT and FR; WA is a rest-of-world region Eurostat does not publish.
    expect(asked?.path).toBe(
      '/eurostat/data/naio_10_cp15/A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..AT+FR?format=TSV&startPeriod=2019&endPeriod=2019&compressed=true',
    );
    const { file } = factorsOf(out);
    const margins = (file.layers[1] as { margins: { margins: Array<Record<string, unknown>> } }).margins
      .margins;
    // CPA_J62_63 is NACE divisions 62 and 63, which the embedded concordance maps to p72, p74 and p92.
    expect(margins).toEqual(
      ['p72', 'p74', 'p92'].map((code) => ({
        region: 'FR',
        product: code,
        tax_margin: 0.1,
        trade_margin: 0.16,
        transport_margin: 0.04,
      })),
    );
    expect(readdirSync(join(cacheDir, 'eurostat'))).toHaveLength(1);
  });

  it('--margins eurostat needs --trade-share, checked before any download', async () => {
    const run = await cli(fetchArgs(tempPath('x.json'), '--margins', 'eurostat'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass --trade-share');
    expect(server.requests).toEqual([]);
  });

  it('names the years a record has when the year asked for is not there', async () => {
    const run = await cli(fetchArgs(tempPath('x.json')).map((arg) => (arg === '2019' ? '2030' : arg)));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Zenodo record ${RECORD} (EXIOBASE 3.8.2) has no IOT_2030_pxp.zip; it has IOT_<year>_pxp.zip for 2018–2019`,
    );
  });

  it('says so when the record does not exist or the server cannot be reached', async () => {
    const missing = await cli(fetchArgs(tempPath('x.json'), '--record', '999'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `Zenodo record 999: ${server.url}/api/records/999 answered HTTP 404 (no such record)`,
    );
    const unreachable = await cli(
      fetchArgs(tempPath('x.json')).map((arg) =>
        arg === `${server.url}/api` ? 'http://127.0.0.1:9/api' : arg,
      ),
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(
      `cannot read Zenodo record ${RECORD} from http://127.0.0.1:9/api/records/${RECORD}`,
    );
  });

  it('stops on an interrupt with exit code 130, keeping the partial for the next run', async () => {
    server.stallAfter = 500;
    const controller = new AbortController();
    const out = tempPath('interrupted.json');
    const stopped = cli(fetchArgs(out), { signal: controller.signal });
    while (!existsSync(`${CACHED()}.partial`) || readFileSync(`${CACHED()}.partial`).length < 500)
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const run = await stopped;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted; the partial download is kept');
    expect(fileRequests()).toHaveLength(1); // no retry after an interrupt
    expect(existsSync(out)).toBe(false);

    server.stallAfter = undefined;
    const resumed = await cli(fetchArgs(out));
    expect(resumed.code).toBe(0);
    expect(fileRequests().map((request) => request.range)).toEqual([undefined, 'bytes=500-']);
  });

  it('names Eurostat’s answer when it refuses the margins request, and writes nothing', async () => {
    server.eurostatStatus = 404;
    const out = tempPath('no-margins.json');
    const run = await cli(
      fetchArgs(
        out,
        '--margins',
        'eurostat',
        '--trade-share',
        '1',
        '--eurostat-api',
        `${server.url}/eurostat`,
      ),
    );
    server.eurostatStatus = 200;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Eurostat naio_10_cp15: ${server.url}/eurostat/data/naio_10_cp15/A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..AT+FR?format=TSV&startPeriod=2019&endPeriod=2019&compressed=true answered HTTP 404`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an existing --out without --force before downloading', async () => {
    const out = tempPath('exists.json');
    writeFileSync(out, '{}');
    const run = await cli(fetchArgs(out));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass --force');
    expect(server.requests).toEqual([]);
  });

  it('takes the API base from CO2E_ENGINE_ZENODO_API and the cache from XDG_CACHE_HOME', async () => {
    const xdg = tempPath('xdg');
    const out = tempPath('env.json');
    const run = await cli(['datasets', 'fetch', 'exiobase', '--out', out], {
      env: { CO2E_ENGINE_ZENODO_API: `${server.url}/api`, XDG_CACHE_HOME: xdg },
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(xdg, 'co2e-engine', 'zenodo', RECORD, 'IOT_2019_pxp.zip'))).toEqual(
      Buffer.from(ZIP),
    );
  });

  it('shows a progress bar with bytes and time left on a terminal', async () => {
    const run = await cli(fetchArgs(tempPath('tty.json')), { tty: true });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/100% \| 0\.\d\d MB of 0\.\d\d MB \| [\d.]+ MB\/s \| \d+s left/);
  });

  it('goes through the proxy of HTTP_PROXY (CONNECT), and direct for NO_PROXY hosts', async () => {
    const proxy = await startConnectProxy();
    try {
      const host = new URL(server.url).host;
      const run = await cli(fetchArgs(tempPath('proxied.json')), { env: { HTTP_PROXY: proxy.url } });
      expect(run.stderr).not.toContain('co2e-engine:');
      expect(run.code).toBe(0);
      expect(proxy.connects.length).toBeGreaterThanOrEqual(1);
      expect(new Set(proxy.connects)).toEqual(new Set([host]));
      expect(server.requests).toHaveLength(2); // record and file, both through the tunnel

      proxy.connects.length = 0;
      const direct = await cli(fetchArgs(tempPath('direct.json'), '--force'), {
        env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
      });
      expect(direct.code).toBe(0);
      expect(proxy.connects).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
