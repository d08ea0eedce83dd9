import { type Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DatasetTables } from '../../datasets/create';
import { DatasetError } from '../../datasets/errors';
import { defaultTables } from '../../embedded/index';
import type { DatasetInfo } from '../../datasets/tables';
import { DATASETS_FILE_FORMAT, type DatasetsFile } from '../../loaders/parse-datasets-file';
import type { MarginsTable } from '../../datasets/tables';
import { parseMarginsCsv } from '../../loaders/parse-margins-csv';
import { detectMarginsFormat, type MarginsFormat, parseNaioMargins } from '../../loaders/parse-naio-margins';
import { loadExiobaseMargins } from '../../node/load-exiobase-margins';
import { loadExiobaseRelease } from '../../node/load-exiobase-release';
import { readEurostatText } from '../../node/load-naio-margins';
import { readText, statOf } from '../../node/files';
import { type CliIo, EXIT, UsageError } from '../io';
import type { DatasetsBuildOptions } from './datasets-build-options';
import { buildCedaDatasetsFile } from './datasets-ceda';
import { writeDatasetsFile } from './write-datasets-file';
import { addDatasetsFetchCommand } from './datasets-fetch';
import { fourDigitYear, fraction, negativeOption } from './options';

/** The AR5 row, the GWP basis of the embedded EXIOBASE factors, so that the result merges over them. */
export const BUILD_DEFAULT_IMPACT = 'GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)';

/** `<name>.meta.json` beside a margins file (`name.tsv.gz` → `name.meta.json`). */
const metaPathOf = (file: string) =>
  join(dirname(file), `${basename(file).replace(/(\.[^.]+)?(\.gz)?$/, '')}.meta.json`);

/**
 * The `dataset` of a margins file, from `<name>.meta.json` beside it (the convention of `loadTableFile`): required
 * for a plain CSV, optional overrides for a Eurostat file (which names its own dataset).
 */
function marginsDataset(csv: string, required: boolean): DatasetInfo | undefined {
  const metaPath = metaPathOf(csv);
  if (!statOf(metaPath)?.isFile()) {
    if (!required) return undefined;
    throw new DatasetError(
      csv,
      '',
      `a margins CSV needs its dataset description (id, version, source, source_dataset, licence, attribution) in ${metaPath} as {"dataset": {...}}`,
    );
  }
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
 * `co2e-engine datasets build`: reads an EXIOBASE 3 release and margins (plain CSV, Eurostat naio_10_cp15 TSV or
 * SDMX-CSV, EXIOBASE MR-SUT valuation layers), validates them whole and writes one dataset file (`--out`, replaced
 * only with `--force`, written to a temporary file and renamed) for `--datasets` and `loadDatasetsFile`. Layers:
 * the release's factors and output weights, the EXIOBASE margins, then each `--margins` file in order (a later
 * one wins per region and product).
 *
 * @example
 * ```ts
 * await buildDatasetsFile({ exiobase: 'IOT_2019_pxp.zip', margins: [], out: 'my-data.json', year: 2019,
 *   impact: BUILD_DEFAULT_IMPACT, negative: 'error', force: false }, io);
 * ```
 */
export function buildDatasetsFile(options: DatasetsBuildOptions, io: CliIo): number {
  if (options.exiobase === undefined && options.exiobaseMargins === undefined && options.margins.length === 0)
    throw new UsageError(
      'datasets build needs --exiobase <IOT zip or folder>, --margins <file>, --exiobase-margins <MRSUT zip or folder>, or several.',
    );
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
    if (options.exiobaseMargins !== undefined) {
      const read = loadExiobaseMargins(options.exiobaseMargins, {
        year: options.year,
        products: defaultTables.classifications.products,
        ...(options.version === undefined ? {} : { version: options.version }),
      });
      layers.push({ margins: read.margins });
      io.stderr.write(
        `${options.exiobaseMargins}: ${read.margins.margins.length} default margins for ${read.regions.length} regions (${read.margins.dataset.id})` +
          `${read.notPurchased.length > 0 ? `; ${read.notPurchased.length} (region, product) bought by no industry, without margins` : ''}` +
          `${read.marginProducts.length > 0 ? `; trade or transport margin 0 for margin products ${read.marginProducts.map((each) => `${each.region} ${each.product}`).join(', ')}` : ''}` +
          `${read.noBasicPrice.length > 0 ? `; margins leaving no basic price, left out: ${read.noBasicPrice.map((each) => `${each.region} ${each.product}`).join(', ')}` : ''}\n`,
      );
    }
    for (const file of options.margins) {
      const margins = readMarginsFile(file, options, io);
      layers.push({ margins });
    }
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    io.stderr.write(`co2e-engine: ${error.message}\n`);
    return EXIT.rowsFailed;
  }
  const file: DatasetsFile = { format: DATASETS_FILE_FORMAT, layers };
  return writeDatasetsFile(options.out, file, io);
}

