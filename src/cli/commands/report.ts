import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { type CliIo, EXIT, UsageError } from '../io';
import { cloudCalculatorsOf, datasetSources } from '../pipeline/ledger-summary';
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
