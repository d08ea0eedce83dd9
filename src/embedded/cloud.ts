/**
 * `co2e-engine/datasets/cloud`: only the embedded cloud tables, for apps that estimate cloud use alone (a much
 * smaller bundle and import than `co2e-engine/datasets`). For a smaller bundle still, `cloudDatasetsWith` takes
 * one grid set and, only where needed, the instance table, each from its own subpath.
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import { ccfGridRegionsTable } from './ccf-grid';
import { cloudInstancesTable } from './cloud-instances';
import { cloudCoefficientsTable } from './cloud-with';
import { electricityMapsRegionsTable } from './electricitymaps-grid';
import { lazyTableDatasets } from '../datasets/lazy';
import type { CloudInstanceDatasets } from '../datasets/types';

export { ccfAppCoefficientsTable, ccfAppDatasets, ccfAppInstancesTable } from './ccf-app';
export { cloudDatasetsWith, type CloudTableChoice } from './cloud-with';
export { ccfGridRegionsTable, cloudInstancesTable, electricityMapsRegionsTable };

/** The embedded cloud tables: CCF coefficients and instances, Electricity Maps yearly grid factors. */
export const cloudTables = /* @__PURE__ */ deepFreeze({
  cloudCoefficients: cloudCoefficientsTable,
  cloudRegions: electricityMapsRegionsTable,
  cloudInstances: cloudInstancesTable,
});

// Pure (like every embedded default): an app that imports only cloudDatasetsWith from here leaves out of its
// bundle the tables it does not pass.
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
export const cloudDatasets = /* @__PURE__ */ lazyTableDatasets(cloudTables) as CloudInstanceDatasets;
