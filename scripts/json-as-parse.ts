import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/**
 * An esbuild plugin: JSON modules become `JSON.parse('…')` rather than an object literal, which V8 parses markedly
 * faster. Used by every build (tsup.config.ts, scripts/build-browser.ts, scripts/build-udf.ts); where the dataset
 * tables must stay modules of their own (tsup's `externalDataModules`), that plugin goes first and claims them.
 *
 * @example
 * ```ts
 * await build({ entryPoints: ['src/index.ts'], bundle: true, plugins: [jsonAsParse] });
 * ```
 */
export const jsonAsParse: Plugin = {
  name: 'json-as-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async ({ path }) => {
      const minified = JSON.stringify(JSON.parse(await readFile(path, 'utf8')));
      return { contents: `export default JSON.parse(${JSON.stringify(minified)});`, loader: 'js' };
    });
  },
};
