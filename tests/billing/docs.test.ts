import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { estimateBilling } from '../../src/billing/index';
import { cloudDatasets } from '../../src/embedded/cloud';
// Imported with the file, not in the test: its temp folder is removed by an afterAll hook, which vitest runs only
// when it was registered while collecting the file's tests.
import { cli, tempFile, tempPath } from '../cli/harness';

/** docs/billing.md's example runs: its input is read from the page, and its rows and summary must match. */
const page = readFileSync('docs/billing.md', 'utf8');
const block = (language: string): string => {
  const found = new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```').exec(page);
  if (found === null) throw new Error(`docs/billing.md has no ${language} block`);
  return found[1]!;
};

it('docs/billing.md: the FOCUS example gives the rows and the summary shown', () => {
  const rows = parse(block('csv'), { columns: true }) as Record<string, string>[];
  const { format, rows: out, summary } = estimateBilling(rows, cloudDatasets);
  expect(format).toBe('focus');
  const shown = block('text').split('\n');
  const columns = shown[0]!.split(',');
  const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  expect(out.map((row) => columns.map((column) => cell(row[column])).join(','))).toEqual(shown.slice(1));
  expect(summary).toEqual(JSON.parse(block('json')));
});

it('docs/billing.md: the command line gives the same summary file', async () => {
  const input = tempFile('focus.csv', `${block('csv')}\n`);
  const summary = tempPath('summary.json');
  const { code } = await cli(['billing', input, '--out', tempPath('focus-co2e.csv'), '--summary', summary]);
  expect(code).toBe(0);
  expect(JSON.parse(readFileSync(summary, 'utf8'))).toEqual(JSON.parse(block('json')));
});
