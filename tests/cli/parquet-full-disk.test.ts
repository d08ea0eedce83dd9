import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempFile } from './harness';
import { startCli } from './process';

// Issue 23 item 9: on a full disk the Parquet path said "stopped after N rows", counting rows computed as if written.
describe('a Parquet run whose output cannot be written (a full disk: /dev/full)', () => {
  const ledger = `id,classification_type,classification_code,spend_year,spend_region,money,money_unit\n${Array.from(
    { length: 25_000 },
    (_, index) => `${index},isic4,4711,2019,DE,10,eur`,
  ).join('\n')}\n`;

  it.runIf(process.platform === 'linux')(
    'says the output is incomplete, not how many rows it holds',
    async () => {
      const full = openSync('/dev/full', 'w');
      try {
        const run = startCli(['spend', tempFile('full.csv', ledger), '--format', 'parquet'], 'ignore', full);
        const result = await run.done;
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          /writing the output failed \(ENOSPC\) after \d+ rows were computed; the output on stdout is incomplete/,
        );
        expect(result.stderr).not.toContain('stopped after');
      } finally {
        closeSync(full);
      }
    },
    60_000,
  );
});
