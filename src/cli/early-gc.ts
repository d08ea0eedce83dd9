import { setFlagsFromString } from 'node:v8';
import { chosenNodeFlags } from './pipeline/gc-flags';

/**
 * Turns V8's allocation-site pretenuring off before the CLI's other modules load (pipeline/gc-flags.ts says why a
 * file run wants it off). A file run also sets it with its other flags, but only once its modules are loaded: by
 * then the embedded tables, frozen at import, have warmed allocation sites that V8 then pretenures during the run
 * (the Open CEDA grid alone is 60,000 numbers). A flag the user gave node wins, as for the others. The CLI entry
 * calls this, then imports the rest (a dynamic import, so it is evaluated after).
 *
 * @example
 * ```ts
 * turnPretenuringOff();
 * const { runCli } = await import('./run-cli');
 * ```
 */
export function turnPretenuringOff(): void {
  if (!/allocation[-_]site[-_]pretenuring/.test(chosenNodeFlags()))
    setFlagsFromString('--no-allocation-site-pretenuring');
}
