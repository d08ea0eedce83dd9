import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary folders that last one test file. A helper module (tests/cli/harness.ts) is loaded once per worker
 * when files share their modules (vitest.config.ts), so its folder cannot be made on import and removed in an
 * `afterAll` of the first file that imported it: {@link testFolder} makes it on first use in each file, and
 * tests/setup.ts removes it after the file's last test. Left behind, a run of the suite once left 5,774 of them
 * (some 166 MB) in /tmp until the disk filled and Chromium crashed in the browser tests.
 */

const folders = new Map<string, string>();

/** The current test file's temporary folder for `prefix`, made on first use. */
export function testFolder(prefix: string): string {
  let folder = folders.get(prefix);
  if (folder === undefined) {
    folder = mkdtempSync(join(tmpdir(), prefix));
    folders.set(prefix, folder);
  }
  return folder;
}

/** Removes every folder {@link testFolder} made since the last call. */
export function removeTestFolders(): void {
  for (const folder of folders.values()) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}
