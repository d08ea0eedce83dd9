import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coverageTable, SPEND_DOC, withCoverage } from '../../scripts/spend-coverage';
import factorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import regionsFactorsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';

describe('docs/spend.md coverage table', () => {
  it('is the table the data gives (regenerate: npx tsx scripts/spend-coverage.ts --write)', () => {
    const page = readFileSync(SPEND_DOC, 'utf8');
    expect(withCoverage(page, coverageTable())).toBe(page);
  });

  it('counts every factor of both embedded files once', () => {
    const total = [...coverageTable().matchAll(/^\| [A-Z]{2} \| (\d+) \|/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(total).toBe(factorsJson.factors.length + regionsFactorsJson.factors.length);
  });
});
