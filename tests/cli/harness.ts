import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { type CliIo, runCli } from '../../src/cli/run-cli';
import { passThroughColumns } from '../../src/cli/formats/index';
import type { ChunkContext } from '../../src/cli/pipeline/chunk';
import { testFolder } from '../temporary-folders';

/** Runs the CLI in-process with captured output, and temp files to run it on. */

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(isTTY = false) {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  }) as Writable & { isTTY?: boolean; columns?: number };
  if (isTTY) {
    stream.isTTY = true;
    stream.columns = 120;
  }
  return { stream, text: () => text };
}

export async function cli(
  argv: string[],
  options: {
    stdin?: string;
    env?: Record<string, string>;
    signal?: AbortSignal;
    tty?: boolean;
    onStderr?: (text: string) => void;
  } = {},
): Promise<CliRun> {
  const out = capture();
  const err = capture(options.tty);
  if (options.onStderr !== undefined) {
    const write = err.stream.write.bind(err.stream);
    err.stream.write = ((chunk: string, ...rest: never[]) => {
      options.onStderr?.(String(chunk));
      return write(chunk, ...rest);
    }) as typeof err.stream.write;
  }
  const io: CliIo = {
    stdin: (async function* () {
      yield new TextEncoder().encode(options.stdin ?? '');
    })(),
    stdout: out.stream,
    stderr: err.stream,
    env: options.env ?? {},
    ...(options.signal && { signal: options.signal }),
  };
  const code = await runCli(argv, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

/**
 * Runs `co2e-engine serve <args>` in-process, resolves once it listens, and gives its URL; `stop()` aborts it and
 * returns its result.
 */
export async function serveCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; stop: () => Promise<CliRun> }> {
  const controller = new AbortController();
  let resolveUrl: (url: string) => void = () => undefined;
  const listening = new Promise<string>((resolve) => {
    resolveUrl = resolve;
  });
  const run = cli(['serve', '--port', '0', ...args], {
    env,
    signal: controller.signal,
    onStderr: (text) => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolveUrl(match[1] as string);
    },
  });
  const url = await Promise.race([listening, run.then((result) => Promise.reject(new Error(result.stderr)))]);
  return {
    url,
    stop: () => {
      controller.abort();
      return run;
    },
  };
}

let counter = 0;

/** Writes a temp file and returns its path. */
export function tempFile(name: string, content: string | Uint8Array): string {
  const path = tempPath(name);
  writeFileSync(path, content);
  return path;
}

/** A fresh path in the test file's temporary folder (tests/temporary-folders.ts removes it after the file). */
export const tempPath = (name: string) => join(testFolder('co2e-cli-'), `${++counter}-${name}`);

export const parseCsv = (text: string): Array<Record<string, string>> => parse(text, { columns: true });
export const parseJsonl = (text: string): Array<Record<string, any>> =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

export const RESULT_COLUMNS = [
  'co2e',
  'co2e_unit',
  'activity_value',
  'activity_unit',
  'factor_id',
  'factor_name',
  'factor_source',
  'factor_region',
  'factor_year',
  'exchange_rate',
  'exchange_rate_year',
  'tax_margin_applied',
  'tax_margin_source',
  'trade_margin_applied',
  'trade_margin_source',
  'transport_margin_applied',
  'transport_margin_source',
  'inflation_applied',
  'energy_kwh',
  'notices',
  'error_code',
  'error_message',
  'error_detail',
];

/** A spend ledger's columns, as the chunk tests' records give them. */
export const SPEND_HEADER = [
  'id',
  'classification_type',
  'classification_code',
  'spend_year',
  'spend_region',
  'money',
  'money_unit',
];

/** The chunk context of a CSV file with `header`, written as CSV with every column kept (the run's defaults). */
export const csvChunkContext = (header: readonly string[]): ChunkContext => ({
  inputFormat: 'csv',
  format: 'csv',
  header,
  columns: passThroughColumns(header, undefined),
  neutraliseFormulas: true,
});
