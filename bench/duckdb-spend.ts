import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { defaultDatasets } from '../src/embedded/index';
import { calculateSpend, type SpendRequest } from '../src/index';
import { spendLedger } from './cli-ledger';

/**
 * The `spend` CLI beside what a user could do instead: a DuckDB query doing the same spend arithmetic, reading the same
 * varied ledger CSV (bench/cli-ledger.ts) joined to factor, exchange-rate, price-level and margin tables exported from
 * the embedded data, and writing the results back to CSV. The tables are the embedded data resolved per key as the
 * engine resolves it (one `calculateSpend` per distinct selection, currency-year and price key, untimed): factor
 * selection, exchange-rate fallbacks, default margins and price levels are the engine's, the per-row arithmetic is
 * DuckDB's doubles: co2e = money × rate × (1 − tax − trade − transport) / price level × factor.
 *
 * Both are timed from start to the output file written (the CLI as a fresh `node dist/cli.js spend` process, its
 * start-up included; DuckDB in-process, the instance already open), on all cores and on one (`--jobs 1`,
 * `SET threads = 1`). Totals of co2e must agree to 1e-12. CPU seconds of each (the CLI's all threads by
 * /usr/bin/time, DuckDB's by process.cpuUsage around the query) are reported beside wall time: on a shared machine
 * their ratio is the steadier figure. Prints one JSON line. Run after `npm run build`:
 *   tsx bench/duckdb-spend.ts [rows]     (default 200,000; `npm run bench` passes 1,000,000 with BENCH_FULL=1)
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out', 'duckdb');
const ROWS = Number(process.argv[2] ?? 200_000);
const MARGINS = ['tax_margin', 'trade_margin', 'transport_margin'] as const;

if (!existsSync(join(ROOT, 'dist', 'cli.js'))) throw new Error('Run `npm run build` first.');
mkdirSync(OUT, { recursive: true });

/** Writes `lines` (after `header`) to `path` in chunks of about 1 MB. */
function writeCsv(path: string, header: string, count: number, line: (index: number) => string): string {
  const fd = openSync(path, 'w');
  let text = `${header}\n`;
  for (let index = 1; index <= count; index++) {
    text += `${line(index)}\n`;
    if (text.length > 1 << 20) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, text);
  closeSync(fd);
  return path;
}

/** The CSV cell of a text (quoted: names hold commas). */
const cell = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/**
 * The lookup tables for the keys the ledger can draw: selections per (code, region) with the factor, default margins
 * and price key (the selection's one product where it has sector price rates, else ''); rates per currency and year;
 * price levels per region, year and price key.
 */
function exportTables(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const { factorYear, currency: factorCurrency } = defaultDatasets.spendFactors;
  const probe = (code: string, region: string, year: number, currency: string) =>
    calculateSpend(
      {
        activity: { classification_type: 'isic4', classification_code: code },
        spend_year: year,
        spend_region: region,
        money: 1,
        money_unit: currency,
      } as SpendRequest,
      defaultDatasets,
    );
  const selections: string[] = [];
  // Price key → a (code, region) pair of it, to probe its levels with.
  const priceKeys = new Map<string, readonly [string, string]>();
  for (const [code, region] of pairs) {
    const result = probe(code, region, factorYear, factorCurrency);
    const details = result.calculation_details;
    const products = details.products;
    const single = products.length === 1 ? products[0]?.product : undefined;
    let priceKey = '';
    if (single !== undefined)
      for (let year = 1990; year <= 2040 && priceKey === ''; year++)
        if (defaultDatasets.inflation.sectorRate(region, single, year) !== undefined) priceKey = single;
    const key = `${region}\u0000${priceKey}`;
    if (!priceKeys.has(key)) priceKeys.set(key, [code, region]);
    const factor = result.estimate.emission_factor?.factor as number;
    selections.push(
      [code, region, factor, cell(priceKey), ...MARGINS.map((margin) => details[margin])].join(','),
    );
  }
  const years = Array.from({ length: 14 }, (_, index) => 2012 + index);
  const [somePair] = pairs as Array<readonly [string, string]>;
  const rates: string[] = [];
  for (const currency of defaultDatasets.fx.currencies)
    for (const year of years) {
      const details = probe(somePair![0], somePair![1], year, currency.toLowerCase()).calculation_details;
      rates.push(`${currency.toLowerCase()},${year},${details.exchange_rate}`);
    }
  // A price level depends on the region, year and the product whose sector rate applies: probed with a selection of
  // that product (or of the region, for the region's own rate).
  const levels: string[] = [];
  for (const [key, [code, region]] of priceKeys) {
    const priceKey = key.slice(key.indexOf('\u0000') + 1);
    for (const year of years) {
      const details = probe(code, region, year, factorCurrency).calculation_details;
      levels.push(`${region},${year},${cell(priceKey)},${1 + details.inflation_applied}`);
    }
  }
  const write = (name: string, header: string, lines: string[]) =>
    writeCsv(join(OUT, name), header, lines.length, (index) => lines[index - 1] as string);
  return [
    write(
      'selections.csv',
      'classification_code,spend_region,factor,price_key,default_tax,default_trade,default_transport',
      selections,
    ),
    write('rates.csv', 'money_unit,spend_year,rate', rates),
    write('levels.csv', 'spend_region,spend_year,price_key,level', levels),
  ];
}

