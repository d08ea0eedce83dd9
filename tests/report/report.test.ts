import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { massText } from '../../src/cli/pipeline/mass-text';
import { cli, tempFile, tempPath } from '../cli/harness';
import {
  at,
  EXAMPLE_LEDGER,
  externalReferences,
  focusExample,
  markedFigures,
  PAGE_BUDGET_BYTES,
} from './page-check';

/**
 * Issue 37 item 6: `--report FILE` on spend, cloud and billing, and `co2e-engine report OUTPUT --summary S --out
 * R`: one self-contained page whose every marked figure is the summary's.
 */

async function runWithReport(command: string, input: string, extra: string[] = []) {
  const out = tempPath(`${command}-out.csv`);
  const summaryFile = tempPath(`${command}-summary.json`);
  const reportFile = tempPath(`${command}-report.html`);
  const run = await cli([
    command,
    input,
    '--out',
    out,
    '--summary',
    summaryFile,
    '--report',
    reportFile,
    ...extra,
  ]);
  expect(run.stderr).toContain(`report in ${reportFile}`);
  return {
    run,
    out,
    summaryFile,
    summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown>,
    html: readFileSync(reportFile, 'utf8'),
  };
}

describe.each([
  ['spend', (): string => EXAMPLE_LEDGER, 1],
  ['cloud', (): string => 'examples/cloud-usage.csv', 1],
  ['billing', (): string => tempFile('focus.csv', focusExample()), 0],
] as const)('%s --report', (command, input, exitCode) => {
  it('is self-contained, within the budget, and every figure on it is the summary’s', async () => {
    const { run, summary, html } = await runWithReport(command, input());
    expect(run.code).toBe(exitCode);
    expect(externalReferences(html)).toEqual([]);
    expect(Buffer.byteLength(html)).toBeLessThan(PAGE_BUDGET_BYTES);
    const figures = markedFigures(html);
    expect(figures.length).toBeGreaterThan(10);
    for (const figure of figures)
      expect({ path: figure.path, value: at(summary, figure.path) }).toEqual({
        path: figure.path,
        value: figure.value,
      });
    // The total as printed: the summary's kg at four significant digits.
    const total = figures.find((figure) => figure.path.join() === 'total_kg');
    expect(total?.text).toBe(massText(String(summary.total_kg)));
    // Every chart (inline SVG) has a table beside it; the method; the tables' sources.
    expect(html.match(/<svg /g)!.length).toBeGreaterThanOrEqual(2);
    for (const pair of html.split('<div class="pair">').slice(1))
      expect(pair.indexOf('<table>')).toBeGreaterThan(-1);
    expect(html).toContain('<h2 id="method-h">Method</h2>');
    expect(html).toMatch(/licence (CC-BY-SA-4.0|Apache-2.0)/);
  });
});

describe('the spend report of the example ledger', () => {
  it('names EXIOBASE with its licence and attribution, read from the tables', async () => {
    const { html, summary } = await runWithReport('spend', EXAMPLE_LEDGER);
    const sources = summary.sources as Array<{ source: string; attribution: string }>;
    for (const source of sources)
      expect(html).toContain(source.attribution.slice(0, 60).replaceAll("'", '&#39;'));
    expect(html).toContain('EXIOBASE');
    // By classification with the factor names, country and supplier (the ledger's own column).
    for (const id of ['s-classification', 's-country', 's-supplier', 's-year'])
      expect(html).toContain(`id="${id}"`);
  });
});

describe('co2e-engine report', () => {
  it('writes the same page as --report, and keeps --out away from its inputs', async () => {
    const { out, summaryFile, html } = await runWithReport('spend', EXAMPLE_LEDGER);
    const page = tempPath('page.html');
    const run = await cli(['report', out, '--summary', summaryFile, '--out', page]);
    expect(run.code).toBe(0);
    expect(readFileSync(page, 'utf8')).toBe(html);
    const again = await cli(['report', out, '--summary', summaryFile, '--out', page]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists; use --force');
    for (const target of [out, summaryFile]) {
      const refused = await cli(['report', out, '--summary', summaryFile, '--out', target, '--force']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('is the input file');
    }
    expect(readFileSync(summaryFile, 'utf8')).toContain('"command": "spend"');
  });

  it('refuses a file that is not a summary, with a short message', async () => {
    const notJson = tempFile('x.json', 'nope');
    const other = tempFile('y.json', '{"a": 1}');
    for (const summary of [notJson, other]) {
      const run = await cli(['report', EXAMPLE_LEDGER, '--summary', summary, '--out', tempPath('r.html')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/is not (JSON|a summary)/);
      expect(run.stderr.length).toBeLessThan(200);
    }
  });

  it('a long ledger stays within the page budget (3,000 rows, 3,000 suppliers)', async () => {
    const lines = [
      'supplier,classification_type,classification_code,spend_year,spend_region,money,money_unit',
    ];
    const codes = ['62', '4711', 'F', '5110', '2410', '3510'];
    const regions = ['DE', 'GB', 'US', 'FR', 'BR', 'NO'];
    for (let index = 0; index < 3000; index++)
      lines.push(
        `Supplier ${index},isic4,${codes[index % 6]},2023,${regions[(index * 7) % 6]},${100 + index},eur`,
      );
    const input = tempPath('long.csv');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const { html, summary } = await runWithReport('spend', input, ['--jobs', '1']);
    expect(summary.rows).toBe(3000);
    expect(Buffer.byteLength(html)).toBeLessThan(PAGE_BUDGET_BYTES);
    const suppliers = Object.keys(summary.by_supplier as object).length;
    expect(suppliers).toBeGreaterThan(2000);
    expect(html).toContain(`${suppliers - 100} more groups are in the summary JSON`);
  }, 60_000);
});
