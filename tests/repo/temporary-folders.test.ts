import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTestFolders, testFolder } from '../temporary-folders';

/**
 * The suite's temporary folders last one test file (tests/setup.ts removes them after it): left behind, a run once
 * filled /tmp with 5,774 of them; made once per worker, every later file of a worker that shares its modules wrote
 * into a folder already removed (182 failures, bench/ci.md).
 */
describe('testFolder', () => {
  it('gives one folder per prefix until removed, then a fresh one', () => {
    const first = testFolder('co2e-folders-test-');
    expect(testFolder('co2e-folders-test-')).toBe(first);
    const other = testFolder('co2e-folders-other-');
    expect(other).not.toBe(first);
    writeFileSync(join(first, 'file.txt'), 'x');

    removeTestFolders();
    expect(existsSync(first)).toBe(false);
    expect(existsSync(other)).toBe(false);

    const next = testFolder('co2e-folders-test-');
    expect(next).not.toBe(first);
    expect(existsSync(next)).toBe(true);
  });
});
