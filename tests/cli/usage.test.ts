import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { cli, serveCli, tempFile, tempPath } from './harness';

/** Arguments, exit codes (0, 1, 2), progress on a terminal only, and `serve`. */

const SPEND =
  'classification_type,classification_code,spend_year,spend_region,money,money_unit\nisic4,4711,2019,DE,100,eur\n';

describe('usage and exit codes', () => {
  it('--help exits 0 and lists the commands', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: co2e-engine');
    for (const command of ['serve', 'spend', 'cloud']) expect(stdout).toContain(command);
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(packageJson.version);
  });

  it.each([
    [[], 'Usage: co2e-engine'],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['spend'], "missing required argument 'file'"],
    [['spend', 'x.csv', '--format', 'xml'], "argument 'xml' is invalid"],
    [['spend', 'x.csv', '--bogus'], "unknown option '--bogus'"],
    [['spend', '/nonexistent/ledger.csv'], 'cannot read /nonexistent/ledger.csv: ENOENT'],
    [['cloud', '/nonexistent/usage.csv'], 'cannot read /nonexistent/usage.csv: ENOENT'],
    [['billing', '/nonexistent/bill.csv'], 'cannot read /nonexistent/bill.csv: ENOENT'],
    [['billing', '/nonexistent/bill.jsonl'], 'cannot read /nonexistent/bill.jsonl: ENOENT'],
    [
      ['spend', 'ledger.txt'],
      'cannot tell the format of ledger.txt from its extension; use --input-format csv|jsonl|parquet.',
    ],
    [['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535.'],
    [['serve', '--port', 'http'], '--port must be a whole number from 0 to 65535.'],
  ])('%j exits 2', async (argv, message) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('a truncated or corrupt gzip input is said in words, exit 2, for every file command (issue 39 item 8)', async () => {
    const whole = gzipSync(SPEND);
    const truncated = whole.subarray(0, whole.byteLength - 12);
    const corrupt = Buffer.from('not gzip at all');
    for (const command of ['spend', 'cloud', 'billing']) {
      const cut = await cli([command, tempFile('cut.csv.gz', truncated), '--out', tempPath('o.csv')]);
      expect({ command, code: cut.code, stderr: cut.stderr }).toEqual({
        command,
        code: 2,
        stderr: expect.stringMatching(
          /not a valid gzip file: it is truncated \(an incomplete download\?\)\n$/,
        ),
      });
      const bad = await cli([command, tempFile('bad.csv.gz', corrupt), '--out', tempPath('o.csv')]);
      expect({ command, code: bad.code, stderr: bad.stderr }).toEqual({
        command,
        code: 2,
        stderr: expect.stringMatching(/not a valid gzip file: its compressed data is corrupt\n$/),
      });
    }
  });

  it('a directory is not a file; --out must differ from the input; an unwritable --out', async () => {
    const input = tempFile('in.csv', SPEND);
    const directory = tempPath('folder.csv');
    mkdirSync(directory);
    const notAFile = await cli(['spend', directory]);
    expect(notAFile.code).toBe(2);
    expect(notAFile.stderr).toBe(`co2e-engine: ${directory} is not a file.\n`);
    expect((await cli(['spend', input, '--out', input])).code).toBe(2);
    const unwritable = await cli(['spend', input, '--out', '/nonexistent/dir/out.csv']);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain('cannot write /nonexistent/dir/out.csv: ENOENT');
  });

  it('--input-format reads any extension', async () => {
    const { code } = await cli(['spend', tempFile('ledger.txt', SPEND), '--input-format', 'csv']);
    expect(code).toBe(0);
  });
});

describe('progress', () => {
  it('draws a bar with rows/s on a terminal', async () => {
    const { code, stderr } = await cli(['spend', tempFile('tty.csv', SPEND)], { tty: true });
    expect(code).toBe(0);
    expect(stderr).toMatch(/\d+ rows \| \d+ rows\/s/);
  });

  it('draws nothing when stderr is not a terminal', async () => {
    const { stderr } = await cli(['spend', tempFile('pipe.csv', SPEND)]);
    expect(stderr).not.toMatch(/rows \| /);
    expect(stderr.startsWith('co2e-engine spend: 1 rows, 0 failed')).toBe(true);
  });
});

describe('serve', () => {
  const cpu = JSON.stringify({ cpu_count: 1, region: 'us_east_1', duration: 1 });
  const post = (url: string, key?: string) =>
    fetch(`${url}/compute/aws/cpu`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
      body: cpu,
    });

  it('serves the handler with --api-key and CO2E_API_KEYS, and exits 0 when stopped', async () => {
    const { url, stop } = await serveCli(['--api-key', 'k1', '--api-key', 'k2'], {
      CO2E_API_KEYS: ' k3 ,, ',
    });
    try {
      expect((await post(url)).status).toBe(401);
      expect((await post(url, 'nope')).status).toBe(401);
      for (const key of ['k1', 'k2', 'k3']) {
        const response = await post(url, key);
        expect(response.status).toBe(200);
        // 1 CPU-hour × 0.0010442908 kg (see tests/http/routes.test.ts)
        expect((await response.json()).co2e).toBe(0.0010442908);
      }
    } finally {
      const result = await stop();
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('3 API key(s)');
      expect(result.stderr).toContain('co2e-engine serve: stopped');
    }
  });

  it('without keys the server is open', async () => {
    const { url, stop } = await serveCli([]);
    try {
      expect((await post(url)).status).toBe(200);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  });

  it('a port in use exits 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      const { code, stderr } = await cli(['serve', '--port', String(port)]);
      expect(code).toBe(2);
      expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      blocker.close();
    }
  });
});
