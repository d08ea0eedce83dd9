import { deepFreeze } from '../core/freeze';
import cloudCoefficientsJson from '../../datasets/cloud/coefficients.json';
import { DatasetError } from '../datasets/errors';
import { lazyTableDatasets } from '../datasets/lazy';
import type { CloudCoefficientsTable, CloudInstancesTable, CloudRegionsTable } from '../datasets/tables';
import type { CloudDatasets, CloudInstanceDatasets } from '../datasets/types';

// JSON imports widen literal types; the table is validated against its schema in tests/datasets.
/** CCF's coefficients per provider (1 KB), which every cloud calculator reads. */
export const cloudCoefficientsTable = /* @__PURE__ */ deepFreeze(
  cloudCoefficientsJson as CloudCoefficientsTable,
);

/** The tables {@link cloudDatasetsWith} assembles, each imported from its own subpath. */
export interface CloudTableChoice {
  /**
   * The grid set: `electricityMapsRegionsTable` (`co2e-engine/datasets/cloud/electricitymaps-grid`, the default),
   * `ccfGridRegionsTable` (`…/ccf-grid`) or `hostedApi2021RegionsTable` (`…/hosted-api-2021-grid`).
   */
  grid: CloudRegionsTable;
  /**
   * `cloudInstancesTable` (`co2e-engine/datasets/cloud/instances`), for `calculateInstance` and
   * `calculateEmbodied`. Without it the datasets have no `cloudInstances`, and those two throw an `EmissionsError`
   * `missing_dataset` saying so; the other cloud calculators never read it.
   */
  instances?: CloudInstancesTable;
}

const CHOICES: ReadonlyArray<keyof CloudTableChoice> = ['grid', 'instances'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A cheap shape check (the embedded tables are validated in tests; your own go through `createTableDatasets`). */
function checkTable(value: unknown, choice: keyof CloudTableChoice, rows: 'regions' | 'instances'): void {
  if (!isRecord(value) || !isRecord(value.dataset) || !Array.isArray(value[rows]))
    throw new DatasetError(
      'cloudDatasetsWith',
      choice,
      `expected a cloud ${rows} table (a { dataset, ${rows}: [...] } object, e.g. ${
        rows === 'regions' ? 'ccfGridRegionsTable' : 'cloudInstancesTable'
      }), got ${isRecord(value) ? `an object with keys ${Object.keys(value).join(', ')}` : typeof value}`,
    );
}

/**
 * Cloud datasets from the tables an app chooses, so its bundle carries only those: the embedded CCF coefficients,
 * one grid set, and the instance table only where `calculateInstance` or `calculateEmbodied` is used. Each part is
 * indexed on first use, as in `cloudDatasets`, which is, with every table in one import,
 * `cloudDatasetsWith({ grid: electricityMapsRegionsTable, instances: cloudInstancesTable })`.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
 * import { ccfGridRegionsTable } from 'co2e-engine/datasets/cloud/ccf-grid';
 *
 * const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable }); // CPU, memory, storage, networking
 * calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, datasets).co2e; // 0.0009121158278
 * ```
 * @throws {@link DatasetError} when `grid` is not a regions table, `instances` (if given) not an instance table, or an
 *   option is unknown.
 */
export function cloudDatasetsWith(
  tables: CloudTableChoice & { instances: CloudInstancesTable },
): CloudInstanceDatasets;
export function cloudDatasetsWith(tables: CloudTableChoice): CloudDatasets;
export function cloudDatasetsWith(tables: CloudTableChoice): CloudDatasets {
  if (!isRecord(tables))
    throw new DatasetError('cloudDatasetsWith', '', 'expected { grid, instances? } (the tables to use)');
  const unknown = Object.keys(tables).filter((key) => !(CHOICES as readonly string[]).includes(key));
  if (unknown.length > 0)
    throw new DatasetError(
      'cloudDatasetsWith',
      unknown.join(', '),
      `unknown option; valid: ${CHOICES.join(', ')}`,
    );
  checkTable(tables.grid, 'grid', 'regions');
  if (tables.instances !== undefined) checkTable(tables.instances, 'instances', 'instances');
  const datasets = lazyTableDatasets({
    cloudCoefficients: cloudCoefficientsTable,
    cloudRegions: tables.grid,
    ...(tables.instances === undefined ? {} : { cloudInstances: tables.instances }),
  });
  return datasets as CloudDatasets;
}
