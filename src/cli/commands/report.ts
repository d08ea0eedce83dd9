import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { type CliIo, EXIT, UsageError } from '../io';
import { BILLING_COLUMNS } from '../../billing/estimate';
import { CLOUD_COLUMNS } from '../adapters/cloud';
import { SPEND_COLUMNS } from '../adapters/spend';
import { checkHeader, HeaderError, recordKeys } from '../pipeline/header';
import { cloudCalculatorsOf, datasetSources } from '../pipeline/ledger-summary';
import { readOutputRows } from '../pipeline/read-back';
import type { ColumnSpec } from '../pipeline/row-adapter';
import { refuseSideFileClashes, writeSideFile } from '../pipeline/output-file';
import { cliDatasets } from './datasets-flag';
import { renderReport } from './file';
import { datasetsOption } from './options';

/**
 * `co2e-engine report OUTPUT --summary SUMMARY --out report.html`: the HTML report of a finished `spend`, `cloud`
 * or `billing` run from its output file and `--summary` JSON (the same page `--report` writes at the end of a run).
 * `--out` gets the rules of every file the CLI writes: never OUTPUT or SUMMARY, no silent overwrite, atomic.
 */

interface ReportFlags {
  summary: string;
  out: string;
  force?: boolean;
  datasets: string[];
}

/** The summary JSON, or a usage error saying what is wrong with it. */
function readSummary(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --summary ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  let summary: unknown;
  try {
    summary = JSON.parse(text);
  } catch {
    throw new UsageError(`--summary ${path} is not JSON; give the file --summary wrote.`);
  }
  const record = summary as Record<string, unknown>;
  const known =
    typeof summary === 'object' &&
    summary !== null &&
    typeof record.total_kg === 'number' &&
    typeof record.rows === 'number' &&
    (record.command === 'spend' || record.command === 'cloud' || typeof record.cost === 'object');
  if (!known)
    throw new UsageError(
      `--summary ${path} is not a summary of spend, cloud or billing; give the file --summary wrote.`,
    );
  return record;
}

type RunKind = 'spend' | 'cloud' | 'billing';

/** The kind of run a summary (checked by {@link readSummary}) is of: a bill's has no `command`. */
const summaryKind = (summary: Record<string, unknown>): RunKind =>
  summary.command === 'spend' || summary.command === 'cloud' ? summary.command : 'billing';

/**
 * The kind of run that wrote `output`, from its first row: a bill's has billing's result columns; a ledger's or a
 * cloud file's has the input columns its command requires (under any spelling its header check reads). Undefined
 * when the output has no row to tell by.
 */
async function outputKind(output: string): Promise<RunKind | undefined> {
  const rows = readOutputRows(output);
  const first = await rows.next();
  await rows.return(undefined);
  if (first.done === true) return undefined;
  const row = first.value;
  if (BILLING_COLUMNS.every((name) => Object.hasOwn(row, name))) return 'billing';
  const reads = (spec: ColumnSpec) => {
    try {
      checkHeader(recordKeys(row, spec), spec);
      return true;
    } catch (error) {
      if (error instanceof HeaderError) return false;
      throw error;
    }
  };
  return reads(SPEND_COLUMNS) ? 'spend' : reads(CLOUD_COLUMNS) ? 'cloud' : undefined;
}

/**
 * Adds `report` to `program`.
 *
 * @example
 * ```ts
 * addReportCommand(program, io, (code) => (exitCode = code));
 * ```
 */
export function addReportCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('report <output>')
    .description(
      'Write a self-contained HTML report (charts, tables, factors, sources) of a spend, cloud or billing output and its --summary.',
    )
    .requiredOption('--summary <file>', 'the summary JSON the run wrote (--summary)')
    .requiredOption('-o, --out <file>', 'the HTML file to write')
    .option('--force', 'replace --out if it exists')
    .addOption(datasetsOption())
    .addHelpText(
      'after',
      `
The page has no script and fetches nothing: charts are inline SVG, styles inline. Every figure is the summary's.
A bill's months and factors are read from OUTPUT; --datasets names the tables a bill was estimated with (for
the sources and licences listed). Exit code: 0 when written, 2 on usage errors.`,
    )
    .action(async (output: string, flags: ReportFlags) => {
      const target = { option: '--out', path: flags.out };
      refuseSideFileClashes(output, undefined, [target], flags.force === true);
      refuseSideFileClashes(flags.summary, undefined, [target], flags.force === true);
      const summary = readSummary(flags.summary);
      let isFile = false;
      try {
        isFile = statSync(output).isFile();
      } catch {
        // said below
      }
      if (!isFile) throw new UsageError(`cannot read ${output}: not a file.`);
      // A report of one run's output with another's figures would describe neither.
      const kind = summaryKind(summary);
      const written = await outputKind(output);
      if (written !== undefined && written !== kind)
        throw new UsageError(
          `--summary ${flags.summary} is the summary of a ${kind} run, but ${output} is a ${written} output; give the summary that run wrote.`,
        );
      const datasets = cliDatasets(flags.datasets);
      const calculators = cloudCalculatorsOf(Object.keys((summary.by_calculator as object) ?? {}));
      const html = await renderReport({
        command: typeof summary.command === 'string' ? summary.command : 'billing',
        summary,
        out: output,
        sources: datasetSources(datasets, calculators),
      });
      writeSideFile(target, html, flags.force === true);
      io.stderr.write(`co2e-engine report: ${flags.out} (${Buffer.byteLength(html)} bytes)\n`);
      setExitCode(EXIT.ok);
    });
}
