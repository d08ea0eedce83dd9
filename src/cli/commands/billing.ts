import { type Command, Option } from 'commander';
import {
  addToRatios,
  BILLING_COLUMNS,
  BILLING_FORMATS,
  type BillingEstimator,
  type BillingFormat,
  type BillingColumns,
  createBillingEstimator,
  createBillingSummary,
  detectBillingFormat,
  formatColumns,
  newCostRatios,
  parseGroupBy,
  rowHeader,
} from '../../billing/index';
import { EmissionsError } from '../../core/errors';
import { billingRows, billingSummaryOf, numberTexts, unnestedCells } from '../adapters/billing';
import { type Delimiter, parseRecords } from '../formats/csv/reader';
import { readRecords } from '../formats/records';
import { pointDecimals } from '../adapters/cells';
import { type CliIo, UsageError } from '../io';
import { cloudCalculatorsOf, datasetSources } from '../pipeline/ledger-summary';
import type { FileCommandOptions } from '../pipeline/run-file';
import type { RowTally } from '../pipeline/row-adapter';
import { outputFormatOf, readOutputRows } from '../pipeline/read-back';
import { readsDecimalCommas } from '../pipeline/reading';
import { errorCode, fileBytes, inputFileSize } from '../pipeline/streams';
import type { Summarise } from '../pipeline/side-files';
import { cliDatasets } from './datasets-flag';
import { collect } from './options';

/**
 * `co2e-engine billing FILE`: a cloud bill (FOCUS, AWS CUR, GCP or Azure export) through the row pipeline with the
 * billing adapter (adapters/billing.ts). Its own options: `--export-format` (else detected from the header),
 * `--unknown cost-ratio` (a first pass over the file finds the kg per cost of the estimated rows; then the rows are
 * computed in the main thread). Its `--summary FILE` is the bill's own summary (src/billing/summary.ts), built as the
 * rows are computed (the adapter's tally), or read back from `--out` when the tally does not hold every row (a record
 * that could not be read, a resumed partial saved without one).
 */

interface BillingFlags {
  out?: string;
  format?: string;
  inputFormat?: string;
  datasets: string[];
  exportFormat?: BillingFormat;
  unknown?: 'off' | 'cost-ratio';
  groupBy: string[];
}

const HELP = `
Input: a billing export, detected from its header (or --export-format): FOCUS 1.0-1.2 (AWS, Azure, Google Cloud,
Oracle), AWS CUR (legacy lineItem/... and CUR 2.0 line_item_...), the GCP BigQuery billing export (CSV with dotted
or underscored names, or JSON Lines), Azure cost details. CSV and JSON Lines may be gzipped
(.csv.gz, .jsonl.gz), in and out (--out x.csv.gz is written gzipped).
Output: every input column unchanged, then co2e_status (estimated | not_estimated), co2e_reason (the reason code,
or the conversions applied), co2e_kg, co2e_kwh, co2e_calculator, co2e_activity_value, co2e_activity_unit,
co2e_factor_id. One output row per input row. A summary goes to stderr; --summary writes it as JSON.
--out is written atomically and can be continued with --resume, as for spend and cloud. See docs/billing.md.
Exit code: 0 when every record was read (rows not estimated are not failures), 1 when a record could not be
read, 2 on usage errors (a header of no supported format, or with none of --export-format's columns, stops before
--out is written), 130 when interrupted.
--group-by resource|tag:KEY|account|service|region|month (repeatable) adds totals per value to the end report and
to --summary (tags: FOCUS Tags, CUR resourceTags/user:KEY, Azure Tags, GCP labels).`;

/** How `readRows` reads a CSV file: its delimiter (else detected), and decimal commas (else on for a `;` file). */
interface CsvReading {
  delimiter?: Delimiter;
  decimalComma?: boolean;
}

/**
 * The export's records as row objects, for the passes before and after the pipeline. `only`, given a CSV file's
 * header, may name the columns to keep: the rows then hold those alone (a summary reads a few of a wide export's).
 */
