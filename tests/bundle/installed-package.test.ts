import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFolder } from '../temporary-folders';
import { removeStaleProjects, STALE_PROJECT_MS } from './installed-package';

const MINUTE = 60_000;

/** A folder named `name` in `parent`, last modified `ageMs` before `now`, with a file inside. */
function folderAged(parent: string, name: string, now: number, ageMs: number): string {
  const path = join(parent, name);
  mkdirSync(path);
  writeFileSync(join(path, 'package.json'), '{}');
  const time = new Date(now - ageMs);
  utimesSync(path, time, time);
  return path;
}

describe('removeStaleProjects (the packed package installed once per build)', () => {
  it('removes the projects of other builds, and half-installed ones, unused for an hour; keeps the rest', () => {
    const parent = testFolder('co2e-installed-projects-');
    const now = Date.now();
    const kept = folderAged(parent, 'co2e-engine-installed-0000000000000001', now, 48 * 60 * MINUTE);
    const stale = folderAged(parent, 'co2e-engine-installed-0000000000000002', now, 2 * 60 * MINUTE);
    const partial = folderAged(
      parent,
      'co2e-engine-installed-0000000000000003.4242.partial',
      now,
      61 * MINUTE,
    );
    const inUse = folderAged(parent, 'co2e-engine-installed-0000000000000004', now, 59 * MINUTE);
    const installing = folderAged(parent, 'co2e-engine-installed-0000000000000005.4243.partial', now, MINUTE);
    const unrelated = folderAged(parent, 'co2e-demo-abc', now, 48 * 60 * MINUTE);

    expect(STALE_PROJECT_MS).toBe(60 * MINUTE);
    expect(removeStaleProjects(parent, kept, now).sort()).toEqual([
      'co2e-engine-installed-0000000000000002',
      'co2e-engine-installed-0000000000000003.4242.partial',
    ]);
    expect([kept, stale, partial, inUse, installing, unrelated].map(existsSync)).toEqual([
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});
