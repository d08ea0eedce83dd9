import { configDefaults, defineConfig } from 'vitest/config';

// Need a build (and Chromium, or the registry): `npm run test:browser` and `npm run test:package`, run by .ci/run.
// (A project's include and exclude are added to the root's, so each project names its own.)
const EXCLUDE = [...configDefaults.exclude, 'tests/browser/**', 'tests/package/**'];

/**
 * Files that measure time or memory in their own process: each gets a fresh one, since a worker's heap, grown by
 * the files before, moves such figures (a batch-fairness latency of 463 ms against 250 in a shared worker). And
 * files that use up a budget kept for the life of a process (the writer's joined pieces), which would leave the
 * files after them in a shared worker testing the budget's end instead of what they mean to.
 */
const STANDALONE = [
  'tests/http/batch-fairness.test.ts',
  'tests/http/joined-pieces.test.ts',
  'tests/loaders/large-csv.test.ts',
  'tests/loaders/decompression-bombs.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    setupFiles: ['tests/setup.ts'],
    // A worker per core: vitest's default (one fewer) leaves a 2-core machine running the suite on one, while most
    // files wait on child processes and sockets as much as they compute (bench/ci.md).
    maxWorkers: '100%',
    // Type tests (tests/types/*.test-d.ts: `expectTypeOf`, `@ts-expect-error`) are checked by `tsc --noEmit`, which
    // `npm test` runs first (tsconfig.json includes tests/): vitest's typecheck mode ran a second tsc beside the
    // workers (bench/ci.md).
    projects: [
      {
        extends: true,
        // Files share their worker's modules: isolated, each file loaded zod, the embedded tables and the sources
        // again, 180 s of a 346 s run on two workers against 21 s of 235 s shared (bench/ci.md). Helpers keep no
        // state a file could leave to the next; temporary folders last one file (tests/setup.ts).
        test: {
          name: 'shared',
          include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...EXCLUDE, ...STANDALONE],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'standalone', include: STANDALONE, isolate: true } },
    ],
  },
});
