/**
 * The coverage table of docs/spend.md: products with an EXIOBASE factor per region in the embedded defaults.
 *
 *   npx tsx scripts/spend-coverage.ts           # print the table
 *   npx tsx scripts/spend-coverage.ts --write   # replace it in docs/spend.md (between the coverage markers)
 *
 * tests/spend/coverage-doc.test.ts compares the page with this output, so the table cannot go stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDatasets } from '../src/datasets/index';

export const SPEND_DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/spend.md');
const START = '<!-- coverage:start -->';
const END = '<!-- coverage:end -->';

/** The markdown table: one row per region, with the number of products that have a factor and from which file. */
export function coverageTable(): string {
  const factors = defaultDatasets.spendFactors;
  const rows = factors.regions.map((region) => {
    const products = factors.productsIn?.(region) ?? [];
    const files = new Map<string, number>();
    for (const product of products) {
      const dataset = factors.get(product, region)?.dataset ?? factors.info;
      files.set(dataset.version, (files.get(dataset.version) ?? 0) + 1);
    }
    const from = [...files].map(([version, count]) => `${version} ${count}`).join(', ');
    return `| ${region} | ${products.length} | ${from} |`;
  });
  return [
    '| region | products with a factor (of 200) | by file version |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** docs/spend.md with the table between its markers replaced by `table`. */
export function withCoverage(page: string, table: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/spend.md lacks the ${START} … ${END} markers`);
  return `${page.slice(0, start + START.length)}\n\n${table}\n\n${page.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const table = coverageTable();
  if (process.argv.includes('--write'))
    writeFileSync(SPEND_DOC, withCoverage(readFileSync(SPEND_DOC, 'utf8'), table));
  else console.log(table);
}
