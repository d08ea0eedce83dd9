import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import budgets from '../bundle/budgets.json';
import { bundle, DATA_CHOICE_ENTRIES, DATASETS_ENTRIES, ROOT_ENTRIES } from '../bundle/bundle';
import { installedPackage } from '../bundle/installed-package';

/**
 * Byte ceilings (gzip) for what a browser app ships, measured as apps see it: each snippet is bundled by esbuild
 * against the packed tarball installed in a scratch project (tests/bundle/installed-package.ts), not against the
 * sources. The ceilings live in tests/bundle/budgets.json; raise one only in the commit that grows the bundle,
 * saying why there. The README's browser example is one of the bundles, and its stated size is checked.
 */

/** The README's browser example, exactly as the README shows it (the first ts block under its heading). */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const quickStart = README.slice(README.indexOf('## Quick start (browser bundle)'));
const README_EXAMPLE = /```ts\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
const README_EXAMPLE_NAME = 'README browser example';

const ENTRIES: Readonly<Record<string, string>> = {
  ...ROOT_ENTRIES,
  ...DATASETS_ENTRIES,
  ...DATA_CHOICE_ENTRIES,
  [README_EXAMPLE_NAME]: README_EXAMPLE,
};
const ceilings: Readonly<Record<string, { ceiling_gzip: number }>> = budgets.bundles;
const measured: string[] = [];
const sizes = new Map<string, number>();
let project: string;

beforeAll(async () => {
  project = await installedPackage();
}, 300_000);

afterAll(() => {
  // Printed so a size change is visible in the log even when it stays under its ceiling.
  console.log(`bundle sizes from the installed tarball (gzip / minified bytes):\n${measured.join('\n')}`);
});

it('budgets.json has a ceiling for exactly the measured bundles', () => {
  expect(Object.keys(ceilings).sort()).toEqual(Object.keys(ENTRIES).sort());
});

describe.each(Object.entries(ENTRIES))('%s', (name, source) => {
  it('stays under its gzip ceiling', async () => {
    const { gzipped, minified, contributions } = await bundle(source, project);
    sizes.set(name, gzipped);
    const ceiling = ceilings[name]?.ceiling_gzip;
    const parts = Object.entries(contributions)
      .filter(([, bytes]) => bytes > 0)
      .map(([group, bytes]) => `${group} ${bytes}`)
      .join(', ');
    measured.push(
      `  ${name.padEnd(22)} ${String(gzipped).padStart(7)} / ${String(minified).padStart(8)}  ceiling ${ceiling}  (minified: ${parts})`,
    );
    expect(ceiling).toBeTypeOf('number');
    expect(gzipped).toBeLessThanOrEqual(ceiling as number);
  });
});

describe('the README', () => {
  it('shows a browser example that imports only the tables it needs, and states its measured size', async () => {
    expect(README_EXAMPLE).toContain("from 'co2e-engine/datasets/cloud/electricitymaps-grid'");
    expect(README_EXAMPLE).not.toMatch(/from 'co2e-engine\/datasets'/);
    const gzipped = sizes.get(README_EXAMPLE_NAME) ?? (await bundle(README_EXAMPLE, project)).gzipped;
    const stated = /example above bundles to about (\d+) KB gzip/.exec(quickStart)?.[1];
    expect(stated, 'the README states the example’s size').toBeDefined();
    expect(Math.abs(Number(stated) * 1000 - gzipped)).toBeLessThanOrEqual(1000);
  });
});