async function* readRows(
  file: string,
  format: string,
  reading: CsvReading = {},
  only?: (header: readonly string[]) => readonly string[] | undefined,
): AsyncGenerator<Record<string, unknown>> {
  if (format === 'jsonl' || format === 'parquet') {
    // Read as the pipeline reads its output back; numbers kept as text read as the adapter reads them.
    for await (const values of readOutputRows(file, format)) yield numberTexts(values);
    return;
  }
  try {
    const source = await readRecords(fileBytes(file), 'csv', {
      ...(reading.delimiter !== undefined && { delimiter: reading.delimiter }),
    });
    const decimalComma = reading.decimalComma ?? source.delimiter === ';';
    const { header } = source;
    const kept = only?.(header);
    const wanted = kept === undefined ? undefined : new Set(kept);
    // The positions read, in header order (a repeated name: the last one wins, as when every column is read).
    const positions = header.flatMap((name, index) =>
      wanted === undefined || wanted.has(name) ? [index] : [],
    );
    // A source batch at a time: its unquoted records split in place, its quoted ones in one csv-parse call
    // (parseRecords), where a csv-parse call per record cost most of a --summary read-back.
    for (let next = await source.batches.next(); next.done !== true; next = await source.batches.next()) {
      const texts = next.value.filter(
        (record): record is { line: number; text: string } => record.text !== undefined,
      );
      for (const record of parseRecords(texts, source.delimiter)) {
        if ('error' in record || record.fields.length !== header.length) continue;
        const values: Record<string, unknown> = {};
        for (const index of positions) values[header[index]!] = record.fields[index];
        yield decimalComma ? pointDecimals(values) : values;
      }
    }
  } catch (error) {
    // A file that cannot be read or a gzip that is not whole: the user's input, said in words (exit 2).
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
}

/**
 * A usage error when a forced `--export-format` finds none of its columns in the header (every row would be
 * `unknown_usage_type`, quietly), naming them and the format the header reads as. A nested export written as CSV
 * (JSON text cells) is checked as its JSON Lines form.
 */
function refuseForeignHeader(exportFormat: BillingFormat, values: Record<string, unknown>): void {
  const headers = [rowHeader(values), rowHeader(unnestedCells(values))];
  const columns = headers.map((header) => formatColumns(exportFormat, header));
  if (columns.some(({ found }) => found)) return;
  const detected = headers.map((header) => detectBillingFormat(header)).find((id) => id !== undefined);
  throw new UsageError(
    `--export-format ${exportFormat}: the header has none of its columns (${columns[0]!.names.join(', ')}); ${detected === undefined ? 'it reads as no billing export format' : `it reads as ${detected}`}.`,
  );
}

/** The estimator of a file's header, or a usage error naming the formats. */
function estimatorFor(
  datasets: ReturnType<typeof cliDatasets>,
  values: Record<string, unknown>,
  exportFormat: BillingFormat | undefined,
  groupBy: readonly string[] = [],
): BillingEstimator {
  const options = {
    ...(exportFormat !== undefined && { format: exportFormat }),
    ...(groupBy.length > 0 && { groupBy }),
  };
  if (exportFormat !== undefined) refuseForeignHeader(exportFormat, values);
  try {
    return createBillingEstimator(datasets, rowHeader(values), options);
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    // A nested export written as CSV (our own output of a GCP JSON Lines file) matches once its JSON cells are read.
    const unnested = unnestedCells(values);
    if (unnested !== values) {
      try {
        return createBillingEstimator(datasets, rowHeader(unnested), options);
      } catch {
        // the first error says why
      }
    }
    throw new UsageError(`${error.message} (--export-format ${BILLING_FORMATS.join('|')})`);
  }
}

/**
 * The file's first row checked against the formats before anything is written: a header of no supported format is
 * a usage error (exit 2) and `--out` is not created. Returns the estimator, or undefined for an empty file or stdin.
 */
async function checkHeader(
  file: string,
  inputFormat: string,
  datasets: ReturnType<typeof cliDatasets>,
  flags: BillingFlags,
): Promise<{ estimator: BillingEstimator; first: Record<string, unknown> } | undefined> {
  if (file === '-') return undefined;
  for await (const values of readRows(file, inputFormat))
    return { estimator: estimatorFor(datasets, values, flags.exportFormat, flags.groupBy), first: values };
  return undefined;
}

const number = (value: unknown): number | null =>
  value === null || value === undefined || value === '' ? null : Number(String(value));

/**
 * The summary, read back from the output file the run wrote (its co2e columns and its input columns): when the run's
 * tally does not hold every row, and the reference the tally is tested against. `nested`: the input was JSON Lines
 * and the output is not, so nested values (a GCP export's `service`, `location`) are JSON text in the output and are
 * parsed back.
 *
 * @example
 * ```ts
 * const summary = await readBackBillingSummary('out.csv', 'csv', datasets, undefined, false, [], false);
 * ```
 */
export async function readBackBillingSummary(
  out: string,
  format: string,
  datasets: ReturnType<typeof cliDatasets>,
  exportFormat: BillingFormat | undefined,
  nested: boolean,
  groupBy: readonly string[],
  decimalComma: boolean,
) {
  let estimator: BillingEstimator | undefined;
  let summary: ReturnType<typeof createBillingSummary> | undefined;
  // A flat CSV output is read for the columns the estimator reads and the appended ones alone: the estimator comes
  // from the whole header (as from a whole first row), so the facts are those of the whole rows.
  const only = (header: readonly string[]): readonly string[] | undefined => {
    if (nested) return undefined;
    try {
      estimator = createBillingEstimator(datasets, header, {
        ...(exportFormat !== undefined && { format: exportFormat }),
        ...(groupBy.length > 0 && { groupBy }),
      });
    } catch {
      return undefined; // the header matches no format as it is: rows are read whole, and estimatorFor says why
    }
    return [...estimator.reads, ...BILLING_COLUMNS];
  };
  // The output's own columns are written with points; its pass-through columns as the input had them.
  for await (const read of readRows(out, format, { decimalComma }, only)) {
    const values = nested ? unnestedCells(read) : read;
    estimator ??= estimatorFor(datasets, values, exportFormat, groupBy);
    summary ??= createBillingSummary(estimator.format, { groupBy, missing: estimator.missing });
    // The appended columns alone (the summary reads no other); the facts come from the row as read.
    const row: BillingColumns = {
      co2e_status: values.co2e_status === 'estimated' ? 'estimated' : 'not_estimated',
      co2e_reason: String(values.co2e_reason ?? ''),
      co2e_kg: number(values.co2e_kg),
      co2e_kwh: number(values.co2e_kwh),
      co2e_calculator:
        values.co2e_calculator === '' || values.co2e_calculator == null
          ? null
          : String(values.co2e_calculator),
      co2e_activity_value: number(values.co2e_activity_value),
      co2e_activity_unit: values.co2e_activity_unit == null ? null : String(values.co2e_activity_unit),
      co2e_factor_id: values.co2e_factor_id == null ? null : String(values.co2e_factor_id),
    };
    summary.add(row, estimator.factsOf(values));
  }
  return (summary ?? createBillingSummary(exportFormat ?? 'unknown', { groupBy })).result();
}

/** A currency's share estimated as `percent` writes it, or `unknown` when some of its costs could not be read. */
const unreadableOr = (
  cost: { share_estimated: number | null; unreadable_rows: number },
  percent: (value: number | null) => string,
): string => (cost.unreadable_rows > 0 ? 'unknown' : percent(cost.share_estimated));

/** The `billing` entry of FILE_COMMANDS (commands/file.ts). */
export const billingCommand = {
  name: 'billing',
  description:
    'Estimate every line of a cloud bill: FOCUS, AWS CUR (legacy, 2.0), GCP or Azure export (CSV, CSV.gz, JSON Lines, Parquet).',
  help: HELP,
  adapter: 'billing' as const,
  configure(command: Command) {
    command
      .addOption(
        new Option(
          '--export-format <format>',
          'the billing export format (default: detected from the header)',
        ).choices(BILLING_FORMATS),
      )
      .addOption(
        new Option(
          '--unknown <mode>',
          'cost-ratio: estimate unknown usage from the kg per cost of the estimated rows of its category (CCF); labelled per row',
        )
          .choices(['off', 'cost-ratio'])
          .default('off'),
      )
      .addOption(
        new Option(
          '--group-by <key>',
          'totals per resource, tag:KEY, account, service, region or month (repeatable), in the report and --summary',
        )
          .argParser(collect)
          .default([]),
      );
  },
  async prepare(file: string, rawFlags: Record<string, unknown>, options: FileCommandOptions, io: CliIo) {
    const flags = rawFlags as unknown as BillingFlags;
    const inputFormat = options.inputFormat ?? outputFormatOf(file);
    if (flags.unknown === 'cost-ratio' && file === '-')
      throw new UsageError('--unknown cost-ratio reads the file twice: give a file, not stdin.');
    // The header is read here, before the pipeline's own checks: a missing file is a usage error, not a crash.
    if (file !== '-') await inputFileSize(file);
    try {
      parseGroupBy(flags.groupBy);
    } catch (error) {
      throw new UsageError(`--group-by: ${(error as Error).message}`);
    }
    const datasets = cliDatasets(flags.datasets);
    const checked = await checkHeader(file, inputFormat, datasets, flags);
    // What the file lacked, for the provider of its first row (the --summary lists it for every provider seen).
    const provider = checked?.estimator.factsOf(checked.first).provider;
    for (const missing of checked?.estimator.missing ?? [])
      if (missing.provider === undefined || missing.provider === provider)
        io.stderr.write(`co2e-engine billing: ${missing.text}\n`);
    const reading: CsvReading = {
      ...(options.delimiter !== undefined && { delimiter: options.delimiter }),
      ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
    };
    let adapter;
    if (flags.unknown === 'cost-ratio') {
      const ratios = newCostRatios();
      let estimator: BillingEstimator | undefined;
      for await (const values of readRows(file, inputFormat, reading)) {
        estimator ??= estimatorFor(datasets, values, flags.exportFormat);
        const { row, facts } = estimator.estimate(values);
        addToRatios(ratios, row, facts);
      }
      adapter = billingRows(datasets, {
        ratios,
        ...(flags.exportFormat !== undefined && { exportFormat: flags.exportFormat }),
        ...(flags.groupBy.length > 0 && { groupBy: flags.groupBy }),
      });
    } else if (flags.exportFormat !== undefined || flags.groupBy.length > 0) {
      adapter = billingRows(datasets, {
        ...(flags.exportFormat !== undefined && { exportFormat: flags.exportFormat }),
        ...(flags.groupBy.length > 0 && { groupBy: flags.groupBy }),
      });
    }
    // The summary (kg by provider, service, region, account; cost share; reasons), built as the rows are computed.
    let tally: RowTally | undefined;
    if (rawFlags.summary !== undefined || rawFlags.report !== undefined)
      options.tallied = (kept) => (tally = kept);
    const summarise: Summarise = async (out) => {
      const outFormat = options.format ?? outputFormatOf(out);
      const summary =
        (tally === undefined ? undefined : billingSummaryOf(tally, flags.groupBy, flags.exportFormat)) ??
        (await readBackBillingSummary(
          out,
          outFormat,
          datasets,
          flags.exportFormat,
          inputFormat === 'jsonl' && outFormat !== 'jsonl',
          flags.groupBy,
          await readsDecimalCommas(file, inputFormat, reading),
        ));
      const { share_estimated: share, unreadable_rows: unreadable, currencies } = summary.cost;
      const percent = (value: number | null) =>
        value === null ? 'no cost' : `${(value * 100).toFixed(1)} %`;
      return {
        summary,
        line:
          currencies.length > 1
            ? `costs in ${currencies.length} currencies: ${currencies.map((code) => `${code} ${unreadableOr(summary.cost.by_currency[code]!, percent)}`).join(', ')} of cost estimated`
            : unreadable > 0
              ? `share of cost estimated unknown: ${unreadable} ${unreadable === 1 ? 'line has a cost' : 'lines have a cost'} that is not a plain number`
              : `${share === null ? 'no cost' : `${(share * 100).toFixed(1)} % of cost`} estimated`,
        sources: datasetSources(datasets, cloudCalculatorsOf(Object.keys(summary.by_calculator))),
      };
    };
    return { ...(adapter !== undefined && { adapter }), summarise };
  },
};
