import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { createBillingEstimator, createBillingSummary } from '../src/billing/index';
import { defaultDatasets } from '../src/embedded/index';
import { calculateSpendBatch } from '../src/index';
import { HEADER, TEMPLATES, focusLine } from './cli-focus';
import { LEDGER_HEADER, ledgerLine, ledgerRequest } from './cli-ledger';
import { median } from './statistics';

/**
 * `npx tsx bench/billing.ts`: rows per second per core of the billing reader on a generated 100,000-row FOCUS file
 * (AWS, Azure and Google Cloud lines of every kind, estimated and not), beside the spend calculator on a 100,000-row
 * ledger in the same process and run, and, when `dist/cli.js` is built, the `spend` (and `billing`, when the command
 * exists) CLI with `--jobs 1`. One thread, so rows per second is per core. Medians of 3, interleaved. Writes
 * bench/billing.md (the `perf` helper owns bench/results.md). BENCH_ROWS=… for another size.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out', 'billing');
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const log = (message: string) => process.stderr.write(`${message}\n`);

mkdirSync(OUT, { recursive: true });
const focusPath = join(OUT, `focus-${ROWS}.csv`);
if (!existsSync(focusPath)) {
  const lines = [HEADER.join(',')];
  for (let index = 0; index < ROWS; index++) lines.push(focusLine(index));
  writeFileSync(focusPath, `${lines.join('\n')}\n`);
}
const ledgerPath = join(OUT, `ledger-${ROWS}.csv`);
if (!existsSync(ledgerPath)) {
  const lines = [LEDGER_HEADER];
  for (let index = 1; index <= ROWS; index++) lines.push(ledgerLine(index));
  writeFileSync(ledgerPath, `${lines.join('\n')}\n`);
}

const focusText = readFileSync(focusPath, 'utf8');
const focusRows = parse(focusText, { columns: true }) as Record<string, string>[];
const spendRequests = Array.from({ length: ROWS }, (_, index) => ledgerRequest(index + 1));

function billingRate(withParse: boolean): number {
  const start = performance.now();
  const rows = withParse ? (parse(focusText, { columns: true }) as Record<string, string>[]) : focusRows;
  const estimator = createBillingEstimator(defaultDatasets, HEADER);
  const summary = createBillingSummary(estimator.format);
  for (const row of rows) {
    const { row: out, facts } = estimator.estimate(row);
    summary.add(out, facts);
  }
  summary.result();
  return ROWS / ((performance.now() - start) / 1000);
}

function spendRate(): number {
  const start = performance.now();
  calculateSpendBatch(spendRequests, defaultDatasets);
  return ROWS / ((performance.now() - start) / 1000);
}

const cli = join(ROOT, 'dist', 'cli.js');
function cliRate(command: string, file: string): number | undefined {
  if (!existsSync(cli)) return undefined;
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    [cli, command, file, '--out', join(OUT, `${command}-out.csv`), '--force', '--jobs', '1'],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0 && run.status !== 1) return undefined;
  return ROWS / ((performance.now() - start) / 1000);
}

billingRate(false); // warm-up
spendRate();
const results = {
  billing: [] as number[],
  billingParse: [] as number[],
  spend: [] as number[],
  spendCli: [] as number[],
  billingCli: [] as number[],
};
for (let repetition = 0; repetition < 3; repetition++) {
  results.billing.push(billingRate(false));
  results.billingParse.push(billingRate(true));
  results.spend.push(spendRate());
  const spendCli = cliRate('spend', ledgerPath);
  if (spendCli !== undefined) results.spendCli.push(spendCli);
  const billingCli = cliRate('billing', focusPath);
  if (billingCli !== undefined) results.billingCli.push(billingCli);
  log(
    `repetition ${repetition + 1}: billing ${Math.round(results.billing.at(-1)!)}/s, spend ${Math.round(results.spend.at(-1)!)}/s`,
  );
}

const k = (value: number | undefined) =>
  value === undefined ? 'not measured' : `${(value / 1000).toFixed(1)}k`;
const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
const table = [
  '| what (one core) | rows/s |',
  '| --- | ---: |',
  `| billing reader, in-process (rows already parsed): classify + calculate + summary | ${k(median(results.billing))} |`,
  `| billing reader, in-process, CSV parse included (csv-parse) | ${k(median(results.billingParse))} |`,
  `| spend calculator, in-process (\`calculateSpendBatch\`, the bench ledger) | ${k(median(results.spend))} |`,
  `| \`co2e-engine spend\` CLI, \`--jobs 1\`, whole process | ${k(results.spendCli.length ? median(results.spendCli) : undefined)} |`,
  `| \`co2e-engine billing\` CLI, \`--jobs 1\`, whole process | ${k(results.billingCli.length ? median(results.billingCli) : undefined)} |`,
].join('\n');
writeFileSync(
  join(ROOT, 'bench', 'billing.md'),
  `# Billing reader throughput

Generated by \`npx tsx bench/billing.ts\` (${at} UTC, ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores shared
with other work: read the ratios, measured in the same run, more than the absolute rates). A generated ${ROWS.toLocaleString('en')}-row FOCUS
file (${TEMPLATES.length} line templates of AWS, Azure and Google Cloud: instance hours, vCPU and memory, SSD/HDD storage,
inter-region transfer, internet egress, requests; every 50th row tax), and the spend bench ledger of the same size.
One thread, so rows per second is per core. Medians of 3, interleaved.

${table}

The billing reader runs from the TypeScript sources (tsx); the CLI rows from \`dist/\` (\`npm run build\` first).
`,
);
log(table);
