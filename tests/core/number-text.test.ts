import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberText } from '../../src/core/number-text';

/**
 * `numberText` is `String(number)` whose text V8 allocates in the young generation (src/core/number-text.ts): the same
 * text for every number, and no old-generation garbage per call.
 */

describe('numberText', () => {
  it('property: writes every number as String does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), (value) => {
        expect(numberText(value)).toBe(String(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes the edges as String does: exponents, negative zero, NaN and the infinities', () => {
    for (const value of [
      1e21,
      1e-7,
      123e-20,
      -0,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
      NaN,
      Infinity,
      -Infinity,
    ])
      expect(numberText(value)).toBe(String(value));
  });

  it(
    "leaves the old generation alone, where String's texts land (the number-string cache)",
    { timeout: 60_000 },
    async () => {
      // A fresh process, so that no other test's garbage or collections move the old generation meanwhile.
      const script = `
        import { getHeapSpaceStatistics } from 'node:v8';
        import { numberText } from './src/core/number-text.ts';
        const oldUsed = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
        const growth = {};
        for (const [name, text] of [['numberText', numberText], ['String', String]]) {
          const before = oldUsed();
          let length = 0;
          for (let index = 0; index < 200_000; index++) length += text(index * 1.000001 + 0.5).length;
          growth[name] = oldUsed() - before;
        }
        console.log(JSON.stringify(growth));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      );
      const growth = JSON.parse(stdout) as { numberText: number; String: number };
      // 200,000 texts of about 15 characters: 32 bytes each, 6.4 MB had they gone to the old generation.
      expect(growth.numberText).toBeLessThan(2e6);
      expect(growth.String).toBeGreaterThan(4e6); // the same loop through String: so the check above can fail
    },
  );
});
