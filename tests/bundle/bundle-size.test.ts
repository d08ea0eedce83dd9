import { afterAll, describe, expect, it } from 'vitest';
import budgets from './budgets.json';
import { bundle, DATA_CHOICE_ENTRIES, DATASETS_ENTRIES, ROOT_ENTRIES } from './bundle';

/**
 * Byte ceilings (gzip) for what a browser app ships. The ceilings live in budgets.json; raise one only in the
 * commit that grows the bundle, saying why there.
 */

const ENTRIES: Readonly<Record<string, string>> = {
  ...ROOT_ENTRIES,
  ...DATASETS_ENTRIES,
  ...DATA_CHOICE_ENTRIES,
};
const ceilings: Readonly<Record<string, { ceiling_gzip: number }>> = budgets.bundles;
const measured: string[] = [];

afterAll(() => {
  // Printed so a size change is visible in the log even when it stays under its ceiling.
  console.log(`bundle sizes (gzip / minified bytes):\n${measured.join('\n')}`);
});

it('budgets.json has a ceiling for exactly the measured bundles', () => {
  expect(Object.keys(ceilings).sort()).toEqual(Object.keys(ENTRIES).sort());
});

describe.each(Object.entries(ENTRIES))('%s', (name, source) => {
  it('stays under its gzip ceiling', async () => {
    const { gzipped, minified, contributions } = await bundle(source);
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
