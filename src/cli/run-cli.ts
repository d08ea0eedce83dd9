import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json';
import { cloudRows } from './cloud-rows';
import { addDatasetsCommand } from './datasets-command';
import { cliDatasets } from './datasets-flag';
import { type FileCommandOptions, runFileCommand } from './file-command';
import { type CliIo, EXIT, UsageError } from './io';
import { addListCommand } from './list-command';
import type { RowKind } from './outcome';
import type { ParquetAwareFormat } from './parquet-command';
import { serve, type ServeOptions, serveLimitOptions } from './serve';
import { spendRows } from './spend-rows';

export type { CliIo } from './io';

function integer(name: string, min: number, max: number) {
  return (text: string): number => {
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    }
    return value;
  };
}

const collect = (value: string, previous: string[]) => [...previous, value];
const FORMATS: ParquetAwareFormat[] = ['csv', 'jsonl', 'parquet'];

interface FileFlags {
  out?: string;
  format?: ParquetAwareFormat;
  inputFormat?: ParquetAwareFormat;
  force?: boolean;
  resume?: boolean;
  jobs?: number;
  allowFormulas?: boolean;
  datasets: string[];
}

/** `--datasets <file>`, repeatable, on serve, spend and cloud. */
const datasetsOption = () =>
  new Option(
    '--datasets <preset|file>',
    'preset (default, hosted-api-2021, ccf-grid, electricitymaps-grid, useeio) or dataset file (datasets build) over the embedded data; repeatable, in order',
  )
    .argParser(collect)
    .default([]);

const FILE_HELP = {
  spend: `
Columns (CSV header or JSON keys): classification_type, classification_code (or activity_id), spend_year,
spend_region, money, money_unit, and optionally tax_margin, trade_margin, transport_margin. Other columns pass
through. An empty cell means "not supplied".`,
  cloud: `
Columns: calculator (cpu, memory, storage, networking, embodied, instance), provider (aws, azure, gcp), then
that calculator's request fields (cpu_count, region, duration, duration_unit, data, data_unit, storage_type,
instance, instance_count, average_vcpu_utilization, year). Empty cells are omitted; other columns pass through.`,
} as const;

const TRAILER = `
Formats: CSV (.csv), JSON Lines (.jsonl, .ndjson) and Parquet (.parquet; a file, not stdin, for input).
Output: the input columns, then co2e, co2e_unit, activity_value, activity_unit, factor_id, factor_name,
factor_source, notices, error_code, error_message. A summary goes to stderr.
--out is written atomically (a partial file beside it, renamed when complete); an interrupted run leaves
--out untouched and can be continued with --resume. CSV cells starting with = + - @ tab or CR (other than plain
numbers) get a leading ' so spreadsheets do not run them; --allow-formulas turns that off.
Exit code: 0 when every row succeeded, 1 when any row failed, 2 on usage errors, 130 when interrupted.`;

/**
 * Runs the `co2e-engine` command line with `argv` (without `node` and the script) and returns the exit code: 0
 * success, 1 when a batch file had failed rows, 2 on usage errors, 130 when interrupted.
 *
 * @example
 * ```ts
 * const code = await runCli(['spend', 'ledger.csv', '--out', 'ledger-co2e.csv'], {
 *   stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env,
 * });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('co2e-engine')
    .description('Carbon estimates offline: serve the REST endpoints, or run spend and cloud batch files.')
    .version(packageJson.version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  const serveCommand = program
    .command('serve')
    .description(
      "Serve SPEC.md's REST endpoints (POST /procurement/spend, /compute/{provider}/...) over HTTP.",
    )
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option(
      '--api-key <key>',
      'accepted API key (repeatable; env CO2E_API_KEYS adds comma-separated keys)',
      collect,
      [],
    )
    .option(
      '--cors <origin>',
      "let browser apps on this origin call the server (repeatable; '*': any)",
      collect,
      [],
    )
    .addOption(datasetsOption())
    .action(async (flags: { apiKey: string[]; datasets: string[] } & Omit<ServeOptions, 'apiKeys'>) => {
      const { apiKey, datasets, ...rest } = flags;
      exitCode = await serve({ ...rest, apiKeys: apiKey }, cliDatasets(datasets), io);
    });
  for (const option of serveLimitOptions()) serveCommand.addOption(option);

  const fileCommand = (
    name: 'spend' | 'cloud',
    description: string,
    kind: (datasetFiles: string[]) => RowKind,
  ) =>
    program
      .command(`${name} <file>`)
      .description(description)
      .option('-o, --out <file>', 'write results here instead of stdout')
      .addOption(
        new Option('--format <format>', 'output format (default: from --out, else the input format)').choices(
          FORMATS,
        ),
      )
      .addOption(
        new Option(
          '--input-format <format>',
          'input format (default: from the extension; csv for -)',
        ).choices(FORMATS),
      )
      .option('--force', 'replace --out if it exists')
      .option('--resume', 'continue the partial --out an interrupted run of the same command left')
      .option(
        '--jobs <n>',
        'worker threads computing rows (default: the number of cores; 1: no workers)',
        integer('--jobs', 1, 256),
      )
      .option('--allow-formulas', 'CSV output: leave formula-like pass-through cells as they are')
      .addOption(datasetsOption())
      .addHelpText('after', FILE_HELP[name] + TRAILER)
      .action(async (file: string, flags: FileFlags) => {
        const options: FileCommandOptions = {
          force: flags.force === true,
          resume: flags.resume === true,
          neutraliseFormulas: flags.allowFormulas !== true,
        };
        if (flags.out !== undefined) options.out = flags.out;
        if (flags.format !== undefined) options.format = flags.format;
        if (flags.inputFormat !== undefined) options.inputFormat = flags.inputFormat;
        if (flags.jobs !== undefined) options.jobs = flags.jobs;
        exitCode = await runFileCommand(kind(flags.datasets), file, options, io);
      });

  fileCommand(
    'spend',
    'Estimate procurement spend rows of a CSV, JSON Lines or Parquet file (- for stdin).',
    (datasetFiles) => ({
      ...spendRows(cliDatasets(datasetFiles)),
      worker: 'spend',
      workerDatasets: datasetFiles,
    }),
  );
  fileCommand(
    'cloud',
    'Estimate cloud usage rows of a CSV, JSON Lines or Parquet file (- for stdin).',
    (datasetFiles) => ({
      ...cloudRows(cliDatasets(datasetFiles)),
      worker: 'cloud',
      workerDatasets: datasetFiles,
    }),
  );

  addDatasetsCommand(program, io, (code) => {
    exitCode = code;
  });
  addListCommand(
    program,
    () => cliDatasets([]),
    io,
    (code) => (exitCode = code),
  );

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? EXIT.ok
        : EXIT.usage;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`co2e-engine: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}
