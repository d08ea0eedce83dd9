import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { type FakeServer, startConnectProxy, startFakeServer } from './server';

/**
 * `HTTPS_PROXY` with an `https:` origin, as with the real Zenodo: a loopback HTTPS Zenodo with a certificate made
 * here by openssl (trusted by the CLI process through NODE_EXTRA_CA_CERTS), reached through a loopback CONNECT
 * proxy. Skipped where openssl is missing.
 */

const ROOT = resolve(__dirname, '../..');
const TSX = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const work = mkdtempSync(join(tmpdir(), 'co2e-https-proxy-'));
const cert = join(work, 'cert.pem');
const key = join(work, 'key.pem');
const openssl = spawnSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ],
  { encoding: 'utf8' },
);
const haveCertificate = openssl.status === 0 && existsSync(cert);

const run = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, ['--import', TSX, resolve(ROOT, 'src/cli/index.ts'), ...args], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: cert, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });

let server: FakeServer | undefined;
let proxy: Awaited<ReturnType<typeof startConnectProxy>> | undefined;
beforeAll(async () => {
  if (!haveCertificate) return;
  server = await startFakeServer({ key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
  server.records.set('5589597', new Map([['IOT_2019_pxp.zip', releaseZip(releaseTexts())]]));
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!haveCertificate)('datasets fetch exiobase over HTTPS', () => {
  it('goes through HTTPS_PROXY for an https: origin (and not through HTTP_PROXY)', async () => {
    const fake = server as FakeServer;
    const tunnel = proxy as NonNullable<typeof proxy>;
    const args = (out: string) => [
      'datasets',
      'fetch',
      'exiobase',
      '--out',
      out,
      '--cache-dir',
      join(work, `${out}-cache`),
      '--zenodo-api',
      `${fake.url}/api`,
    ];
    const proxied = await run(args('proxied.json'), { HTTPS_PROXY: tunnel.url });
    expect(proxied.stderr).not.toContain('co2e-engine:');
    expect(proxied.code).toBe(0);
    expect(proxied.stdout).toContain('regions (3): AT FR WA');
    expect(new Set(tunnel.connects)).toEqual(new Set([new URL(fake.url).host]));
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/api/records/5589597',
      '/api/records/5589597/files/IOT_2019_pxp.zip/content',
    ]);

    tunnel.connects.length = 0;
    const plain = await run(args('plain.json'), { HTTP_PROXY: tunnel.url });
    expect(plain.code).toBe(0);
    expect(tunnel.connects).toEqual([]);
  }, 60_000);
});
