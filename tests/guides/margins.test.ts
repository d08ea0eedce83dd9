/**
 * The margins commands of docs/guides/custom-datasets.md ("From Eurostat's supply tables") run as written, through
 * the real CLI, in a folder holding the guide's data, the test's EXIOBASE release and a naio_10_cp15 TSV in
 * Eurostat's layout that this test writes; and the spend they produce is what the guide says.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseTexts, releaseZip } from '../loaders/exiobase-fixture';
import { naioTsv, product } from '../loaders/naio-fixture';

const ROOT = resolve(__dirname, '../..');
const GUIDE = resolve(ROOT, 'docs/guides/custom-datasets.md');
const TSX = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The `co2e-engine` command lines of the guide's `<!-- margins-commands -->` block. */
function marginsCommands(markdown: string): string[][] {
  const block = /<!-- margins-commands: [^>]*-->\n```sh\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('co2e-engine '))
    .map((line) => line.split(/\s+/).slice(1));
}

describe('docs/guides/custom-datasets.md: margins from Eurostat', () => {
  const commands = marginsCommands(readFileSync(GUIDE, 'utf8'));
  let work: string;
  const runs: Array<{ status: number | null; stderr: string }> = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'co2e-margins-guide-'));
    cpSync(resolve(ROOT, 'examples/guides/data'), join(work, 'data'), { recursive: true });
    writeFileSync(join(work, 'IOT_2019_pxp.zip'), releaseZip(releaseTexts()));
    // FR computer programming and DE retail: tax 0.1, trade + transport 0.2 of purchaser's price.
    const cells = [
      ...product('FR', 'CPA_J62_63', ['700', '100', '200', '1000']),
      ...product('DE', 'CPA_G47', ['700', '100', '200', '1000']),
    ];
    writeFileSync(join(work, 'naio_10_cp15.tsv'), naioTsv(cells));
    for (const args of commands) {
      const run = spawnSync(process.execPath, ['--import', TSX, resolve(ROOT, 'src/cli/index.ts'), ...args], {
        cwd: work,
        encoding: 'utf8',
      });
      runs.push({ status: run.status, stderr: run.stderr });
    }
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('runs the build and the spend, whose output is what the guide says', () => {
    expect(commands.map((args) => args.slice(0, 2).join(' '))).toEqual([
      'datasets build',
      'spend data/ledger.csv',
    ]);
    expect(runs.map((run) => run.status)).toEqual([0, 0]);
    expect(runs[0]?.stderr).toContain('naio_10_cp15.tsv: 5 default margins for DE FR');
    const rows = parse(readFileSync(join(work, 'ledger-eurostat.csv'), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    // inv-1: 1000 × (1 − 0.1 − 0.2) × 0.089 = 62.3; inv-2: 1000 × 0.7 × 0.0272 = 19.04
    expect(rows.map((row) => [row.id, row.co2e, row.notices])).toEqual([
      ['inv-1', '62.3', ''],
      ['inv-2', '19.04', ''],
    ]);
  });
});