const QUERY = (ledger: string, out: string) => `
COPY (
  WITH ledger AS (
    SELECT * FROM read_csv('${ledger}', header = true, columns = {
      'id': 'BIGINT', 'supplier': 'VARCHAR', 'classification_type': 'VARCHAR', 'classification_code': 'VARCHAR',
      'spend_year': 'INTEGER', 'spend_region': 'VARCHAR', 'money': 'DOUBLE', 'money_unit': 'VARCHAR',
      'tax_margin': 'DOUBLE', 'trade_margin': 'DOUBLE', 'transport_margin': 'DOUBLE'})
  ),
  selections AS (SELECT * FROM read_csv('${join(OUT, 'selections.csv')}', header = true,
    types = {'classification_code': 'VARCHAR', 'price_key': 'VARCHAR'})),
  rates AS (SELECT * FROM read_csv('${join(OUT, 'rates.csv')}', header = true)),
  levels AS (SELECT * FROM read_csv('${join(OUT, 'levels.csv')}', header = true, types = {'price_key': 'VARCHAR'})),
  computed AS (
    SELECT l.*, s.factor, r.rate,
      l.money * r.rate * (1 - coalesce(l.tax_margin, s.default_tax) - coalesce(l.trade_margin, s.default_trade)
        - coalesce(l.transport_margin, s.default_transport)) / p.level AS activity_value
    FROM ledger l
    JOIN selections s ON s.classification_code = l.classification_code AND s.spend_region = l.spend_region
    JOIN rates r ON r.money_unit = l.money_unit AND r.spend_year = l.spend_year
    JOIN levels p ON p.spend_region = l.spend_region AND p.spend_year = l.spend_year
      AND coalesce(p.price_key, '') = coalesce(s.price_key, '')
  )
  SELECT id, supplier, classification_type, classification_code, spend_year, spend_region, money, money_unit,
    activity_value * factor AS co2e, activity_value, rate AS exchange_rate
  FROM computed ORDER BY id
) TO '${out}' (HEADER, DELIMITER ',')`;

async function main() {
  const { header, line, pairs } = spendLedger();
  const ledger = writeCsv(join(OUT, `ledger-${ROWS}.csv`), header, ROWS, line);
  const tables = exportTables(pairs);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const sumOf = async (file: string) => {
    const reader = await connection.runAndReadAll(
      `SELECT sum(co2e)::DOUBLE AS total, count(co2e) AS n FROM read_csv('${file}', header = true, types = {'co2e': 'DOUBLE'})`,
    );
    const [total, count] = reader.getRows()[0] as [number, bigint];
    return { total, rows: Number(count) };
  };
  const runs: Record<string, unknown> = {};
  for (const cores of ['all', 'one'] as const) {
    const load = loadavg()[0];
    const duckOut = join(OUT, `duckdb-${ROWS}-${cores}.csv`);
    await connection.run(`SET threads = ${cores === 'one' ? 1 : availableParallelism()}`);
    let started = performance.now();
    const cpu = process.cpuUsage();
    await connection.run(QUERY(ledger, duckOut));
    const duckdbSeconds = (performance.now() - started) / 1000;
    const duckdbCpu = process.cpuUsage(cpu);
    const cliOut = join(OUT, `cli-${ROWS}-${cores}.csv`);
    // CPU seconds of both, beside wall time: on a shared machine they say what each costs, whatever the load.
    const timeFile = join(OUT, 'cli-time.txt');
    started = performance.now();
    const cli = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%U %S',
        '-o',
        timeFile,
        process.execPath,
        join(ROOT, 'dist', 'cli.js'),
        'spend',
        ledger,
        '--out',
        cliOut,
        '--force',
        ...(cores === 'one' ? ['--jobs', '1'] : []),
      ],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const cliSeconds = (performance.now() - started) / 1000;
    if (cli.status !== 0) throw new Error(`spend CLI failed: ${cli.stderr.slice(0, 500)}`);
    const [engine, duckdb] = [await sumOf(cliOut), await sumOf(duckOut)];
    const [cliUser, cliSystem] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
    const cliCpuSeconds = (cliUser ?? 0) + (cliSystem ?? 0);
    const duckdbCpuSeconds = (duckdbCpu.user + duckdbCpu.system) / 1e6;
    runs[cores] = {
      load,
      cliSeconds,
      duckdbSeconds,
      ratio: cliSeconds / duckdbSeconds,
      cliCpuSeconds,
      duckdbCpuSeconds,
      cpuRatio: cliCpuSeconds / duckdbCpuSeconds,
      engineTotal: engine.total,
      duckdbTotal: duckdb.total,
      rows: [engine.rows, duckdb.rows],
      relativeDifference: Math.abs(engine.total - duckdb.total) / Math.abs(engine.total),
    };
  }
  connection.closeSync();
  console.log(JSON.stringify({ rows: ROWS, tables: tables.length, runs }));
}

await main();
