import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gcFlags, HEAP_GROWING_PERCENT } from '../../src/cli/pipeline/gc-flags';

/**
 * The garbage-collection flags a file run sets for itself (pipeline/gc-flags.ts): heap growth always, serial
 * young-generation collection only when the computing threads fill the cores, and never a flag the user gave node.
 * (That V8 takes `--no-parallel-scavenge` mid-run, with workers started after it, is exercised by the 100,000-row
 * `--jobs 2` process of large-file.test.ts on a two-core machine.)
 */

const HEAP = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;

describe('gcFlags', () => {
  it('bounds heap growth for every run, and collects serially once the threads fill the cores', () => {
    expect(gcFlags({ threads: 1, cores: 2, chosen: '' })).toEqual([HEAP]);
    expect(gcFlags({ threads: 2, cores: 2, chosen: '' })).toEqual([HEAP, '--no-parallel-scavenge']);
    expect(gcFlags({ threads: 4, cores: 2, chosen: '' })).toEqual([HEAP, '--no-parallel-scavenge']);
  });

  it('keeps parallel collection while a core is left for its helpers, and for a lone thread on one core', () => {
    expect(gcFlags({ threads: 2, cores: 8, chosen: '' })).toEqual([HEAP]);
    expect(gcFlags({ threads: 7, cores: 8, chosen: '' })).toEqual([HEAP]);
    // One thread has no other computing thread to take the cores from.
    expect(gcFlags({ threads: 1, cores: 1, chosen: '' })).toEqual([HEAP]);
  });

  it("leaves the user's own node flags alone, in either spelling", () => {
    const threads = 2;
    const cores = 2;
    expect(gcFlags({ threads, cores, chosen: '--heap-growing-percent=0' })).toEqual([
      '--no-parallel-scavenge',
    ]);
    expect(gcFlags({ threads, cores, chosen: '--heap_growing_percent=100' })).toEqual([
      '--no-parallel-scavenge',
    ]);
    expect(gcFlags({ threads, cores, chosen: '--parallel-scavenge' })).toEqual([HEAP]);
    expect(gcFlags({ threads, cores, chosen: '--no-parallel_scavenge' })).toEqual([HEAP]);
    expect(gcFlags({ threads, cores, chosen: '--max-old-space-size=4096 --single-threaded-gc' })).toEqual([
      HEAP,
    ]);
    expect(gcFlags({ threads, cores, chosen: '--single_threaded_gc --heap-growing-percent=30' })).toEqual([]);
  });

  it('sets serial collection exactly when more than one thread fills the cores and the user chose nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), (threads, cores) => {
        const flags = gcFlags({ threads, cores, chosen: '' });
        expect(flags[0]).toBe(HEAP);
        expect(flags.includes('--no-parallel-scavenge')).toBe(threads > 1 && threads >= cores);
      }),
    );
  });
});
