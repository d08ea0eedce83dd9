import { type Command, Option } from 'commander';
import { pointDecimals } from '../adapters/cells';
import { type RowAdapterName, rowAdapter } from '../adapters/index';
import type { ParquetAwareFormat } from '../formats/records';
import { type CliIo, EXIT, UsageError } from '../io';
import { refuseSideFileClashes, type SideFile } from '../pipeline/output-file';
import { type FileCommandOptions, runFileCommand } from '../pipeline/run-file';
import { summariseLedger } from '../pipeline/ledger-summary';
import { outputFormatOf, readOutputRows } from '../pipeline/read-back';
import { type RenderReport, type Summarise, writeRunSideFiles } from '../pipeline/side-files';
import { readsDecimalCommas } from '../pipeline/reading';
import type { RowAdapter } from '../pipeline/row-adapter';
import { billingCommand } from './billing';
import { cliDatasets, describeDatasets } from './datasets-flag';
import { creditsOption, datasetsOption, decimalCommaOptions, delimiterOption, integer } from './options';

/**
 * The file commands, `spend FILE` and `cloud FILE` (and the next, `billing FILE`): one per row adapter, each a
 * thin commander front on the row pipeline (pipeline/run-file.ts) with its adapter. A new file command is one
 * more entry in {@link FILE_COMMANDS}.
 */

const FORMATS: ParquetAwareFormat[] = ['csv', 'jsonl', 'parquet'];

/** A file command's flags: the pipeline's options as given, and the command's own. */
export interface FileFlags extends Omit<FileCommandOptions, 'neutraliseFormulas'> {
  allowFormulas?: boolean;
  datasets: string[];
  summary?: string;
  report?: string;
  /** Flags a command adds with {@link FileCommandSpec.configure}. */
  [extra: string]: unknown;
}

const FILE_HELP = {
  spend: `
Columns (CSV header or JSON keys): classification_type, classification_code (or activity_id), spend_year,
spend_region, money, money_unit, and optionally tax_margin, trade_margin, transport_margin. Other columns pass
through. An empty cell means "not supplied".`,
  cloud: `
Columns: calculator (cpu, memory, storage, networking, embodied, instance), provider (aws, azure, gcp), then
that calculator's request fields (cpu_count, region, duration, duration_unit, data, data_unit, storage_type,
instance, instance_count, average_vcpu_utilization, replication_factor (storage, memory), year). Empty cells are
omitted; other columns pass through.`,
} as const;

const TRAILER = `
Formats: CSV (.csv), JSON Lines (.jsonl, .ndjson) and Parquet (.parquet; a file, not stdin, for input); input
CSV and JSON Lines may be gzipped (.csv.gz, .jsonl.gz), in and out (--out x.csv.gz is written gzipped).
Output: the input columns, then co2e, co2e_unit, activity_value, activity_unit, factor_id, factor_name,
factor_source, factor_region, factor_year, exchange_rate, exchange_rate_year, tax_margin_applied,
tax_margin_source, trade_margin_applied, trade_margin_source, transport_margin_applied, transport_margin_source,
inflation_applied, energy_kwh, notices, error_code, error_message, error_detail (JSON: valid values, cells past
the header). A summary goes to stderr.
--out is written atomically (a partial file beside it, renamed when complete); an interrupted run leaves
--out untouched and can be continued with --resume. CSV cells starting with = + - @ tab or CR (other than plain
numbers) get a leading ' so spreadsheets do not run them; --allow-formulas turns that off.
Exit code: 0 when every row succeeded, 1 when any row failed, 2 on usage errors, 130 when interrupted.`;

/** A file command: its name, its help, and the row adapter (by registry name) that computes its rows. */
export interface FileCommandSpec {
  name: string;
  description: string;
  /** The columns the rows take, shown after the options in `--help`. */
  help: string;
  adapter: RowAdapterName;
  /** Adds the command's own options (billing: `--export-format`, `--unknown`). */
  configure?: (command: Command) => void;
  /**
   * Runs before the file: may replace the adapter (one built with the command's options, computed in the main
   * thread) and give the summary of the finished output (billing's, read back with its export format).
   */
  prepare?: (
    file: string,
    flags: FileFlags,
    options: FileCommandOptions,
    io: CliIo,
  ) => Promise<{ adapter?: RowAdapter; summarise?: Summarise }>;
}

/** The files a run writes besides `--out`, each named by its option. */
function sideFilesOf(flags: FileFlags): SideFile[] {
  const files: SideFile[] = [];
  if (flags.summary !== undefined) files.push({ option: '--summary', path: flags.summary });
  if (flags.report !== undefined) files.push({ option: '--report', path: flags.report });
  return files;
}

export const FILE_COMMANDS: FileCommandSpec[] = [
  {
    name: 'spend',
    description: 'Estimate procurement spend rows of a CSV, JSON Lines or Parquet file (- for stdin).',
    help: FILE_HELP.spend,
    adapter: 'spend',
  },
  {
    name: 'cloud',
    description: 'Estimate cloud usage rows of a CSV, JSON Lines or Parquet file (- for stdin).',
    help: FILE_HELP.cloud,
    adapter: 'cloud',
  },
  billingCommand,
];

