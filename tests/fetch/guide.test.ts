import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { type FakeServer, startFakeServer } from './server';

/**
 * The `datasets fetch exiobase` commands of docs/guides/custom-datasets.md run as written, through the real CLI in a
 * folder holding examples/guides/data, against a loopback Zenodo (CO2E_ENGINE_ZENODO_API) serving the small
 * release of tests/loaders/exiobase-fixture.ts as record 5589597.
 */

const ROOT = resolve(__dirname, '../..');
const GUIDE = resolve(ROOT, 'docs/guides/custom-datasets.md');
const TSX = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

function fetchCommands(markdown: string): string[][] {
  const block = /<!-- fetch-commands: [^>]*-->\n```sh\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('co2e-engine '))
    .map((line) => line.split(/\s+/).slice(1));
}

/** Runs the CLI as a process (not spawnSync: the loopback server answers from this process). */
const run = (args: string[], cwd: string, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, ['--import', TSX, resolve(ROOT, 'src/cli/index.ts'), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });

let server: FakeServer;
let work: string;
const outputs: Array<{ code: number | null; stdout: string; stderr: string }> = [];

beforeAll(async () => {
  server = await startFakeServer();
  server.records.set('5589597', new Map([['IOT_2019_pxp.zip', releaseZip(releaseTexts())]]));
  work = mkdtempSync(join(tmpdir(), 'co2e-fetch-guide-'));
  cpSync(resolve(ROOT, 'examples/guides/data'), join(work, 'data'), { recursive: true });
  for (const args of fetchCommands(readFileSync(GUIDE, 'utf8')))
    outputs.push(
      await run(args, work, {
        CO2E_ENGINE_ZENODO_API: `${server.url}/api`,
        XDG_CACHE_HOME: join(work, 'cache'),
      }),
    );
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('docs/guides/custom-datasets.md: datasets fetch exiobase', () => {
  it('runs the commands, which print what the guide shows and compute what it says', () => {
    const markdown = readFileSync(GUIDE, 'utf8');
    expect(fetchCommands(markdown).map((args) => args.slice(0, 3).join(' '))).toEqual([
      'datasets fetch exiobase',
      'spend data/ledger.csv --datasets',
    ]);
    for (const output of outputs) expect(output.code, output.stderr).toBe(0);
    const summary = outputs[0]?.stdout ?? '';
    expect(markdown).toContain(`\`\`\`text\n${summary}\`\`\``);
    expect(outputs[0]?.stderr).toContain(
      `EXIOBASE 3.8.2 IOT_2019_pxp.zip (0.00 MB) from ${server.url}/api/records/5589597/files/IOT_2019_pxp.zip/content`,
    );
    expect(outputs[0]?.stderr).toContain(`cache: ${join(work, 'cache', 'co2e-engine', 'zenodo', '5589597')}`);
    const rows = parse(readFileSync(join(work, 'ledger-co2e.csv'), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    // inv-1: FR computer programming, 0.089 kg/EUR × 1000 EUR, margins 0; inv-2: DE retail, embedded 0.0272 × 1000
    expect(rows.map((row) => [row.id, row.co2e, row.error_code])).toEqual([
      ['inv-1', '89', ''],
      ['inv-2', '27.2', ''],
    ]);
  });
});
