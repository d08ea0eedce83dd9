import { runInContext, createContext, type Context } from 'node:vm';

/**
 * A UDF bundle loaded into a bare ECMAScript realm: `node:vm` with no globals added (no `process`, `require`,
 * `console`, timers, `TextEncoder`, `URL`, …: only what the language defines). Results cross back as JSON, the way
 * a warehouse hands them to SQL.
 */
export interface VmUdf {
  context: Context;
  /** Calls `co2e.<fn>(...args)` inside the realm, arguments and result passed as JSON text. */
  call(fn: 'cloud' | 'spend', ...args: unknown[]): unknown;
  /** Runs a warehouse function body (`return co2e.spend(request)`) with named arguments, as BigQuery does. */
  body(code: string, args: Record<string, unknown>): unknown;
}

/** Loads `bundle` (or several scripts in order, as BigQuery loads a function's library files) into a new realm. */
export function loadUdf(bundle: string | readonly string[], options: { allowEval?: boolean } = {}): VmUdf {
  const context = createContext(
    {},
    options.allowEval === false ? { codeGeneration: { strings: false, wasm: false } } : {},
  );
  for (const [index, script] of [bundle].flat().entries())
    runInContext(script, context, { filename: `co2e-udf-${index}.js` });
  const json = (args: unknown[]) => JSON.stringify(args);
  return {
    context,
    call(fn, ...args) {
      const text = runInContext(
        `JSON.stringify(co2e.${fn}(...JSON.parse(${JSON.stringify(json(args))})))`,
        context,
      );
      return JSON.parse(text as string);
    },
    body(code, args) {
      const names = Object.keys(args);
      const text = runInContext(
        `JSON.stringify((function (${names.join(', ')}) {\n${code}\n}).apply(null, JSON.parse(${JSON.stringify(
          json(Object.values(args)),
        )})))`,
        context,
      );
      return JSON.parse(text as string);
    },
  };
}
