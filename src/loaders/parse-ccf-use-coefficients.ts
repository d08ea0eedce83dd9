import { type Decimal, add, compare, decimal, div, isNegative, sum, toNumber } from '../core/decimal';
import { DatasetError } from '../datasets/errors';
import { decimalCell } from './cells';
import { readCsvRecords } from './csv';
import { Problems } from './problems';
import { failAt } from './text';

/** Options of {@link parseCcfUseCoefficients}. */
export interface CcfUseCoefficientsOptions {
  /** File name for error messages (default `coefficients-use.csv`). */
  file?: string;
  /**
   * How the architectures' watts become one provider figure: `mean` (default; what CCF calls `*_WATTS_AVG`) or
   * `median` (CCF uses the median for GCP).
   */
  average?: 'mean' | 'median';
  /** Only these architectures (as named in the file), e.g. the ones your fleet runs on. Default: every row. */
  architectures?: readonly string[];
}

/** Provider-average watts per vCPU, and the architectures they were taken over. */
export interface CcfUseWatts {
  /** Watts per vCPU at idle. */
  min_watts: number;
  /** Watts per vCPU at 100 % utilisation. */
  max_watts: number;
  architectures: string[];
  average: 'mean' | 'median';
}

function average(values: Decimal[], how: 'mean' | 'median'): Decimal {
  if (how === 'mean') return div(sum(values), decimal(values.length));
  const sorted = [...values].sort(compare);
  const middle = Math.floor(sorted.length / 2);
  // The caller refuses a file without rows, so `middle` is in range.
  if (sorted.length % 2 === 1) return sorted[middle]!;
  return div(add(sorted[middle - 1]!, sorted[middle]!), decimal(2));
}

/**
 * Provider-average min and max watts per vCPU from a ccf-coefficients `coefficients-<provider>-use.csv` (columns
 * `Architecture`, `Min Watts`, `Max Watts`, per architecture), exact decimal mean or median over the rows. Use it
 * to set `min_watts`/`max_watts` of a cloud coefficients table from newer SPECpower results.
 *
 * Note: the figures CCF's own app uses (AWS 0.74/3.5) are averages over the processors of each provider's instance
 * list, not over the rows of this file, so they differ from what this returns for the same file.
 *
 * @example
 * ```ts
 * import { parseCcfUseCoefficients } from 'co2e-engine/loaders';
 * const watts = parseCcfUseCoefficients(awsUseCsv, { file: 'coefficients-aws-use.csv', average: 'median' });
 * const coefficients = { ...table, providers: { ...table.providers,
 *   aws: { ...table.providers.aws!, min_watts: watts.min_watts, max_watts: watts.max_watts } } };
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a missing column, a value that is not a non-negative
 *   number, an unknown architecture in `architectures`, or no rows at all.
 */
export function parseCcfUseCoefficients(text: string, options: CcfUseCoefficientsOptions = {}): CcfUseWatts {
  const file = options.file ?? 'coefficients-use.csv';
  const how = options.average ?? 'mean';
  const records = readCsvRecords(text, file);
  const header = Object.keys(records[0]?.record ?? {});
  for (const column of ['Architecture', 'Min Watts', 'Max Watts']) {
    if (records.length > 0 && !header.includes(column))
      throw new DatasetError(file, 'line 1', `missing column ${JSON.stringify(column)}`, { line: 1 });
  }
  const wanted = options.architectures === undefined ? undefined : new Set(options.architectures);
  const available = records.map(({ record }) => (record.Architecture ?? '').trim());
  for (const name of wanted ?? []) {
    if (!available.includes(name))
      throw new DatasetError(
        file,
        '',
        `no architecture ${JSON.stringify(name)}; the file has ${available.join(', ')}`,
      );
  }
  const problems = new Problems(file);
  const min: Decimal[] = [];
  const max: Decimal[] = [];
  const used: string[] = [];
  for (const { line, record } of records) {
    const name = (record.Architecture ?? '').trim();
    if (wanted !== undefined && !wanted.has(name)) continue;
    for (const [column, list] of [
      ['Min Watts', min],
      ['Max Watts', max],
    ] as const) {
      const position = { line, column: header.indexOf(column) + 1, columnName: column };
      const cell = decimalCell(record[column] ?? '', position, `${column}:`, problems);
      if (cell === undefined)
        problems.throwIfAny(); // the first bad cell stops the file, as every check here does
      else if (isNegative(cell.value))
        failAt(file, position, `${column}: ${toNumber(cell.value)} is negative`);
      else list.push(cell.value);
    }
    used.push(name);
  }
  if (used.length === 0) throw new DatasetError(file, '', 'no architecture rows to average');
  return {
    min_watts: toNumber(average(min, how)),
    max_watts: toNumber(average(max, how)),
    architectures: used,
    average: how,
  };
}
