import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Where the worker's code is: dist/cli-worker.js beside the bundled CLI (worker.ts, built on its own so that a
 * worker does not load the whole CLI), or worker.ts through tsx when running from source.
 *
 * @example
 * ```ts
 * const entry = workerEntry();
 * new Worker(entry.script, { workerData: setup, eval: entry.eval });
 * ```
 */
export function workerEntry(): { script: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL('./cli-worker.js', here), eval: false };
  // From source (tsx, vitest): a worker does not inherit the TypeScript loader, so register tsx's first.
  const api = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(api).href;
  const entry = new URL('../worker.ts', here).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}
