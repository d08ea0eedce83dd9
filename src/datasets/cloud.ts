/**
 * `co2e-engine/datasets/cloud`: only the embedded cloud tables, for apps that estimate cloud use alone (a much
 * smaller bundle and import than `co2e-engine/datasets`).
 *
 * @packageDocumentation
 */
import cloudCoefficientsJson from '../../datasets/cloud/coefficients.json';
import cloudInstancesJson from '../../datasets/cloud/instances.json';
import ccfRegionsJson from '../../datasets/cloud/regions-ccf.json';
import electricityMapsRegionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import { lazyTableDatasets } from './lazy';
import type { CloudCoefficientsTable, CloudInstancesTable, CloudRegionsTable } from './tables';
import type { CloudDatasets } from './types';

// JSON imports widen literal types; the tables are validated against their schemas in tests/datasets.
/** The embedded cloud tables: CCF coefficients and instances, Electricity Maps yearly grid factors. */
export const cloudTables = {
  cloudCoefficients: cloudCoefficientsJson as CloudCoefficientsTable,
  cloudRegions: electricityMapsRegionsJson as CloudRegionsTable,
  cloudInstances: cloudInstancesJson as CloudInstancesTable,
};

/** CCF's own grid emission factors (trunk 2024-03 vintage, year 2024 only), an alternative to Electricity Maps'. */
export const ccfGridRegionsTable = ccfRegionsJson as CloudRegionsTable;

/**
 * The default cloud datasets: CCF coefficients and instance specs, Electricity Maps yearly grid factors 2021–2025
 * (default year 2022; embodied 2021).
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { cloudDatasets } from 'co2e-engine/datasets/cloud';
 * calculateCpu('aws', { cpu_count: 2, region: 'us_east_1', duration: 1 }, cloudDatasets);
 * ```
 */
export const cloudDatasets = lazyTableDatasets(cloudTables) as CloudDatasets;
