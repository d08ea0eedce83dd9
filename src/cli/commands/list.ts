import type { Command } from 'commander';
import { type Capabilities, listCapabilities } from '../../capabilities';
import type { Datasets } from '../../datasets/types';
import { closestSpellings } from '../../core/spelling';
import { coverageRows } from '../../spend/coverage';
import { REGION_ALIASES } from '../../spend/exiobase-regions';
import { type CliIo, EXIT, UsageError } from '../io';
import { datasetsOption } from './options';

/** `list regions|instances|currencies|codes|coverage [filter] [--json]`: what the datasets support. */

export const LIST_SUBJECTS = ['regions', 'instances', 'currencies', 'codes', 'coverage'] as const;
type Subject = (typeof LIST_SUBJECTS)[number];
type Row = Record<string, string>;

/** ". Did you mean: x, y?" when a valid name is close to the typed one, else "". */
const didYouMean = (valid: readonly string[], typed: string): string => {
  const close = closestSpellings(valid, typed);
  return close.length === 0 ? '' : `. Did you mean: ${close.join(', ')}?`;
};

/**
 * The rows of a subject; `filter` is a provider (regions, instances), a currency code (currencies), a classification
 * type (codes) or a spend region (coverage).
 */
function rowsOf(subject: Subject, capabilities: Capabilities, filter: string | undefined): Row[] {
  const wanted = filter?.toLowerCase();
  const providers = (capabilities.cloud?.providers ?? []).filter(
    (p) => wanted === undefined || p.provider === wanted,
  );
  switch (subject) {
    case 'regions':
      return providers.flatMap((p) =>
        p.regions.map((r) => ({
          provider: p.provider,
          region: r.region,
          aliases: r.aliases.join(' '),
          location: r.location,
          grid_zone: r.grid_zone,
          years: r.years.join(' '),
        })),
      );
    case 'instances':
      return providers.flatMap((p) => p.instances.map((instance) => ({ provider: p.provider, instance })));
    case 'currencies':
      return (capabilities.spend?.currencies ?? [])
        .filter((currency) => wanted === undefined || currency.toLowerCase() === wanted)
        .map((currency) => ({ currency }));
    case 'codes':
      return (capabilities.spend?.classifications ?? [])
        .filter((c) => wanted === undefined || c.type === wanted)
        .flatMap((c) =>
          c.codes.map((code) => ({
            classification_type: c.type,
            code: code.code,
            products: code.products.map((p) => (p.name ? `${p.product} ${p.name}` : p.product)).join('; '),
          })),
        );
    case 'coverage': // per spend region; the filter is a region
      // UK and EL are GB and GR, as in a spend request
      return coverageRows(
        capabilities.spend?.coverage ?? [],
        filter === undefined ? undefined : (REGION_ALIASES[filter.toUpperCase()] ?? filter),
      );
  }
}

/** Left-aligned columns with a header, for a terminal. */
function table(rows: readonly Row[]): string {
  const first = rows[0];
  if (first === undefined) return '';
  const columns = Object.keys(first);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] as number)))
      .join('  ')
      .trimEnd();
  return (
    [line(columns), ...rows.map((row) => line(columns.map((column) => row[column] ?? '')))].join('\n') + '\n'
  );
}

/**
 * Writes the list: a table, or a JSON array of objects with `--json`.
 *
 * @throws {@link UsageError} for an unknown subject, or a filter that matches nothing (naming the valid ones).
 */
export function runList(
  subject: string,
  filter: string | undefined,
  json: boolean,
  datasets: Datasets,
  io: CliIo,
): number {
  if (!(LIST_SUBJECTS as readonly string[]).includes(subject))
    throw new UsageError(
      `cannot list '${subject}'${didYouMean(LIST_SUBJECTS, subject)}; choose one of ${LIST_SUBJECTS.join(', ')}.`,
    );
  const capabilities = listCapabilities(datasets);
  const rows = rowsOf(subject as Subject, capabilities, filter);
  if (rows.length === 0 && filter !== undefined) {
    const valid =
      subject === 'codes'
        ? (capabilities.spend?.classifications ?? []).map((c) => c.type)
        : subject === 'coverage'
          ? (capabilities.spend?.regions ?? [])
          : subject === 'currencies'
            ? (capabilities.spend?.currencies ?? [])
            : (capabilities.cloud?.providers ?? []).map((p) => p.provider);
    throw new UsageError(
      `no ${subject} for '${filter}'${didYouMean(valid, filter)}; valid: ${valid.join(', ')}.`,
    );
  }
  io.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
  return EXIT.ok;
}

/** Adds `list` to the program; `setExitCode` receives the command's exit code. */
export function addListCommand(
  program: Command,
  datasets: (specs: readonly string[]) => Datasets,
  io: CliIo,
  setExitCode: (code: number) => void,
) {
  program
    .command('list <subject> [filter]')
    .description(
      'List what is supported: regions [provider], instances [provider], currencies [code], codes [classification type], coverage [spend region].',
    )
    .option('--json', 'print a JSON array instead of a table')
    // What a run with the same `--datasets` supports (a preset's regions, a dataset file's codes), as serve,
    // spend, cloud and billing read them.
    .addOption(datasetsOption())
    .action((subject: string, filter: string | undefined, flags: { json?: boolean; datasets: string[] }) => {
      setExitCode(runList(subject, filter, flags.json === true, datasets(flags.datasets), io));
    });
}
