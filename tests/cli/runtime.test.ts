import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, runtimeFlags } from '../../src/cli/pipeline/runtime';

/**
 * The one runtime setting a file run makes (pipeline/runtime.ts): a bound on the heap's growth, so peak memory does
 * not grow with the file's length; never a flag the user gave node, and no flag tuned for speed (#40).
 */

describe('runtimeFlags', () => {
  it('bounds the heap growth, and sets nothing else', () => {
    expect(runtimeFlags('')).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(runtimeFlags('--max-old-space-size=4096')).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    ]);
  });

  it("leaves the user's own choice alone, in either spelling", () => {
    expect(runtimeFlags('--heap-growing-percent=0')).toEqual([]);
    expect(runtimeFlags('--max-old-space-size=4096 --heap_growing_percent=100')).toEqual([]);
  });
});
