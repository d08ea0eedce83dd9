/**
 * The `co2e-engine` executable (package `bin` → `dist/cli.js`). All behaviour is in {@link runCli}; this file
 * only wires it to the process.
 */
import { runCli } from './run-cli';

const controller = new AbortController();
// The first Ctrl+C stops serve, or a file run after its current row with the summary; a second one exits at once.
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
