/**
 * The `co2e-engine` executable (package `bin` → `dist/cli.js`): starts a file run's first worker thread from the
 * command line (pipeline/prestart.ts), then loads the CLI (index.ts, built as dist/cli-main.js), so that the worker's
 * start-up overlaps the CLI's loading rather than following it. This file imports nothing else, so the worker starts
 * before the CLI's bundle is read.
 */
import { prestartWorker } from './pipeline/prestart';

prestartWorker(process.argv.slice(2));
await import('./index');
