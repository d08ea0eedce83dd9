/**
 * `co2e-engine/datasets/cloud/electricitymaps-grid`: the default grid factors (Electricity Maps), alone, for
 * `cloudDatasetsWith({ grid: electricityMapsRegionsTable })` ({@link cloudDatasetsWith}).
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import electricityMapsRegionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import type { CloudRegionsTable } from '../datasets/tables';

// JSON imports widen literal types; the table is validated against its schema in tests/datasets.
/**
 * Electricity Maps yearly grid factors 2021–2025 (default year 2022) by cloud region, the default grid set. Licence
 * ODbL-1.0 (share-alike database licence; its own file in the package, with its attribution at its head).
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { cloudDatasetsWith } from 'co2e-engine/datasets/cloud';
 * import { electricityMapsRegionsTable } from 'co2e-engine/datasets/cloud/electricitymaps-grid';
 * const datasets = cloudDatasetsWith({ grid: electricityMapsRegionsTable });
 * calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, datasets);
 * ```
 */
export const electricityMapsRegionsTable = /* @__PURE__ */ deepFreeze(
  electricityMapsRegionsJson as CloudRegionsTable,
);
