import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { multinationalLedger } from '../tests/fixtures/multinational-ledger';

/**
 * `npx tsx bench/ceda.ts` (after `npm run build`): the built CLI's `spend` over a varied ledger of 100k rows (the
 * multinational ledger of issue 33: 45 countries, local currencies, 2019-2025, ISIC/NAICS/NACE/MCC), once with the
 * default EXIOBASE factors and once with `--datasets ceda`, `--jobs 1`, whole process. Prints rows/s and answered
 * rows; the figures go in bench/ceda.md. One run each (about a minute in all): a rough figure, not a ratio study.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out');
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
mkdirSync(OUT, { recursive: true });
const ledger = join(OUT, `ceda-ledger-${ROWS}.csv`);
writeFileSync(ledger, multinationalLedger(ROWS));

for (const args of [[], ['--datasets', 'ceda']]) {
  const out = join(OUT, `ceda-out-${args.length === 0 ? 'default' : 'ceda'}.csv`);
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), 'spend', ledger, '--jobs', '1', '--force', '--out', out, ...args],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const first = run.stderr.split('\n').find((line) => line.startsWith('co2e-engine spend:')) ?? run.stderr;
  const failed = Number(/(\d+) failed/.exec(first)?.[1] ?? NaN);
  console.log(
    `${args.length === 0 ? 'default (EXIOBASE)' : '--datasets ceda'}: ${ROWS} rows in ${seconds.toFixed(1)} s ` +
      `(${Math.round(ROWS / seconds)} rows/s, whole process), ${ROWS - failed} answered, ${failed} failed`,
  );
}
