import { type Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { DatasetTables } from '../datasets/create';
import { DatasetError } from '../datasets/errors';
import { defaultTables } from '../datasets/index';
import type { DatasetInfo } from '../datasets/tables';
import { DATASETS_FILE_FORMAT, type DatasetsFile } from '../loaders/parse-datasets-file';
import { loadExiobaseRelease } from '../node/load-exiobase-release';
import { loadMarginsCsv } from '../node/load-margins-csv';
import { readText, statOf } from '../node/files';
import { type CliIo, EXIT, UsageError } from './io';

/** The AR5 row, the GWP basis of the embedded EXIOBASE factors, so that the result merges over them. */
export const BUILD_DEFAULT_IMPACT = 'GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)';

/** Options of `co2e-engine datasets build`. */
export interface DatasetsBuildOptions {
  exiobase?: string;
  margins: string[];
  out: string;
  year: number;
  version?: string;
  impact: string;
  negative: 'error' | 'omit';
  force: boolean;
}

/** The `dataset` of a margins CSV, from `<name>.meta.json` beside it (the convention of `loadTableFile`). */
function marginsDataset(csv: string): DatasetInfo {
  const metaPath = join(dirname(csv), `${basename(csv, extname(csv))}.meta.json`);
  if (!statOf(metaPath)?.isFile())
    throw new DatasetError(
      csv,
      '',
      `a margins CSV needs its dataset description (id, version, source, source_dataset, licence, attribution) in ${metaPath} as {"dataset": {...}}`,
    );
  try {
    return (JSON.parse(readText(metaPath)) as { dataset: DatasetInfo }).dataset;
  } catch (error) {
    throw new DatasetError(
      metaPath,
      '',
      `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * `co2e-engine datasets build`: reads an EXIOBASE 3 release and margins CSVs, validates them whole and writes one
 * dataset file (`--out`, replaced only with `--force`, written to a temporary file and renamed) for `--datasets`
 * and `loadDatasetsFile`. Layers: the release's factors and output weights, then each margins file in order.
 *
 * @example
 * ```ts
 * await buildDatasetsFile({ exiobase: 'IOT_2019_pxp.zip', margins: [], out: 'my-data.json', year: 2019,
 *   impact: BUILD_DEFAULT_IMPACT, negative: 'error', force: false }, io);
 * ```
 */
export function buildDatasetsFile(options: DatasetsBuildOptions, io: CliIo): number {
  if (options.exiobase === undefined && options.margins.length === 0)
    throw new UsageError('datasets build needs --exiobase <IOT zip or folder>, --margins <csv>, or both.');
  if (existsSync(options.out) && !options.force)
    throw new UsageError(`--out ${options.out} exists; pass --force to replace it.`);
  const layers: DatasetTables[] = [];
  try {
    if (options.exiobase !== undefined) {
      const release = loadExiobaseRelease(options.exiobase, {
        year: options.year,
        products: defaultTables.classifications.products,
        impact: options.impact,
        negative: options.negative,
        ...(options.version === undefined ? {} : { version: options.version }),
      });
      layers.push({
        spendFactors: release.spendFactors,
        // Only the release's output weights: the concordances stay those of the base datasets.
        classifications: {
          dataset: release.spendFactors.dataset,
          product_classification: release.spendFactors.product_classification,
          products: {},
          mappings: {},
          weights: release.weights,
          weights_description: release.weightsDescription,
        },
      });
      io.stderr.write(
        `${options.exiobase}: ${release.spendFactors.factors.length} factors for ${release.regions.length} regions` +
          `${release.omitted.length > 0 ? `, ${release.omitted.length} negative multipliers left out` : ''}\n`,
      );
    }
    for (const file of options.margins) {
      const margins = loadMarginsCsv(file, {
        dataset: marginsDataset(file),
        classifications: defaultTables.classifications,
      });
      layers.push({ margins });
      io.stderr.write(`${file}: ${margins.margins.length} default margins (${margins.dataset.id})\n`);
    }
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    io.stderr.write(`co2e-engine: ${error.message}\n`);
    return EXIT.rowsFailed;
  }
  const file: DatasetsFile = { format: DATASETS_FILE_FORMAT, layers };
  const partial = join(dirname(options.out), `.${basename(options.out)}.co2e-partial`);
  try {
    writeFileSync(partial, `${JSON.stringify(file)}\n`);
    renameSync(partial, options.out);
  } finally {
    rmSync(partial, { force: true });
  }
  io.stderr.write(`wrote ${options.out}\n`);
  return EXIT.ok;
}

const negativeChoices = ['error', 'omit'] as const;

/**
 * Adds `datasets build` to the program; `done` receives the exit code.
 *
 * @example
 * ```ts
 * addDatasetsCommand(program, io, (code) => { exitCode = code; });
 * ```
 */
export function addDatasetsCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  const datasets = program.command('datasets').description('Build dataset files for --datasets.');
  datasets
    .command('build')
    .description(
      'Write one dataset file from an EXIOBASE 3 release (IOT_<year>_pxp zip or folder) and margins CSVs.',
    )
    .option('--exiobase <path>', 'EXIOBASE 3 product-by-product release, zip or unpacked folder')
    .option(
      '--margins <csv>',
      'margins CSV (region, product or classification+code, tax, trade, transport) with <name>.meta.json beside it; repeatable, a later file wins',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .requiredOption('-o, --out <file>', 'the dataset file to write (JSON)')
    .option(
      '--year <year>',
      'year of the release',
      (text) => {
        if (!/^\d{4}$/.test(text)) throw new InvalidArgumentError('--year must be a four-digit year.');
        return Number(text);
      },
      2019,
    )
    .option('--exiobase-version <version>', 'EXIOBASE version, part of every factor id (e.g. 3.8.2)')
    .option('--impact <row>', 'the impacts/M.txt row to read', BUILD_DEFAULT_IMPACT)
    .addOption(
      new Option('--negative <what>', 'negative multipliers: refuse the release, or leave them out')
        .choices(negativeChoices)
        .default('error'),
    )
    .option('--force', 'replace --out if it exists')
    .addHelpText(
      'after',
      '\nThe file merges over the embedded datasets (spend, cloud and serve take it as --datasets; the library as ' +
        "loadDatasetsFile). Its factors must have the embedded table's settings (EUR, basic price, AR5 GWP, the " +
        'factor year 2019) to merge. Exit code: 0 written, 1 when the data is refused, 2 on usage errors.',
    )
    .action(
      ({
        exiobaseVersion,
        force,
        ...flags
      }: Omit<DatasetsBuildOptions, 'force' | 'version'> & { force?: boolean; exiobaseVersion?: string }) => {
        done(
          buildDatasetsFile(
            {
              ...flags,
              force: force === true,
              ...(exiobaseVersion === undefined ? {} : { version: exiobaseVersion }),
            },
            io,
          ),
        );
      },
    );
}
