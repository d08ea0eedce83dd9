import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: packs the built package, installs the tarball into a temporary project and checks it
 * from ESM, CommonJS and TypeScript, with publint and are-the-types-wrong (tests/package). Needs `npm run build`
 * first and the npm registry or a warm npm cache (for zod and big.js); kept out of `npm test` for that reason.
 */
export default defineConfig({
  test: {
    include: ['tests/package/**/*.test.ts'],
    // Each file packs or installs into its own temporary folder, so they run side by side (bench/ci.md).
    maxWorkers: '100%',
    // Temporary folders made through tests/temporary-folders.ts (tests/cli/harness.ts) are removed after each file.
    setupFiles: ['tests/setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
