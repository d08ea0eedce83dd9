/**
 * `co2e-engine/datasets/cloud/instances`: the instance table (vCPUs, memory and embodied emissions per instance
 * type), which only `calculateInstance` and `calculateEmbodied` read; pass it to
 * `cloudDatasetsWith({ grid, instances: cloudInstancesTable })` ({@link cloudDatasetsWith}).
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import cloudInstancesJson from '../../datasets/cloud/instances.json';
import type { CloudInstancesTable } from '../datasets/tables';

// JSON imports widen literal types; the table is validated against its schema in tests/datasets.
/**
 * CCF instance specs and platform embodied emissions (ccf-coefficients, Apache-2.0).
 *
 * @example
 * ```ts
 * import { calculateInstance } from 'co2e-engine';
 * import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
 * import { ccfGridRegionsTable } from 'co2e-engine/datasets/cloud/ccf-grid';
 * import { cloudInstancesTable } from 'co2e-engine/datasets/cloud/instances';
 * const datasets = cloudDatasetsWith({ grid: ccfGridRegionsTable, instances: cloudInstancesTable });
 * calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1 }, datasets);
 * ```
 */
export const cloudInstancesTable = /* @__PURE__ */ deepFreeze(cloudInstancesJson as CloudInstancesTable);
