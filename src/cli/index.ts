/**
 * The `co2e-engine` executable (package `bin` → `dist/cli.js`). All behaviour is in {@link runCli}; this file
 * only wires it to the process. The CLI's worker threads have an entry of their own (worker.ts).
 */
import { runCli } from './run-cli';

// A closed stdout (`co2e-engine list codes | head -1`) ends the command quietly with exit 0, as Unix tools do,
// instead of an unhandled `write EPIPE`: the reader has what it wanted.
// Any other write error (a full disk) is reported by the file pipeline's own listener (pipeline/streams.ts) when
// it is writing ("the output on stdout is incomplete", exit 2); only without one is it thrown here.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  if (process.stdout.listenerCount('error') <= 1) throw error;
});
// A gone stderr (`2>&1 | head -3`, `2> >(true)`) drops the messages, not the run: the output and the summary are
// still written and the exit code still tells whether rows failed. Unheard, the first message's EPIPE was thrown and
// the run ended with exit 1 before its --summary was written. Any other stderr write error (a full disk under
// `2> log`) is dropped too, as there is nowhere left to report it.
process.stderr.on('error', () => undefined);
const controller = new AbortController();
// The first Ctrl+C stops serve, or a file run after the chunks under way with the summary; a second one exits at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
