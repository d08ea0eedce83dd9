import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gcFlags, HEAP_GROWING_PERCENT } from '../../src/cli/pipeline/gc-flags';
import { tempFile, tempPath } from './harness';

/**
 * The garbage-collection flags a file run sets for itself (pipeline/gc-flags.ts): no allocation-site pretenuring
 * always; bounded heap growth, until the computing threads fill the cores, and then V8's own heap growth and serial
 * young-generation collection; and never a flag the user gave node.
 */

const HEAP = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
const NO_PRETENURING = '--no-allocation-site-pretenuring';
/** V8's own heap growth, for threads that fill the cores. */
const V8_HEAP = '--heap-growing-percent=0';

describe('gcFlags', () => {
  it('stops pretenuring for every run; once the threads fill the cores, grows the heap as V8 does and collects serially', () => {
    expect(gcFlags({ threads: 1, cores: 2, chosen: '' })).toEqual([HEAP, NO_PRETENURING]);
    expect(gcFlags({ threads: 2, cores: 2, chosen: '' })).toEqual([
      V8_HEAP,
      NO_PRETENURING,
      '--no-parallel-scavenge',
    ]);
    expect(gcFlags({ threads: 4, cores: 2, chosen: '' })).toEqual([
      V8_HEAP,
      NO_PRETENURING,
      '--no-parallel-scavenge',
    ]);
  });

  it('keeps parallel collection while a core is left for its helpers, and for a lone thread on one core', () => {
    expect(gcFlags({ threads: 2, cores: 8, chosen: '' })).toEqual([HEAP, NO_PRETENURING]);
    expect(gcFlags({ threads: 7, cores: 8, chosen: '' })).toEqual([HEAP, NO_PRETENURING]);
    // One thread has no other computing thread to take the cores from.
    expect(gcFlags({ threads: 1, cores: 1, chosen: '' })).toEqual([HEAP, NO_PRETENURING]);
  });

  it("leaves the user's own node flags alone, in either spelling", () => {
    const SERIAL = '--no-parallel-scavenge';
    // Two threads on two cores, where the run would set all three; each row: the user's flags, what the run still sets.
    const cases: Array<[chosen: string, set: string[]]> = [
      ['--heap-growing-percent=0', [NO_PRETENURING, SERIAL]],
      ['--heap_growing_percent=100', [NO_PRETENURING, SERIAL]],
      ['--allocation-site-pretenuring', [V8_HEAP, SERIAL]],
      ['--no-allocation_site_pretenuring', [V8_HEAP, SERIAL]],
      ['--parallel-scavenge', [V8_HEAP, NO_PRETENURING]],
      ['--no-parallel_scavenge', [V8_HEAP, NO_PRETENURING]],
      ['--max-old-space-size=4096 --single-threaded-gc', [V8_HEAP, NO_PRETENURING]],
      ['--single_threaded_gc --heap-growing-percent=30 --allocation-site-pretenuring', []],
    ];
    for (const [chosen, set] of cases) expect(gcFlags({ threads: 2, cores: 2, chosen })).toEqual(set);
    // One thread: the bounded heap growth is the user's to replace too.
    expect(gcFlags({ threads: 1, cores: 2, chosen: '--heap-growing-percent=20' })).toEqual([NO_PRETENURING]);
  });

  it('property: more threads never turn serial collection off, more cores never turn it on', () => {
    const serial = (threads: number, cores: number) =>
      gcFlags({ threads, cores, chosen: '' }).includes('--no-parallel-scavenge');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), (threads, cores) => {
        // V8's own heap growth goes with serial collection: both when the threads leave no core idle.
        expect(gcFlags({ threads, cores, chosen: '' }).slice(0, 2)).toEqual([
          serial(threads, cores) ? V8_HEAP : HEAP,
          NO_PRETENURING,
        ]);
        if (serial(threads, cores)) {
          expect(serial(threads + 1, cores)).toBe(true);
          if (cores > 1) expect(serial(threads, cores - 1)).toBe(true);
        }
        // Threads at the core count, one core each: the helpers have no core of their own.
        expect(serial(Math.max(cores, 2), cores)).toBe(true);
      }),
    );
  });
});

/** Runs the CLI from source on `ledger` with node `flags`, and returns what V8's traces wrote to stdout. */
async function traceRun(flags: readonly string[], ledger: string, jobs: number): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const args = [...flags, '--import', 'tsx', 'src/cli/index.ts', 'spend', ledger];
  const run = await promisify(execFile)(
    process.execPath,
    [...args, '--out', tempPath('gc-out.csv'), '--force', '--jobs', String(jobs)],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  return run.stdout;
}

describe('serial scavenges in a real run', () => {
  const cores = availableParallelism();
  const ledger = tempFile(
    'gc-ledger.csv',
    [
      'id,classification_type,classification_code,spend_year,spend_region,money,money_unit',
      ...Array.from({ length: 20_000 }, (_, index) => `${index},isic4,62,2019,DE,${index + 0.5},eur`),
    ].join('\n'),
  );

  /**
   * The time each young-generation collection of a run spent in parallel helper threads, in order, from V8's own
   * trace (`--trace-gc-nvp`, one line per collection on stdout, of every thread): 0 when it ran serially.
   */
  async function helperTimes(jobs: number): Promise<number[]> {
    return (await traceRun(['--trace-gc-nvp'], ledger, jobs))
      .split('\n')
      .filter((line) => /\bgc=s\b/.test(line))
      .map((line) => Number(/\bbackground\.scavenge\.parallel=([\d.]+)/.exec(line)?.[1]));
  }

  // One worker per core: a machine of many cores would start dozens of workers under tsx for this.
  it.runIf(cores >= 2 && cores <= 8)(
    'with --jobs at the core count, the collections after the workers start have no parallel helpers',
    { timeout: 60_000 },
    async () => {
      const serial = await helperTimes(cores);
      const last = serial.slice(-10);
      expect(last).toHaveLength(10);
      expect(last).toEqual(last.map(() => 0));
      // With --jobs 1 the helpers still work (the same trace and file, so the check above can fail).
      const parallel = (await helperTimes(1)).slice(-10);
      expect(parallel.some((time) => time > 0)).toBe(true);
    },
  );
});

describe('no allocation-site pretenuring in a real run', () => {
  // Quoted supplier names, as in most ledgers: these rows go through csv-parse, whose allocations V8 pretenured.
  const ledger = tempFile(
    'gc-quoted-ledger.csv',
    [
      'id,supplier,classification_type,classification_code,spend_year,spend_region,money,money_unit',
      ...Array.from(
        { length: 20_000 },
        (_, index) => `${index},"Supplier ${index}, Ltd",isic4,62,2019,DE,${index + 0.5},eur`,
      ),
    ].join('\n'),
  );
  /** How many allocation sites V8 decided to pretenure during a run (`--trace-pretenuring-statistics`). */
  const tenured = async (flags: readonly string[]) =>
    (await traceRun(['--trace-pretenuring-statistics', ...flags], ledger, 1))
      .split('\n')
      .filter((line) => line.includes('=> tenure')).length;

  it(
    'makes no pretenuring decision, unless the user turned pretenuring on',
    { timeout: 60_000 },
    async () => {
      expect(await tenured([])).toBe(0);
      // The same run with V8's default given outright, which the run leaves alone: so the check above can fail.
      expect(await tenured(['--allocation-site-pretenuring'])).toBeGreaterThan(0);
    },
  );
});