async function* pointed(
  rows: AsyncIterable<Record<string, unknown>>,
): AsyncGenerator<Record<string, unknown>> {
  for await (const row of rows) yield pointDecimals(row);
}

/** The summary of a spend or cloud output file, read back from its rows. */
function ledgerSummariser(
  name: string,
  file: string,
  flags: FileFlags,
  options: FileCommandOptions,
): Summarise {
  return async (out) => {
    const command = name === 'cloud' ? 'cloud' : 'spend';
    const read = readOutputRows(out, options.format ?? outputFormatOf(out));
    // The output's own columns are written with points; its pass-through cells (money) as the input had them.
    const inputFormat = options.inputFormat ?? outputFormatOf(file);
    const rows = (await readsDecimalCommas(file, inputFormat, options)) ? pointed(read) : read;
    const summary = await summariseLedger(command, rows, cliDatasets(flags.datasets));
    return { summary };
  };
}

/**
 * The report renderer, loaded only when a report is asked for: it carries the chart library (in the package,
 * dist/cli-report.js, apart from cli.js; see tsup.config.ts).
 */
export const renderReport: RenderReport = async (input) =>
  (await import('../report/render')).renderReport(input);

/** The adapter over the embedded data merged with `datasetFiles`; workers rebuild it from the same name and files. */
function fileAdapter(name: RowAdapterName, datasetFiles: string[]): RowAdapter {
  return { ...rowAdapter(name, cliDatasets(datasetFiles)), worker: name, workerDatasets: datasetFiles };
}

/**
 * Adds one file command to `program`; its action runs the file and reports the exit code through `setExitCode`.
 *
 * @example
 * ```ts
 * for (const spec of FILE_COMMANDS) addFileCommand(program, spec, io, (code) => (exitCode = code));
 * ```
 */
export function addFileCommand(
  program: Command,
  spec: FileCommandSpec,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  const command = program
    .command(`${spec.name} <file>`)
    .description(spec.description)
    .option('-o, --out <file>', 'write results here instead of stdout')
    .addOption(
      new Option('--format <format>', 'output format (default: from --out, else the input format)').choices(
        FORMATS,
      ),
    )
    .addOption(
      new Option('--input-format <format>', 'input format (default: from the extension; csv for -)').choices(
        FORMATS,
      ),
    )
    .option('--force', 'replace --out if it exists')
    .option('--resume', 'continue the partial --out an interrupted run of the same command left')
    .option(
      '--jobs <n>',
      'threads computing rows: the main thread and n - 1 workers (default: the number of cores, for inputs of 100,000 rows or more; 1: no workers)',
      integer('--jobs', 1, 256),
    )
    .option('--allow-formulas', 'CSV output: leave formula-like pass-through cells as they are')
    .option('--summary <file>', 'write the totals as JSON (read back from --out when the run ends)')
    .option('--report <file>', 'write a self-contained HTML report of the run (needs --out)')
    .addOption(datasetsOption())
    .addOption(delimiterOption());
  for (const option of decimalCommaOptions()) command.addOption(option);
  // Credit notes are negative amounts of money: spend rows only (a bill's negative costs are billing's own).
  if (spec.adapter === 'spend') command.addOption(creditsOption());
  command.addHelpText('after', spec.help + (spec.configure === undefined ? TRAILER : ''));
  spec.configure?.(command);
  command.action(async (file: string, flags: FileFlags) => {
    const options: FileCommandOptions = {
      force: flags.force === true,
      resume: flags.resume === true,
      neutraliseFormulas: flags.allowFormulas !== true,
    };
    if (flags.out !== undefined) options.out = flags.out;
    if (flags.format !== undefined) options.format = flags.format;
    if (flags.inputFormat !== undefined) options.inputFormat = flags.inputFormat;
    if (flags.jobs !== undefined) options.jobs = flags.jobs;
    // Every file the run writes is checked before any work starts (billing's cost-ratio pass included).
    const sideFiles = sideFilesOf(flags);
    if (sideFiles.length > 0 && (options.out === undefined || options.out === '-'))
      throw new UsageError(
        `${sideFiles[0]!.option} needs --out FILE (it is read back from the output file; stdout cannot be read back).`,
      );
    refuseSideFileClashes(file, options.out, sideFiles, options.force === true);
    if (flags.delimiter !== undefined) options.delimiter = flags.delimiter;
    if (flags.decimalComma !== undefined) options.decimalComma = flags.decimalComma;
    if (flags.credits !== undefined) options.credits = flags.credits;
    const prepared = (await spec.prepare?.(file, flags, options, io)) ?? {};
    const built = prepared.adapter ?? fileAdapter(spec.adapter, flags.datasets);
    // Every file command's rows depend on its datasets; --resume compares them with the adapter's own options.
    const adapter: RowAdapter = {
      ...built,
      rowOptions: { '--datasets': describeDatasets(flags.datasets), ...built.rowOptions },
    };
    const code = await runFileCommand(adapter, file, options, io);
    if (sideFiles.length > 0 && code !== EXIT.interrupted)
      await writeRunSideFiles(spec.name, sideFiles, {
        out: options.out!,
        summarise: prepared.summarise ?? ledgerSummariser(spec.name, file, flags, options),
        force: options.force === true,
        io,
        render: renderReport,
      });
    setExitCode(code);
  });
}
