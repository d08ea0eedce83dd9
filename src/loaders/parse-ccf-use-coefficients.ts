import { type Decimal, add, compare, decimal, div, sum, toNumber } from '../core/decimal';
import { DatasetError } from '../datasets/errors';
import { readCsvRecords } from './csv';
import { readNumber } from './text';

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
  if (sorted.length % 2 === 1) return sorted[middle] as Decimal;
  return div(add(sorted[middle - 1] as Decimal, sorted[middle] as Decimal), decimal(2));
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
      const cell = record[column] ?? '';
      const result = readNumber(cell);
      const position = { line, column: header.indexOf(column) + 1, columnName: column };
      const where = `line ${line}, column ${position.column} (${column})`;
      if ('problem' in result) throw new DatasetError(file, where, `${column}: ${result.problem}`, position);
      if (result.value < 0)
        throw new DatasetError(file, where, `${column}: ${result.value} is negative`, position);
      list.push(decimal(cell.trim()));
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
