/**
 * The tables the UDF bundles embed, chosen here rather than taken from `co2e-engine/datasets`: those modules also
 * build the alternative datasets (USEEIO, CCF grid factors) at load, which would carry their tables into every
 * bundle.
 */
import cloudCoefficientsJson from '../../datasets/cloud/coefficients.json';
import cloudInstancesJson from '../../datasets/cloud/instances.json';
import electricityMapsRegionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import exiobaseClassificationsJson from '../../datasets/spend/exiobase-classifications.json';
import exiobaseFactorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import exiobaseMarginsJson from '../../datasets/spend/exiobase-margins.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import type { DatasetTables } from '../datasets/create';

// JSON imports widen literal types (a string where a table has `'aws'`), hence the cast; the tables are validated
// against their schemas in tests/datasets.
/**
 * The default cloud tables (as `cloudTables` of `co2e-engine/datasets/cloud`).
 *
 * @example
 * ```ts
 * lazyTableDatasets(udfCloudTables) as CloudDatasets;
 * ```
 */
export const udfCloudTables = {
  cloudCoefficients: cloudCoefficientsJson,
  cloudRegions: electricityMapsRegionsJson,
  cloudInstances: cloudInstancesJson,
} as DatasetTables;

/**
 * The default spend tables (as `spendTables` of `co2e-engine/datasets/spend`).
 *
 * @example
 * ```ts
 * lazyTableDatasets(udfSpendTables) as SpendDatasets;
 * ```
 */
export const udfSpendTables = {
  spendFactors: exiobaseFactorsJson,
  classifications: exiobaseClassificationsJson,
  margins: exiobaseMarginsJson,
  inflation: inflationJson,
  fx: fxJson,
} as DatasetTables;
