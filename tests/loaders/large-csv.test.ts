import { describe, expect, it } from 'vitest';
import { parseTableCsv, parseTableJson, type TableMeta } from '../../src/loaders/index';

const meta: TableMeta<'spendFactors'> = {
  dataset: {
    id: 'big',
    version: '1',
    source: 'S',
    source_dataset: 'S',
    licence: 'internal',
    attribution: 'S',
  },
  currency: 'eur',
  factor_year: 2019,
  price_basis: 'basic',
  gwp: 'ar5',
  product_classification: 'exiobase3p',
};

/** The fastest of a few runs, in ms (the machine may be shared). */
function fastest(run: () => unknown, times = 3): number {
  let best = Infinity;
  for (let index = 0; index < times; index++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

// Issue 23 item 9: a 50 MB CSV table took 37 s and 2.1 GB to load, 3 s as JSON: every cell got a location entry
// keyed by a string, and csv-parse's browser build copied the whole text into an array of bytes.
describe('a large CSV table loads about as fast as the same table in JSON', () => {
  it('50,000 spend factors (5 MB of CSV)', () => {
    const lines = ['product,region,kgco2e,name,activity_id,data_quality_flags'];
    for (let index = 0; index < 50_000; index++)
      lines.push(`p${index},DE,0.${index % 10}5,Product ${index} with a long name,a-${index},flag`);
    const csv = `${lines.join('\n')}\n`;
    const table = parseTableCsv('spendFactors', csv, { meta });
    expect(table.factors).toHaveLength(50_000);
    expect(table.factors[49_999]).toEqual({
      product: 'p49999',
      region: 'DE',
      kgco2e: 0.95,
      name: 'Product 49999 with a long name',
      activity_id: 'a-49999',
      data_quality_flags: ['flag'],
    });
    const json = JSON.stringify(table);
    const csvMs = fastest(() => parseTableCsv('spendFactors', csv, { meta }));
    const jsonMs = fastest(() => parseTableJson('spendFactors', json));
    // Before: about 10 times the JSON time. Generous, as other test files run beside this one.
    expect(csvMs).toBeLessThan(3 * jsonMs + 500);
  }, 60_000);

  it('still finds the cell of a problem on the last row', () => {
    const lines = ['product,region,kgco2e,name,activity_id,kgco2e_ar6'];
    for (let index = 0; index < 1000; index++) lines.push(`p${index},DE,1,n,a-${index},2`);
    lines.push('q,DE,1,n,a-q,-5');
    expect(() => parseTableCsv('spendFactors', lines.join('\n'), { meta })).toThrow(
      /^spendFactors\.csv at line 1002, column 6 \(kgco2e_ar6\): /,
    );
  });
});
