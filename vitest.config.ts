import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's `#fast-parse` import (package.json `imports` points at dist/) read from the sources.
  resolve: { alias: { '#fast-parse': fileURLToPath(new URL('src/core/fast-parse.ts', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
    // Need a build (and Chromium, or the registry): `npm run test:browser` and `npm run test:package`, run by .ci/run.
    exclude: [...configDefaults.exclude, 'tests/browser/**', 'tests/package/**'],
    testTimeout: 60_000,
  },
});
