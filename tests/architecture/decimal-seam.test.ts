import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SEAM = 'src/core/decimal.ts';

/** Every .ts file below a folder of the repo, as repo-relative paths. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(join(repo, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => relative(repo, join(repo, folder, name)).replaceAll('\\', '/'));
}

/** An import or re-export of big.js, static or dynamic. */
const BIG_JS_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]big\.js['"]/;

describe('the decimal seam (big.js only in src/core/decimal.ts)', () => {
  it('holds in src/ and in scripts/ (the dataset builders compute through the seam)', () => {
    const importers = [...typeScriptFiles('src'), ...typeScriptFiles('scripts')].filter((file) =>
      BIG_JS_IMPORT.test(readFileSync(join(repo, file), 'utf8')),
    );
    expect(importers).toEqual([SEAM]);
  });

  it('is an ESLint rule for src/ (npm run lint), off only in the seam', async () => {
    const eslint = new ESLint({ cwd: repo });
    const ruleOf = async (file: string): Promise<unknown> =>
      ((await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown> }).rules[
        'no-restricted-imports'
      ];
    expect(JSON.stringify(await ruleOf('src/loaders/csv.ts'))).toContain('"name":"big.js"');
    expect(((await ruleOf(SEAM)) as unknown[])[0]).toBe(0); // severity off
  });
});