/** One `--margins` file in its format (detected from its header unless `--margins-format` says). */
function readMarginsFile(file: string, options: DatasetsBuildOptions, io: CliIo): MarginsTable {
  const text = readEurostatText(file);
  const detected = detectMarginsFormat(text);
  if (options.marginsFormat !== undefined && detected !== undefined && detected !== options.marginsFormat)
    throw new DatasetError(
      file,
      'line 1',
      `--margins-format is ${options.marginsFormat}, but the header is that of ${detected}`,
      {
        line: 1,
      },
    );
  const format = options.marginsFormat ?? detected;
  if (format === undefined)
    throw new DatasetError(
      file,
      'line 1',
      'cannot tell the format from the header: a plain margins CSV (region, product or classification+code, tax, trade, transport), Eurostat naio_10_cp15 TSV or SDMX-CSV; or pass --margins-format',
      { line: 1 },
    );
  if (format === 'csv') {
    const margins = parseMarginsCsv(text, {
      file,
      dataset: marginsDataset(file, true) as DatasetInfo,
      classifications: defaultTables.classifications,
    });
    io.stderr.write(`${file}: ${margins.margins.length} default margins (${margins.dataset.id})\n`);
    return margins;
  }
  if (options.tradeShare === undefined)
    throw new UsageError(
      `${file} is Eurostat naio_10_cp15, which gives trade and transport margins combined (OTTM): pass --trade-share <0..1>, the part of them that is trade margin (1: all of it).`,
    );
  const dataset = marginsDataset(file, false);
  const read = parseNaioMargins(text, {
    file,
    year: options.marginsYear ?? options.year,
    tradeShare: options.tradeShare,
    classifications: defaultTables.classifications,
    inconsistent: options.marginsInconsistent ?? 'error',
    ...(dataset === undefined ? {} : { dataset }),
  });
  const counts = new Map<string, number>();
  for (const each of read.leftOut) counts.set(each.reason, (counts.get(each.reason) ?? 0) + 1);
  io.stderr.write(
    `${file}: ${read.margins.margins.length} default margins for ${read.regions.join(' ') || 'no region'} (${read.margins.dataset.id}@${read.margins.dataset.version}, trade share ${options.tradeShare})` +
      `${counts.size > 0 ? `; CPA products left out: ${[...counts].map(([reason, count]) => `${count} ${reason.replace('_', ' ')}`).join(', ')}` : ''}` +
      `${read.aggregateGeos.length > 0 ? `; not countries, left out: ${read.aggregateGeos.join(' ')}` : ''}` +
      `${read.marginProducts.length > 0 ? `; trade and transport 0 for margin products ${read.marginProducts.map((each) => `${each.region} ${each.product}`).join(', ')}` : ''}` +
      `${read.noBasicPrice.length > 0 ? `; margins leaving no basic price, left out: ${read.noBasicPrice.map((each) => `${each.region} ${each.product}`).join(', ')}` : ''}\n`,
  );
  return read.margins;
}

const marginsFormats: MarginsFormat[] = ['csv', 'naio-tsv', 'naio-sdmx-csv'];

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
      'Write one dataset file from an EXIOBASE 3 release (IOT_<year>_pxp zip or folder) and margins (plain CSV, Eurostat naio_10_cp15, EXIOBASE valuation layers).',
    )
    .option('--exiobase <path>', 'EXIOBASE 3 product-by-product release, zip or unpacked folder')
    .option(
      '--ceda <file.xlsx>',
      "the publisher's Open CEDA workbook (2024 layout), read at full precision; use the file with --datasets ceda --datasets FILE",
    )
    .option(
      '--ceda-sheet <name>',
      '--ceda: the sheet with the factor grid (default: the one with a Country Code header)',
    )
    .option(
      '--margins <file>',
      'margins: a plain CSV (region, product or classification+code, tax, trade, transport) with <name>.meta.json beside it, or Eurostat naio_10_cp15 as TSV or SDMX-CSV (plain or .gz; needs --trade-share); repeatable, a later file wins',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .addOption(
      new Option(
        '--margins-format <format>',
        'format of the --margins files (default: from each header)',
      ).choices(marginsFormats),
    )
    .option(
      '--trade-share <fraction>',
      'naio_10_cp15 gives trade and transport margins combined: the part that is trade (0 to 1; 1 puts all in trade)',
      fraction('--trade-share'),
    )
    .option(
      '--margins-year <year>',
      'naio_10_cp15: the year to read (default --year)',
      fourDigitYear('--margins-year'),
    )
    .addOption(
      new Option(
        '--margins-inconsistent <what>',
        'naio_10_cp15 rows where TS_PP is not TS_BP + D21X31 + OTTM: refuse the file, or leave them out',
      )
        .choices(['error', 'omit'])
        .default('error'),
    )
    .option(
      '--exiobase-margins <path>',
      'EXIOBASE MR-SUT release with valuation layers (MRSUT_<year>.zip or folder: use.csv, trade_margins.csv, transport_margins.csv, taxes_less_subsidies.csv)',
    )
    .requiredOption('-o, --out <file>', 'the dataset file to write (JSON)')
    .option('--year <year>', 'year of the release', fourDigitYear('--year'), 2019)
    .option('--exiobase-version <version>', 'EXIOBASE version, part of every factor id (e.g. 3.8.2)')
    .option('--impact <row>', 'the impacts/M.txt row to read', BUILD_DEFAULT_IMPACT)
    .addOption(negativeOption())
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
        ceda,
        cedaSheet,
        ...flags
      }: Omit<DatasetsBuildOptions, 'force' | 'version'> & {
        force?: boolean;
        exiobaseVersion?: string;
        ceda?: string;
        cedaSheet?: string;
      }) => {
        if (ceda !== undefined) {
          if (flags.exiobase !== undefined || flags.exiobaseMargins !== undefined || flags.margins.length > 0)
            throw new UsageError(
              '--ceda builds a file of its own: give it without --exiobase and --margins.',
            );
          return buildCedaDatasetsFile(
            {
              ceda,
              out: flags.out,
              force: force === true,
              ...(cedaSheet === undefined ? {} : { cedaSheet }),
            },
            io,
          ).then(done);
        }
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
  // `datasets fetch exiobase` ends in this command's build, passed in (so that file does not import this one).
  addDatasetsFetchCommand(datasets, io, done, {
    build: buildDatasetsFile,
    defaultImpact: BUILD_DEFAULT_IMPACT,
  });
}
