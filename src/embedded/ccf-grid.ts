/**
 * `co2e-engine/datasets/cloud/ccf-grid`: CCF's own grid emission factors, alone, for
 * `cloudDatasetsWith({ grid: ccfGridRegionsTable })` ({@link cloudDatasetsWith}): an app on CCF's grid factors ships
 * no other grid table.
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import ccfRegionsJson from '../../datasets/cloud/regions-ccf.json';
import type { CloudRegionsTable } from '../datasets/tables';

// JSON imports widen literal types; the table is validated against its schema in tests/datasets.
/**
 * CCF's own grid emission factors (trunk 2024-03 vintage, year 2024 only; Apache-2.0), an alternative to
 * Electricity Maps'. CCF's region-to-grid choices as CCF made them.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
 * import { ccfGridRegionsTable } from 'co2e-engine/datasets/cloud/ccf-grid';
 * calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, cloudDatasetsWith({ grid: ccfGridRegionsTable }));
 * ```
 */
export const ccfGridRegionsTable = /* @__PURE__ */ deepFreeze(ccfRegionsJson as CloudRegionsTable);
