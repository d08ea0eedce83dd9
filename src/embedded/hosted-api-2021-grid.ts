/**
 * `co2e-engine/datasets/cloud/hosted-api-2021-grid`: the hosted API's 2021 cloud factors, alone, for
 * `cloudDatasetsWith({ grid: hostedApi2021RegionsTable })` ({@link cloudDatasetsWith}).
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import hostedApi2021RegionsJson from '../../datasets/cloud/regions-hosted-api-2021.json';
import type { CloudRegionsTable } from '../datasets/tables';

// JSON imports widen literal types; the table is validated against its schema in tests/api.
/**
 * The hosted API's own 2021 cloud factors (68 regions: CPU, memory, SSD and HDD storage, networking; AR4), with
 * the 2021 CCF grid factors they were derived from. Licence CC BY-SA 4.0 (OEFDB); see `datasets/SOURCES.md`.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
 * import { hostedApi2021RegionsTable } from 'co2e-engine/datasets/cloud/hosted-api-2021-grid';
 * const datasets = cloudDatasetsWith({ grid: hostedApi2021RegionsTable });
 * calculateCpu('aws', { cpu_count: 1, region: 'eu_central_1', duration: 1 }, datasets).co2e; // 0.00079987
 * ```
 */
export const hostedApi2021RegionsTable = /* @__PURE__ */ deepFreeze(
  hostedApi2021RegionsJson as CloudRegionsTable,
);
