import { spendRows } from '../src/cli/adapters/spend';
import { chunkProcessor } from '../src/cli/pipeline/chunk';
import { CHUNK_ROWS } from '../src/cli/pipeline/chunker';
import { RunSummary } from '../src/cli/pipeline/summary';
import { defaultDatasets } from '../src/embedded/index';
import { ledgerChunkContext, spendLedger } from './cli-ledger';

/**
 * The `spend` CLI's row work without its files: the varied ledger's lines (bench/cli-ledger.ts, as
 * bench/duckdb-spend.ts writes them) through the spend adapter's chunk processor in chunks of CHUNK_ROWS, each chunk's
 * summary merged into one run summary, as a `--jobs 1` run computes them. Reading, writing and start-up are left out,
 * so an A/B of a change to the row path is not lost in the noise of a whole run. Each round starts a fresh adapter
 * (its kept parts empty, as a run's are); the engine's own caches stay warm after the first round, so the first
 * selection of each key costs less than in a run (see bench/cli.md).
 *
 * Also runs the same lines sorted by their key cells: the difference is what the rows' random order costs (memory
 * latency on the per-key entries), which no per-row saving removes.
 *
 * Prints µs per row, min and median of the rounds, for both orders. Compare two builds by running it on each, back to
 * back: this machine's speed swings ±10 % between minutes.
 *   tsx bench/cli-chunks.ts [rows] [rounds]     (default 1,000,000 and 3)
 */

const ROWS = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);

const { header, line } = spendLedger();
const lines = Array.from({ length: ROWS }, (_, index) => line(index + 1));
/** The key cells of a ledger line: code, region, year and currency (the quoted supplier comes first). */
const keyOf = (text: string): string => {
  const cells = text.slice(text.indexOf('",') + 2).split(',');
  return `${cells[1]}|${cells[3]}|${cells[2]}|${cells[5]}`;
};
const keys = lines.map(keyOf);
const sorted = lines
  .map((_, index) => index)
  .sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : keys[a] === keys[b] ? a - b : 1))
  .map((index) => lines[index] as string);

const context = ledgerChunkContext(header);

/** µs per row of each round, and the output's bytes (the same for both orders). */
function rounds(texts: readonly string[]): { times: number[]; bytes: number } {
  const records = texts.map((text, index) => ({ line: index + 2, text }));
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const compute = chunkProcessor(spendRows(defaultDatasets), context);
    const run = new RunSummary({ category: 'by classification' });
    bytes = 0;
    const start = performance.now();
    for (let from = 0; from < records.length; from += CHUNK_ROWS) {
      const chunk = compute(records.slice(from, from + CHUNK_ROWS));
      bytes += chunk.bytes.length;
      run.merge(chunk.summary);
    }
    times.push(((performance.now() - start) * 1000) / records.length);
  }
  return { times: times.sort((a, b) => a - b), bytes };
}

const show = (name: string, { times, bytes }: ReturnType<typeof rounds>) =>
  console.log(
    `${name}: min ${(times[0] as number).toFixed(2)} µs/row, median ${(times[times.length >> 1] as number).toFixed(2)} (${ROUNDS} rounds, ${ROWS} rows, ${bytes} bytes)`,
  );

show('ledger order', rounds(lines));
show('sorted by key', rounds(sorted));
