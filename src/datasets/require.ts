import { EmissionsError } from '../core/errors';
import type { Datasets } from './types';

/**
 * What each calculator reads from the datasets. Every calculator declares its parts ({@link CalculatorDatasets})
 * and checks them first with {@link requireParts}, so a missing part is one clear error naming the calculator and
 * the part, rather than a TypeError deep inside a calculation; a part no calculator of the app reads need not be
 * loaded at all (a CPU-only app leaves out the instance table).
 */

/** A part of {@link Datasets}: `cloudCoefficients`, `cloudRegions`, `cloudInstances`, `spendFactors`, … */
export type DatasetPart = keyof Datasets;

/** A calculator's name and the dataset parts it reads. */
export interface CalculatorDatasets<P extends DatasetPart = DatasetPart> {
  readonly calculator: string;
  readonly parts: readonly P[];
}

/** `datasets` with `P` known to be there. */
export type WithParts<D extends Datasets, P extends DatasetPart> = D & {
  [K in P]-?: NonNullable<Datasets[K]>;
};

/** Where to get a part that apps often leave out on purpose. */
const PART_HINTS: Partial<Record<DatasetPart, string>> = {
  cloudInstances:
    "the instance table: cloudDatasetsWith({ grid, instances: cloudInstancesTable }), with cloudInstancesTable from 'co2e-engine/datasets/cloud/instances'",
};

const quoted = (parts: readonly string[]) => parts.map((part) => `'${part}'`).join(', ');

/**
 * Checks that `datasets` has every part in `parts`, which `calculator` reads.
 *
 * @throws {@link EmissionsError} `missing_dataset` (status 500: the datasets, not the request, are wrong), naming the
 *   calculator and the missing parts, with `path` `datasets.<part>` (the first missing one) and `valid_values`
 *   the missing parts.
 *
 * @example
 * ```ts
 * requireParts(datasets, ['cloudCoefficients', 'cloudInstances'], 'calculateEmbodied');
 * // EmissionsError missing_dataset: "calculateEmbodied needs the dataset part 'cloudInstances', which these
 * // datasets lack (the instance table: cloudDatasetsWith({ grid, instances: cloudInstancesTable }), …)."
 * ```
 */
export function requireParts<D extends Datasets, P extends DatasetPart>(
  datasets: D,
  parts: readonly P[],
  calculator: string,
): asserts datasets is WithParts<D, P> {
  if (typeof datasets !== 'object' || datasets === null) {
    throw new EmissionsError(
      'missing_dataset',
      `${calculator} needs a datasets object with ${quoted(parts)}; got ${datasets === null ? 'null' : typeof datasets}.`,
      { path: 'datasets', valid_values: parts, status: 500 },
    );
  }
  // An index loop: this runs once per request, and an array iterator allocates where it is not optimised away.
  let missing: P[] | undefined;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as P;
    if (datasets[part] === undefined) (missing ??= []).push(part);
  }
  if (missing === undefined) return;
  const hints = missing.flatMap((part) => PART_HINTS[part] ?? []);
  throw new EmissionsError(
    'missing_dataset',
    `${calculator} needs the dataset part${missing.length > 1 ? 's' : ''} ${quoted(missing)}, which these datasets lack${
      hints.length > 0 ? ` (${hints.join('; ')})` : ''
    }.`,
    { path: `datasets.${missing[0]}`, valid_values: missing, status: 500 },
  );
}

/**
 * {@link requireParts} with a calculator's declaration.
 *
 * @example
 * ```ts
 * requireDatasets(datasets, EMBODIED_DATASETS); // { calculator: 'calculateEmbodied', parts: [...] }
 * ```
 */
export function requireDatasets<D extends Datasets, P extends DatasetPart>(
  datasets: D,
  { calculator, parts }: CalculatorDatasets<P>,
): asserts datasets is WithParts<D, P> {
  requireParts(datasets, parts, calculator);
}
