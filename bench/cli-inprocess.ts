import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse';

/**
 * `tsx bench/cli-inprocess.ts spend|billing FILE`: the in-process rate the CLI is compared with, parse included:
 * the same CSV file read with csv-parse's stream (the parser the CLI bundles, in its plain mode: no per-record
 * callbacks, arrays for spend, column objects for billing), each record turned into a request and computed with the
 * built library (`calculateSpendBatch` per 1,000 rows; the billing estimator and summary per row). Timed from the
 * first byte read to the last row computed, as the CLI's summary times its run: both start cold (JIT, caches).
 * Prints `{ rows, rowsPerSec, cpuRowsPerSec }` as JSON (the second from the CPU time of all the
 * process's threads over the timed run, which a busy machine disturbs less than wall time).
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const [kind, file] = process.argv.slice(2) as [string, string];
const dist = (name: string) => import(pathToFileURL(join(ROOT, 'dist', name)).href);
const library = (await dist('index.js')) as typeof import('../src/index');
const billing = (await dist('billing.js')) as typeof import('../src/billing/index');
const { defaultDatasets } = (await dist('datasets.js')) as typeof import('../src/embedded/index');

const BATCH = 1_000;
const cell = (text: string | undefined) => (text === undefined || text === '' ? undefined : text);
const numberCell = (text: string | undefined) => (cell(text) === undefined ? undefined : Number(text));

/** Spend: a ledger row (bench/cli-ledger.ts's columns) as the request the CLI builds from it. */
function spendRequest(header: readonly string[]) {
  const at = (name: string) => header.indexOf(name);
  const [type, code, year, region, money, unit, tax, trade, transport] = [
    'classification_type',
    'classification_code',
    'spend_year',
    'spend_region',
    'money',
    'money_unit',
    'tax_margin',
    'trade_margin',
    'transport_margin',
  ].map(at) as number[];
  return (fields: readonly string[]) => {
    const request: Record<string, unknown> = {
      activity: { classification_type: fields[type!], classification_code: fields[code!] },
      spend_year: numberCell(fields[year!]),
      spend_region: fields[region!],
      money: numberCell(fields[money!]),
      money_unit: fields[unit!],
    };
    for (const [name, index] of [
      ['tax_margin', tax],
      ['trade_margin', trade],
      ['transport_margin', transport],
    ] as const) {
      const value = numberCell(fields[index!]);
      if (value !== undefined) request[name] = value;
    }
    return request;
  };
}

async function run(limit: number): Promise<{ rows: number; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const records = createReadStream(file, { highWaterMark: 64 * 1024 }).pipe(
    parse({ trim: true, relax_quotes: true, columns: kind === 'billing', bom: true }),
  );
  let rows = 0;
  if (kind === 'spend') {
    let toRequest: ((fields: readonly string[]) => Record<string, unknown>) | undefined;
    let batch: Record<string, unknown>[] = [];
    for await (const fields of records as AsyncIterable<string[]>) {
      if (toRequest === undefined) {
        toRequest = spendRequest(fields);
        continue;
      }
      batch.push(toRequest(fields));
      if (batch.length === BATCH) {
        rows += library.calculateSpendBatch(batch as never[], defaultDatasets).length;
        batch = [];
      }
      if (rows >= limit) break;
    }
    rows += library.calculateSpendBatch(batch as never[], defaultDatasets).length;
  } else {
    let estimator: ReturnType<typeof billing.createBillingEstimator> | undefined;
    let summary: ReturnType<typeof billing.createBillingSummary> | undefined;
    for await (const values of records as AsyncIterable<Record<string, string>>) {
      estimator ??= billing.createBillingEstimator(defaultDatasets, Object.keys(values));
      summary ??= billing.createBillingSummary(estimator.format);
      const { row, facts } = estimator.estimate(values);
      summary.add(row, facts);
      rows += 1;
      if (rows >= limit) break;
    }
    summary?.result();
  }
  const used = process.cpuUsage(cpu);
  return { rows, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

const { rows, seconds, cpuSeconds } = await run(Number.POSITIVE_INFINITY);
console.log(JSON.stringify({ rows, rowsPerSec: rows / seconds, cpuRowsPerSec: rows / cpuSeconds }));
