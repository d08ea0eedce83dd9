import { spendRows } from '../src/cli/adapters/spend';
import { chunkProcessor } from '../src/cli/pipeline/chunk';
import { defaultDatasets } from '../src/embedded/index';
import { ledgerChunks } from './cli-ledger';

/**
 * What the first rows of each key cost the `spend` CLI: the varied ledger's first lines (bench/cli-ledger.ts; its
 * first 40,000 rows hold about 6,900 of its selections and 2,800 of its rates) computed twice by one adapter, the
 * first pass resolving every key, the second answering every row from the kept parts. The first pass less the second
 * is the keys' cost. Each round takes fresh copies of the datasets' tables, so the engine's caches (held per table)
 * start empty as a worker's do; round 1 also pays compiling the code, which later rounds do not.
 *   tsx bench/cli-first-rows.ts [rows] [rounds]     (default 40,000 and 5)
 */

const ROWS = Number(process.argv[2] ?? 40_000);
const ROUNDS = Number(process.argv[3] ?? 5);

const { chunks, context } = ledgerChunks(ROWS);

/** The datasets with each table a new object: the engine's caches, keyed by table, start empty. */
const freshTables = (): typeof defaultDatasets =>
  Object.fromEntries(
    Object.entries(defaultDatasets).map(([name, table]) => [
      name,
      table !== null && typeof table === 'object' && !Array.isArray(table) ? { ...table } : table,
    ]),
  ) as typeof defaultDatasets;

let bytes = 0;
const keys: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const compute = chunkProcessor(spendRows(freshTables()), context);
  const pass = () => {
    const start = performance.now();
    for (const chunk of chunks) bytes += compute(chunk).bytes.length;
    return performance.now() - start;
  };
  const first = pass();
  const again = pass();
  if (round > 1) keys.push(first - again);
  console.log(
    `round ${round}: first pass ${first.toFixed(0)} ms, again ${again.toFixed(0)} ms, the keys ${(first - again).toFixed(0)} ms`,
  );
}
const median = [...keys].sort((a, b) => a - b)[keys.length >> 1];
console.log(
  `the keys, rounds 2–${ROUNDS}: median ${median?.toFixed(0)} ms (${ROWS} rows, ${bytes} bytes written)`,
);
