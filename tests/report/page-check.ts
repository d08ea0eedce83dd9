import { readFileSync } from 'node:fs';

/**
 * What every report page must be, checked from its HTML: self-contained (no script, nothing fetched), and every
 * figure marked with `data-field` equal to the summary's number at that path.
 */

/** The example ledger's lines and the docs/billing.md FOCUS example, as the report tests run them. */
export const EXAMPLE_LEDGER = 'examples/ledger.csv';
export function focusExample(): string {
  const found = /```csv\n([\s\S]*?)\n```/.exec(readFileSync('docs/billing.md', 'utf8'));
  if (found === null) throw new Error('docs/billing.md has no csv block');
  return `${found[1]}\n`;
}

/** The page-size budget (bytes) of any report: charts cap at 12 bars, tables at 100 rows, factors at 40. */
export const PAGE_BUDGET_BYTES = 250_000;

/** Each figure the page marks: its path in the summary, its exact value, and the text shown. */
export function markedFigures(
  html: string,
): Array<{ path: Array<string | number>; value: unknown; text: string }> {
  const figures = [];
  const unescape = (text: string) =>
    text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  for (const match of html.matchAll(/<span data-field="([^"]*)" data-value="([^"]*)">([^<]*)<\/span>/g)) {
    figures.push({
      path: JSON.parse(unescape(match[1]!)) as Array<string | number>,
      value: JSON.parse(unescape(match[2]!)) as unknown,
      text: unescape(match[3]!),
    });
  }
  return figures;
}

/** The value at `path` in `summary`. */
export function at(summary: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>(
    (value, key) => (value === null || typeof value !== 'object' ? undefined : (value as never)[key]),
    summary,
  );
}

/** What makes a page not self-contained: scripts, external resources, imports. */
export function externalReferences(html: string): string[] {
  const found = [
    ...html.matchAll(/<script\b[^>]*>/gi),
    ...html.matchAll(/\s(?:src|href|xlink:href)="(?!#)[^"]*"/gi),
    ...html.matchAll(/@import|url\(/gi),
    ...html.matchAll(/<link\b[^>]*>/gi),
  ];
  return found.map((match) => match[0]);
}
