import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEDGER_HEADER, ledgerLine, spendLedger, writeCsv } from './cli-ledger';

/**
 * What the `spend` CLI leaves to V8's garbage collector, per isolate (the main thread, and the worker with
 * `--jobs 2`): young collections, full collections, and the bytes promoted to the old generation per row, from
 * `node --trace-gc-nvp`. Promoted bytes become old-generation garbage that only a full collection frees, so a
 * run's full collections follow them. Counts, not seconds: one run of each is enough on a busy machine (they vary
 * by a few collections from run to run). Two ledgers: the varied one (bench/cli-ledger.ts: every row draws its key)
 * and one of few keys (11 codes × 5 regions), where nothing but the rows themselves is allocated per row. Run after
 * `npm run build`:
 *   tsx bench/cli-gc.ts [rows] [cli]     (default 400,000 and dist/cli.js: another build's cli.js, to compare)
 *
 * With `--jobs 2`, the main thread's isolate is listed first (its first collection comes first).
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'bench', '.out', 'gc');
const ROWS = Number(process.argv[2] ?? 400_000);
const CLI = process.argv[3] ?? join(ROOT, 'dist', 'cli.js');

if (!existsSync(CLI)) throw new Error('Run `npm run build` first.');
mkdirSync(OUT, { recursive: true });

function writeLedger(name: string, line: (index: number) => string): string {
  const path = join(OUT, `${name}-${ROWS}.csv`);
  return existsSync(path) ? path : writeCsv(path, LEDGER_HEADER, ROWS, line);
}

interface IsolateCounts {
  scavenges: number;
  full: number;
  promotedBytesPerRow: number;
  scavengePauseMs: number;
  fullPauseMs: number;
}

/** `--trace-gc-nvp` lines (`[pid:isolate] … pause=… gc=s … promoted=…`), summed per isolate, in order of their first. */
function gcCounts(trace: string): IsolateCounts[] {
  const isolates = new Map<string, IsolateCounts>();
  for (const line of trace.split('\n')) {
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (isolate === undefined || kind === undefined) continue;
    const counts = isolates.get(isolate) ?? {
      scavenges: 0,
      full: 0,
      promotedBytesPerRow: 0,
      scavengePauseMs: 0,
      fullPauseMs: 0,
    };
    const pause = Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
    if (kind === 's') {
      counts.scavenges += 1;
      counts.scavengePauseMs += pause;
      counts.promotedBytesPerRow += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0) / ROWS;
    } else {
      counts.full += 1;
      counts.fullPauseMs += pause;
    }
    isolates.set(isolate, counts);
  }
  return [...isolates.values()].map((counts) => ({
    ...counts,
    promotedBytesPerRow: Math.round(counts.promotedBytesPerRow),
    scavengePauseMs: Math.round(counts.scavengePauseMs),
    fullPauseMs: Math.round(counts.fullPauseMs),
  }));
}

const ledgers = {
  varied: writeLedger('varied', (index) => spendLedger().line(index)),
  'few keys': writeLedger('few-keys', ledgerLine),
};
const results: Record<string, Record<string, IsolateCounts[]>> = {};
for (const [name, file] of Object.entries(ledgers)) {
  results[name] = {};
  for (const jobs of [1, 2]) {
    const run = spawnSync(
      process.execPath,
      [
        '--trace-gc-nvp',
        CLI,
        'spend',
        file,
        '--out',
        join(OUT, 'out.csv'),
        '--force',
        '--jobs',
        String(jobs),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    if (run.status !== 0) throw new Error(`spend failed: ${run.stderr}`);
    (results[name] as Record<string, IsolateCounts[]>)[`jobs ${jobs}`] = gcCounts(run.stdout);
  }
}
console.log(JSON.stringify({ rows: ROWS, results }, null, 2));
