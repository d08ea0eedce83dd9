/**
 * The coverage table of docs/spend.md: per region of the embedded defaults, products with an EXIOBASE factor, default
 * margins, newest FX and inflation year.
 *
 *   npx tsx scripts/spend-coverage.ts           # print the table
 *   npx tsx scripts/spend-coverage.ts --write   # replace it in docs/spend.md (between the coverage markers)
 *
 * tests/spend/coverage-doc.test.ts compares the page with this output, so the table cannot go stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDatasets } from '../src/embedded/index';
import { spendCoverage } from '../src/spend/coverage';

export const SPEND_DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/spend.md');
const START = '<!-- coverage:start -->';
const END = '<!-- coverage:end -->';

/**
 * The markdown table: one row per region with factors: products with a factor and from which file, where the
 * default margins come from, the region's currency with its newest exchange-rate year, and the newest inflation
 * year (all from `spendCoverage`, as `co2e-engine list coverage` shows them).
 */
export function coverageTable(): string {
  const factors = defaultDatasets.spendFactors;
  const rows = spendCoverage(defaultDatasets).map((row) => {
    const files = new Map<string, number>();
    for (const product of factors.productsIn?.(row.region) ?? []) {
      const dataset = factors.get(product, row.region)?.dataset ?? factors.info;
      files.set(dataset.version, (files.get(dataset.version) ?? 0) + 1);
    }
    const from = [...files].map(([version, count]) => `${version} ${count}`).join(', ');
    const margins =
      row.margins === null
        ? 'none'
        : `${row.margins.dataset.split('@')[0]}: ${row.margins.margins.map((m) => m.replace('_margin', '')).join(', ')} (${row.margins.products} products)`;
    const fx =
      row.fx_latest_year === null
        ? 'none'
        : `${row.currency} ${row.fx_latest_year}${row.fx_latest_partial ? `, partial: ${row.fx_latest_partial}` : ''}`;
    return `| ${row.region} | ${row.products} | ${from} | ${margins} | ${fx} | ${row.inflation_latest_year ?? 'none'} |`;
  });
  return [
    '| region | products with a factor (of 200) | by file version | default margins | newest FX year | newest inflation year |',
    '| --- | --- | --- | --- | --- | --- |',
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
