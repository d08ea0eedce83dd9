import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partialPaths, type ResumeState } from '../../src/cli/pipeline/output-file';
import { cli, tempFile, tempPath } from './harness';
import { startCli } from './process';

/** Issue 23 items 1, 2 and 3: outputs under misuse (inputs named like our own files, two runs, resumes). */

const HEADER = 'id,classification_type,classification_code,spend_year,spend_region,money,money_unit';
const ROW = (index: number) =>
  `${index},isic4,${['4711', '62', 'F'][index % 3]},${2019 + (index % 4)},${['DE', 'GB', 'US'][index % 3]},${(index % 997) + 0.25},${['eur', 'gbp', 'usd'][index % 3]}`;
const ledger = (rows: number) =>
  `${[HEADER, ...Array.from({ length: rows }, (_, index) => ROW(index + 1))].join('\n')}\n`;

describe('an input named like the files kept beside an output is refused (item 1)', () => {
  it('the partial of --out: exit 2 before anything is read or written, the input unchanged', async () => {
    const out = tempPath('named.csv');
    const input = join(dirname(out), `.${basename(out)}.co2e-partial`);
    const content = ledger(5);
    writeFileSync(input, content);
    const run = await cli(['spend', input, '--out', out, '--input-format', 'csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is named like a file co2e-engine keeps beside an output');
    expect(readFileSync(input, 'utf8')).toBe(content);
    expect(existsSync(out)).toBe(false);
  });

  it('the state file of --out (JSON Lines): exit 2, the input still there', async () => {
    const out = tempPath('state-named.csv');
    const input = `${partialPaths(out).state}`;
    const content = '{"id": 1}\n';
    writeFileSync(input, content);
    const run = await cli(['spend', input, '--out', out, '--input-format', 'jsonl']);
    expect(run.code).toBe(2);
    expect(readFileSync(input, 'utf8')).toBe(content);
  });

  it('the same file under another name (a hard link to the partial) is refused too', async () => {
    const out = tempPath('linked.csv');
    const { partial } = partialPaths(out);
    writeFileSync(partial, ledger(2));
    const input = tempPath('innocent.csv');
    const { linkSync } = await import('node:fs');
    linkSync(partial, input);
    const run = await cli(['spend', input, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('a file this run would truncate or delete');
  });
});

describe('two runs with one --out (item 2)', () => {
  it('the second refuses at once, naming the first run’s pid; the first writes only its own rows', async () => {
    const input = tempFile('lock.csv', ledger(30_000));
    const reference = tempPath('lock-reference.csv');
    expect((await cli(['spend', input, '--out', reference, '--jobs', '1'])).code).toBe(0);
    const out = tempPath('locked.csv');
    const first = startCli(['spend', input, '--out', out, '--jobs', '1']);
    while (!existsSync(partialPaths(out).partial)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (first.child.exitCode !== null) throw new Error('the first run finished too soon');
    }
    const started = performance.now();
    const second = await cli(['spend', input, '--out', out, '--jobs', '1', '--force']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is being written by another run (pid ${first.child.pid}`);
    expect(performance.now() - started).toBeLessThan(10_000);
    const done = await first.done;
    expect(done.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(reference, 'utf8'));
    expect(existsSync(partialPaths(out).lock)).toBe(false);
  }, 60_000);

  it('a lock left by a run that is gone (SIGKILL) is taken over', async () => {
    const out = tempPath('stale.csv');
    writeFileSync(partialPaths(out).lock, '999999999\n');
    const run = await cli(['spend', tempFile('stale-in.csv', ledger(2)), '--out', out]);
    expect(run.code).toBe(0);
    expect(existsSync(partialPaths(out).lock)).toBe(false);
  });
});

describe('--resume checks the datasets and the version (item 3)', () => {
  const fx = (rate: number) =>
    JSON.stringify({
      format: 'co2e-engine-datasets/1',
      layers: [
        {
          fx: {
            dataset: {
              id: 'acme-fx',
              version: '1',
              source: 'A',
              source_dataset: 'A',
              licence: 'x',
              attribution: 'A',
            },
            rates: { gbp: { '2019': rate } },
          },
        },
      ],
    });

  it('refuses a partial computed with a --datasets file when resumed without it, or with it changed', async () => {
    const input = tempFile('ds.csv', ledger(3));
    const data = tempFile('ds.json', fx(0.8));
    const out = tempPath('ds-out.csv');
    const aborted = new AbortController();
    aborted.abort();
    const first = await cli(['spend', input, '--out', out, '--datasets', data], { signal: aborted.signal });
    expect(first.code).toBe(130);
    const without = await cli(['spend', input, '--out', out, '--resume']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('was computed with other datasets');
    writeFileSync(data, fx(0.7)); // the same file, edited
    const edited = await cli(['spend', input, '--out', out, '--resume', '--datasets', data]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('compared by content');
    writeFileSync(data, fx(0.8));
    const same = await cli(['spend', input, '--out', out, '--resume', '--datasets', data]);
    expect(same.code).toBe(0);
  });

  it('refuses a partial written by another package version', async () => {
    const input = tempFile('version.csv', ledger(3));
    const out = tempPath('version-out.csv');
    const aborted = new AbortController();
    aborted.abort();
    expect((await cli(['spend', input, '--out', out], { signal: aborted.signal })).code).toBe(130);
    const { state } = partialPaths(out);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as ResumeState;
    writeFileSync(state, JSON.stringify({ ...saved, run: { ...saved.run, version: '0.0.1' } }));
    const run = await cli(['spend', input, '--out', out, '--resume']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('was computed by co2e-engine 0.0.1');
  });
});
