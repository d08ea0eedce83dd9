import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the built package in headless Chromium (tests/browser). Needs `npm run build` first and
 * Chromium at /usr/bin/chromium (or CHROMIUM_PATH); kept out of `npm test` so that runs without either.
 */
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    // Temporary folders made through tests/temporary-folders.ts (tests/cli/harness.ts) are removed after each file.
    setupFiles: ['tests/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
