import type { DatasetInfo } from '../../datasets/tables';
import type { CliIo } from '../io';
import { type SideFile, writeSideFile } from './output-file';

/**
 * The files a file run writes once its output is complete: `--summary` (JSON) and `--report` (HTML), both made
 * from the finished output, both through {@link writeSideFile} (atomic, no silent overwrite).
 */

/** What a command's summary of its finished output is, and the line the end report gives it. */
export interface RunSummaryFile {
  summary: object;
  /** Said on stderr once the files are written (billing: the share of cost estimated). */
  line?: string;
  /** The datasets behind the rows, when the summary does not list them itself (billing's). */
  sources?: DatasetInfo[];
}

/** Summarises the finished output file `out`. */
export type Summarise = (out: string) => Promise<RunSummaryFile>;

/** Renders the report page of a run: see report/render.ts. */
export type RenderReport = (input: {
  command: string;
  summary: object;
  out: string;
  sources: DatasetInfo[];
}) => Promise<string>;

/**
 * Writes `--summary` and `--report` of a finished run.
 *
 * @throws {@link UsageError} when one cannot be written (or appeared meanwhile, without `force`).
 *
 * @example
 * ```ts
 * await writeRunSideFiles('spend', [{ option: '--summary', path: 's.json' }], { out, summarise, force, io, render });
 * ```
 */
export async function writeRunSideFiles(
  command: string,
  files: readonly SideFile[],
  run: { out: string; summarise: Summarise; force: boolean; io: CliIo; render: RenderReport },
): Promise<void> {
  const made = await run.summarise(run.out);
  const written: string[] = [];
  for (const file of files) {
    const text =
      file.option === '--summary'
        ? `${JSON.stringify(made.summary, null, 2)}\n`
        : await run.render({
            command,
            summary: made.summary,
            out: run.out,
            sources: made.sources ?? [],
          });
    writeSideFile(file, text, run.force);
    written.push(`${file.option === '--summary' ? 'summary' : 'report'} in ${file.path}`);
  }
  run.io.stderr.write(`co2e-engine ${command}: ${[made.line, ...written].filter(Boolean).join('; ')}\n`);
}
